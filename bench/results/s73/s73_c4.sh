#!/bin/bash
# session 73, call 4 (one H200): fp32 training rows of models whose layer norms' weight gradients the tiling change
# (e8c8121) reaches, measured last before it (s70, s72): Whisper, Swin, GPT-2, DistilBERT, ViT, in one process each,
# alternating rounds.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 370 python3 scripts/gpu_models.py --out $OUT/tr --train \
  --models whisper,swin,gpt2,distilbert,vit --budget-s 300 > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/tr.log > $OUT/tr_rows.txt; grep "budget" $OUT/tr.log >> $OUT/machine.txt; rm -f $OUT/tr.log
cat $OUT/machine.txt; cat $OUT/tr/*.md
