#!/bin/bash
# session 72, call 3 (one H200): column sums over a short strided dim in tiles of 4096 elements
# (codegen/triton.INTERLEAVED_TILE): the GPU codegen tests, the sum alone against Inductor, and T5's and Swin's
# fp32 training rows, kiln against Inductor (one process, alternating rounds).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 80 python3 -m pytest -q -x tests/test_gpu_codegen.py > $OUT/tests.txt 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout 60 python3 bench/results/s72/batch_sum.py > $OUT/batch_sum.txt 2>&1
echo "sum rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 345 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/tr --train \
  --models t5,swin --budget-s $(( 200 - $(date +%s) + start )) > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/tr.log > $OUT/tr_rows.txt; grep -v "^W12\|^I12\|^V12" $OUT/tr.log | tail -n 12 > $OUT/tr_tail.txt; rm -f $OUT/tr.log
cat $OUT/machine.txt; tail -n 2 $OUT/tests.txt; grep "floor" $OUT/batch_sum.txt; cat $OUT/tr/*.md
