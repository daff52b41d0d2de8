#!/bin/bash
# written in session 74 for the next session's first call (one H200). (1) Item 101's prediction: fp32 training
# steps with every activation size symbolic (Dynamo's assume_static_by_default off: as dynamic=True, parameters
# static), kiln against Inductor in one process, BERT, BART and GPT-2. (2) The rows this session's budget left:
# AMP training of timm EfficientNet (never measured), fp32 training of timm ResNet and timm ConvNeXt (session 29's).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 300 python3 - > $OUT/dyn.log 2>&1 <<PY
import runpy, sys, torch._dynamo
torch._dynamo.config.assume_static_by_default = False
sys.argv = ["scripts/gpu_models.py", "--out", "$OUT/dyn", "--train", "--models", "bert,gpt2,bart", "--budget-s", "200"]
runpy.run_path("scripts/gpu_models.py", run_name="__main__")
PY
echo "dyn rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
timeout 250 python3 scripts/gpu_models.py --out $OUT/amp --train --amp --models timm_efficientnet --budget-s 100 \
  > $OUT/amp.log 2>&1
echo "amp rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
left=$(( 560 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_models.py --out $OUT/tr --train --models timm_resnet,timm_convnext \
  --budget-s $(( left - 100 )) > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
for k in dyn amp tr; do grep "^{" $OUT/$k.log > $OUT/${k}_rows.txt; grep "budget" $OUT/$k.log >> $OUT/machine.txt; tail -3 $OUT/$k.log > $OUT/${k}_tail.txt; rm -f $OUT/$k.log; done
cat $OUT/machine.txt; cat $OUT/*/*.md
