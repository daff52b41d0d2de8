#!/bin/bash
# session 74, call 2 (one H200): fp32 training rows of the suite's conv nets last measured in sessions 29-48, one
# process, alternating rounds: with call 1's, every model of the suite measured in fp32 training at 0e09df7+.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 560 python3 scripts/gpu_models.py --out $OUT/tr --train \
  --models efficientnet,mobilenet_v2,regnet,timm_efficientnet,timm_mobilenetv3,timm_regnet,timm_resnet,timm_convnext \
  --budget-s 440 > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/tr.log > $OUT/tr_rows.txt; grep "budget" $OUT/tr.log >> $OUT/machine.txt; tail -5 $OUT/tr.log > $OUT/tr_tail.txt; rm -f $OUT/tr.log
cat $OUT/machine.txt; cat $OUT/tr/*.md
