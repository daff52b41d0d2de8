#!/bin/bash
# session 87, call c4 (one H100/H200), ~60 s: where kiln's main thread stalls in EfficientNet-B0's cold training
# compile (s87/sampled.py with the collector's passes and the gaps between samples, every thread's stacks).
export PYTHONUNBUFFERED=1; start=$(date +%s); mkdir -p /tmp/o
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; nproc; git log -1 --format=%h; python3 -c "import sympy, sys; print(sympy.__version__, sys.version)"; } > /tmp/o/machine.txt 2>&1
d=$(mktemp -d)
KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t PYTHONPATH=. timeout 150 python3 \
  bench/results/s87/sampled.py /tmp/o/efficientnet_kiln.json -- --child --model efficientnet --backend kiln --device cuda \
  --train < /dev/null > /tmp/o/efficientnet_kiln.log 2>&1
echo "sampled rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
grep ROW /tmp/o/efficientnet_kiln.log > /tmp/o/efficientnet_kiln.row; tail -c 3000 /tmp/o/efficientnet_kiln.log > /tmp/o/efficientnet_kiln.tail
tar czf $OUT/c4.tgz -C /tmp/o --exclude='*.log' .
cat /tmp/o/machine.txt /tmp/o/*.row
