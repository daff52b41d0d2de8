#!/bin/bash
# session 87, call c3 (one H100/H200), ~150 s: cuDNN's first calls of a layout (s87/cudnn_first_calls.py, both
# orders), and the sampling profile (s87/sampled.py, now with collapsed stacks of every thread, the autograd
# engine's CUDA thread too) of kiln's cold EfficientNet-B0 training compile.
export PYTHONUNBUFFERED=1; start=$(date +%s); mkdir -p /tmp/o
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; nproc; git log -1 --format=%h; } > /tmp/o/machine.txt 2>&1
PYTHONPATH=. timeout 60 python3 bench/results/s87/cudnn_first_calls.py > /tmp/o/cudnn.log 2>&1
PYTHONPATH=. timeout 60 python3 bench/results/s87/cudnn_first_calls.py --cl-first >> /tmp/o/cudnn.log 2>&1
echo "cudnn at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt; grep ROW /tmp/o/cudnn.log > /tmp/o/cudnn.rows
d=$(mktemp -d)
KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t PYTHONPATH=. timeout 150 python3 \
  bench/results/s87/sampled.py /tmp/o/efficientnet_kiln.json -- --child --model efficientnet --backend kiln --device cuda \
  --train < /dev/null > /tmp/o/efficientnet_kiln.log 2>&1
echo "sampled rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
grep ROW /tmp/o/efficientnet_kiln.log > /tmp/o/efficientnet_kiln.row; tar czf $OUT/c3.tgz -C /tmp/o --exclude='*.log' .
cat /tmp/o/machine.txt /tmp/o/*.row* /tmp/o/cudnn.rows; tail -5 /tmp/o/cudnn.log
