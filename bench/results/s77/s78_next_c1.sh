#!/bin/bash
# written in session 77 for the next session's first call (one H200), issue 19: max-autotune rows not measured yet,
# bf16 inference BART and HF RegNet, both compilers in max-autotune, one process, alternating rounds.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 570 python3 scripts/gpu_models.py --out $OUT/ma \
  --backends inductor@max-autotune,kiln@max-autotune --models bart,regnet --budget-s 330 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/ma.log > $OUT/ma_rows.txt; grep -v "^W12\|^I12\|^V12\|^{" $OUT/ma.log | tail -n 15 > $OUT/ma_tail.txt
rm -rf $OUT/ma.log $OUT/ma; cat $OUT/machine.txt; cut -c1-400 $OUT/ma_rows.txt
