#!/bin/bash
# session 71, call 1 (one H200): (1) dependent launches triggered late (each kernel's programs let the next kernel
# start as they exit, not as they start; s70_late_check.py) against the default, on the 50-tiny-op graph, bf16
# inference rows and AMP training rows, one process each, alternating rounds; (2) issue 23: fp32 training
# steps' compile time, cold and warm, aot_eager / Inductor / kiln (last measured on the GPU in session 34).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h;
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
timeout 200 python3 bench/results/s70/s70_late_check.py $OUT/late gpt2,mobilenet_v2,timm_mobilenetv3,bert \
  --budget-s 130 > $OUT/late_infer.log 2>&1
echo "late infer rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout 130 python3 bench/results/s70/s70_late_check.py $OUT/late timm_deit,resnet --train --amp --no-tiny \
  --budget-s 60 > $OUT/late_train.log 2>&1
echo "late train rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 580 - $(date +%s) + start )) python3 scripts/gpu_compile_time.py --out $OUT/ct --train \
  --models resnet,bert,gpt2 --timeout 120 --budget-s $(( 480 - $(date +%s) + start )) > $OUT/ct.log 2>&1
echo "ct rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
for f in late_infer late_train; do grep "^{" $OUT/$f.log > $OUT/${f}_rows.txt; grep -v "^W12\|^I12\|^V12" $OUT/$f.log | tail -n 15 > $OUT/${f}_tail.txt; rm -f $OUT/$f.log; done
tail -n 20 $OUT/ct.log > $OUT/ct_tail.txt; rm -f $OUT/ct.log
cat $OUT/machine.txt; cut -c1-600 $OUT/late_*_rows.txt; cat $OUT/ct/compile_time.md 2>/dev/null
