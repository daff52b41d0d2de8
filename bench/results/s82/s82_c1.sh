#!/bin/bash
# session 82, call 1 (one H100/H200): (a) the wrapper's float scalars reach Triton kernels as float64
# (bench/results/s82/float_scalar_gpu.py); (b) issue 19's GPU freezing rows with the fixed gpu_modes.py
# (prepared in session 78 as s78/s79_next_c4.sh).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h;
  python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
timeout 120 python3 bench/results/s82/float_scalar_gpu.py > $OUT/float_scalar.log 2>&1
echo "float_scalar rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
grep "^{" $OUT/float_scalar.log > $OUT/float_scalar.json || tail -n 30 $OUT/float_scalar.log > $OUT/float_scalar_tail.txt
rm -f $OUT/float_scalar.log
timeout 430 python3 scripts/gpu_modes.py --out $OUT/fr \
  --freezing resnet,timm_resnet,mobilenet_v2,convnext,timm_convnext,efficientnet --budget-s 400 > $OUT/fr.log 2>&1
echo "fr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/fr.log > $OUT/fr_rows.txt; grep -v "^W12\|^I12\|^V12\|^{" $OUT/fr.log | tail -n 15 > $OUT/fr_tail.txt
cp $OUT/fr/*.json $OUT/ 2>/dev/null; rm -rf $OUT/fr.log $OUT/fr; cat $OUT/machine.txt; cat $OUT/float_scalar.json; cut -c1-400 $OUT/fr_rows.txt
