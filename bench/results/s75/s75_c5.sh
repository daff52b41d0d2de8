#!/bin/bash
# session 75, call 5 (one H200; the session's last device minutes): AMP-bf16 training rows measured longest ago
# (sessions 29 and 45), one process, alternating rounds, as far as the budget reaches.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 290 python3 scripts/gpu_models.py --out $OUT/amp --train --amp --models timm_resnet,qwen2,llama,mistral \
  --budget-s 170 > $OUT/amp.log 2>&1
echo "amp rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/amp.log > $OUT/amp_rows.txt; grep "budget" $OUT/amp.log >> $OUT/machine.txt; tail -3 $OUT/amp.log > $OUT/amp_tail.txt
rm -rf $OUT/amp.log $OUT/amp; cat $OUT/machine.txt; cut -c1-300 $OUT/amp_rows.txt
