#!/bin/bash
# session 58, call 6 (one H200, the session's last device minutes): issue 19's reduce-overhead memory measure
# (gpu_modes.py: each variant's peak over its life, compile and recording included, and what it holds between
# calls; session 57's read 0 for reduce-overhead), DistilBERT at batch 1.
export PYTHONPATH=.
mkdir -p $OUT/ro; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head; } > $OUT/machine.txt 2>&1
timeout 170 python3 scripts/gpu_modes.py --out $OUT/ro --models distilbert --batches 1 --skip-checks --budget-s 40 2>&1 | grep "^{" | grep -v '"checks"' | cut -c1-1500
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $OUT/machine.txt
