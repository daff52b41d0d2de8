#!/bin/bash
# written in session 82 for a later call (one H100/H200): (a) bench/results/s82/gpu_scalars.py on the committed tree
# (float64 scalars; CPU scalars computed for, or given to, GPU ops; a returned CPU scalar), its float32 sums judged
# within float32 rounding; (b) issue 19's max-autotune row for HF RegNet alone (session 82's call ran out of time in
# Inductor's convolution tuning), bf16 inference, both compilers in max-autotune, one process, alternating rounds.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h;
  python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
timeout 120 python3 bench/results/s82/gpu_scalars.py > $OUT/scalars.log 2>&1
echo "scalars rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout 430 python3 scripts/gpu_models.py --out $OUT/ma --backends inductor@max-autotune,kiln@max-autotune \
  --models regnet --budget-s 400 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/ma.log > $OUT/ma_rows.txt; grep -v "^W12\|^I12\|^V12\|^{\|AUTOTUNE\|triton_\|strides:\|dtypes:" $OUT/ma.log | tail -n 15 > $OUT/ma_tail.txt
cp $OUT/ma/*.json $OUT/ 2>/dev/null; rm -rf $OUT/ma.log $OUT/ma; cat $OUT/machine.txt; grep "^{" $OUT/scalars.log | cut -c1-200; cut -c1-400 $OUT/ma_rows.txt
