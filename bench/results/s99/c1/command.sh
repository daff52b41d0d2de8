#!/bin/bash
# s99 c1 (one GPU), positions.patch applied to the tree: Whisper's AMP-training step in kiln's modes, one process,
# alternating rounds, with the CUDA-graph recordings counted from kiln's log
export PYTHONPATH=. PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; python3 -c \
  "import torch, triton; print(torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
KILN_LOGS=all timeout 420 python3 scripts/gpu_models.py --out $OUT/w --train --amp \
  --backends kiln,kiln@reduce-overhead,kiln@max-autotune --models whisper --budget-s 60 > /tmp/w.log 2>&1
echo "rc $?; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" /tmp/w.log > $OUT/rows.txt
{ echo "records again: $(grep -c 'records its CUDA graph again' /tmp/w.log)";
  echo "another call site: $(grep -c 'at another call site' /tmp/w.log)";
  grep "without a CUDA graph\|keeps one recording" /tmp/w.log | sed 's/^.*kiln: //' | sort | uniq -c | head -20;
  grep -v "^{\|kiln\.\|^\[" /tmp/w.log | grep -i "error\|warn\|Traceback" | sort | uniq -c | head -20; } > $OUT/log_summary.txt
cat $OUT/machine.txt $OUT/log_summary.txt; cut -c1-1500 $OUT/rows.txt
