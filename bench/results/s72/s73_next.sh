#!/bin/bash
# written in session 72 for the next session's first call (one H200): (1) T5's fp32 training step profiled again
# with INTERLEAVED_TILE and the small table's scatter in copies (NOTES 96, 97: the position bias sums predicted
# ~20-25 us each from 89, the two bias-table gradients ~20-40 us from ~2 ms); (2) fp32 training rows of T5,
# RoBERTa and BERT (token-type tables), then BART in both orders (its frames recompile per layer).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 150 python3 scripts/gpu_profile.py t5 --train --gemms --top 40 > $OUT/prof_t5.txt 2>&1
echo "prof rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 400 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/tr --train \
  --models t5,roberta,bert --budget-s $(( 300 - $(date +%s) + start )) > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 585 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/bart --train --both-orders \
  --models bart --budget-s 10 > $OUT/bart.log 2>&1
echo "bart rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
for f in tr bart; do grep "^{" $OUT/$f.log > $OUT/${f}_rows.txt; rm -f $OUT/$f.log; done
cat $OUT/machine.txt; grep -v "^W12\|^I12" $OUT/prof_t5.txt | grep -A25 "top CUDA kernels" | cut -c1-170; cat $OUT/tr/*.md $OUT/bart/*.md
