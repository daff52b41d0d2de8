#!/bin/bash
# session 82, call 2 (one H100/H200): (a) bench/results/s82/gpu_scalars.py (float64 scalars; CPU scalars computed
# for GPU ops); (b) issue 19's max-autotune rows never measured: bf16 inference BART and HF RegNet, both compilers
# in max-autotune, one process, alternating rounds (prepared in session 77 as s77/s78_next_c1.sh).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h;
  python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
timeout 150 python3 bench/results/s82/gpu_scalars.py > $OUT/scalars.log 2>&1
echo "scalars rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
grep "^{" $OUT/scalars.log > $OUT/scalars.json; grep -v "^{" $OUT/scalars.log | grep -v "^W12\|^I12" | tail -n 40 > $OUT/scalars_tail.txt
rm -f $OUT/scalars.log
timeout 400 python3 scripts/gpu_models.py --out $OUT/ma \
  --backends inductor@max-autotune,kiln@max-autotune --models bart,regnet --budget-s 300 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/ma.log > $OUT/ma_rows.txt; grep -v "^W12\|^I12\|^V12\|^{" $OUT/ma.log | tail -n 15 > $OUT/ma_tail.txt
cp $OUT/ma/*.json $OUT/ 2>/dev/null; rm -rf $OUT/ma.log $OUT/ma; cat $OUT/machine.txt; cat $OUT/scalars.json; cut -c1-400 $OUT/ma_rows.txt
