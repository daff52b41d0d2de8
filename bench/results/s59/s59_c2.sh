#!/bin/bash
# session 59, call 2 (one H200): issue 19. The warm-up call of a recorded graph on the recording's stream (one cuBLAS
# workspace per process, not two): its GPU test, failing first on the code before it (HEAD's cuda_graphs.py); the
# CUDA-graph checks; DistilBERT and GPT-2 at batch 1 with the memory read after the compile call and one more call
# (the accuracy check's float64 copies out of it), and each of eager / kiln / kiln reduce-overhead again in a
# process of its own (--fresh-memory).
export PYTHONPATH=.
R=$OUT; mkdir -p $R/ro; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head; } > $R/machine.txt 2>&1
T=tests/test_modes.py::test_a_process_recording_graphs_holds_no_more_cublas_workspaces_than_one_running_them
cp kiln/runtime/cuda_graphs.py /tmp/new_cuda_graphs.py
git show HEAD:kiln/runtime/cuda_graphs.py > kiln/runtime/cuda_graphs.py
timeout 120 python3 -m pytest -q -p no:cacheprovider $T > $R/test_before.log 2>&1; echo "test on HEAD's code rc $?" >> $R/machine.txt
cp /tmp/new_cuda_graphs.py kiln/runtime/cuda_graphs.py
timeout 120 python3 -m pytest -q -p no:cacheprovider $T > $R/test_after.log 2>&1; echo "test on the change rc $?" >> $R/machine.txt
timeout 400 python3 scripts/gpu_modes.py --out $R/ro --models distilbert,gpt2 --batches 1 --fresh-memory eager,kiln,kiln_ro --budget-s 200 > $R/ro.log 2>&1
echo "modes rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/machine.txt; tail -3 $R/test_*.log; grep "^{" $R/ro.log | cut -c1-2500
