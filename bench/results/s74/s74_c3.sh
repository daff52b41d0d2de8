#!/bin/bash
# session 74, call 3 (one H200): AMP-bf16 training rows of the five timm models never measured in that mode, then
# the three fp32 training rows call 2's budget left out, one process per mode, alternating rounds.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 420 python3 scripts/gpu_models.py --out $OUT/amp --train --amp \
  --models timm_vit,timm_regnet,timm_convnext,timm_mobilenetv3,timm_efficientnet --budget-s 330 > $OUT/amp.log 2>&1
echo "amp rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
left=$(( 540 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_models.py --out $OUT/tr --train \
  --models timm_regnet,timm_resnet,timm_convnext --budget-s $(( left - 110 )) > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
for k in amp tr; do grep "^{" $OUT/$k.log > $OUT/${k}_rows.txt; grep "budget" $OUT/$k.log >> $OUT/machine.txt; tail -3 $OUT/$k.log > $OUT/${k}_tail.txt; rm -f $OUT/$k.log; done
cat $OUT/machine.txt; cat $OUT/amp/*.md $OUT/tr/*.md
