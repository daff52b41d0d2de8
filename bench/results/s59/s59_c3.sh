#!/bin/bash
# session 59, call 3 (one H200): call 2's fresh-process memory again (its children had failed on --out): DistilBERT
# and GPT-2 at batch 1, eager / kiln / kiln reduce-overhead each in a process of its own, on the change and on
# HEAD's cuda_graphs.py (the warm-up on the caller's stream).
export PYTHONPATH=.
R=$OUT; mkdir -p $R; start=$(date +%s)
for m in distilbert gpt2; do for v in eager kiln kiln_ro; do
  echo "$m $v $(timeout 100 python3 scripts/gpu_modes.py --memory-of $m:1:$v 2>&1 | grep '^{')" >> $R/fresh.txt
done; done
cp kiln/runtime/cuda_graphs.py /tmp/new_cuda_graphs.py
git show HEAD:kiln/runtime/cuda_graphs.py > kiln/runtime/cuda_graphs.py
for m in distilbert gpt2; do
  echo "$m kiln_ro HEAD $(timeout 100 python3 scripts/gpu_modes.py --memory-of $m:1:kiln_ro 2>&1 | grep '^{')" >> $R/fresh.txt
done
cp /tmp/new_cuda_graphs.py kiln/runtime/cuda_graphs.py
echo "done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/fresh.txt
cat $R/fresh.txt
