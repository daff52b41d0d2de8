#!/bin/bash
# written in session 75 for the next session's call 2 of 3 (one H200): the AMP-bf16 training rows measured longest
# ago (sessions 45-68), one process, alternating rounds, so that all 27 AMP rows come from sessions 75-76 (session
# 75 ran timm EfficientNet, timm ResNet, Qwen2, Llama, Mistral; session 74 the other timm models).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 575 python3 scripts/gpu_models.py --out $OUT/amp --train --amp --models efficientnet,t5,swin,whisper,deit,vit \
  --budget-s 470 > $OUT/amp.log 2>&1
echo "amp rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/amp.log > $OUT/amp_rows.txt; grep "budget" $OUT/amp.log >> $OUT/machine.txt; tail -3 $OUT/amp.log > $OUT/amp_tail.txt
rm -rf $OUT/amp.log $OUT/amp; cat $OUT/machine.txt; cut -c1-300 $OUT/amp_rows.txt
