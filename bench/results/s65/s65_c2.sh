#!/bin/bash
# session 65, call 2 (one H200, <= 570 s): issue 19's max-autotune row for Swin (bf16 inference), both compilers in
# max-autotune in one process, alternating rounds; kiln from exp/kiln (call 1's tree).
R=$OUT; mkdir -p $R; start=$(date +%s); export PYTHONPATH=exp:.
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $R/machine.txt 2>&1
timeout 560 python3 scripts/gpu_models.py --out /tmp/ma --backends inductor@max-autotune,kiln@max-autotune \
  --models swin --budget-s 60 > /tmp/ma.log 2>&1
echo "rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/ma/*.json /tmp/ma/*.md $R/ 2>/dev/null; grep -v "^W12\|^I12\|^V12" /tmp/ma.log | tail -n 30 > $R/log_tail.txt
cat $R/machine.txt; grep "^{" /tmp/ma.log | cut -c1-900
