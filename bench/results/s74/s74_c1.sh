#!/bin/bash
# session 74, call 1 (one H200; written in session 73 as s74_next.sh): fp32 training rows of the suite's models not
# measured since the row-walking-read change (e8c8121, eed74a2; NOTES 98), one process, alternating rounds; the
# models whose layer norms' or batch norms' weight gradients it may retile first.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 570 python3 scripts/gpu_models.py --out $OUT/tr --train \
  --models deit,albert,deberta_v2,llama,qwen2,mistral,convnext,resnet,timm_vit,timm_deit --budget-s 470 > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/tr.log > $OUT/tr_rows.txt; grep "budget" $OUT/tr.log >> $OUT/machine.txt; rm -f $OUT/tr.log
cat $OUT/machine.txt; cat $OUT/tr/*.md
