#!/bin/bash
# session 73, call 3 (one H200): a row reduction tiled for the read that moves a block of outputs x rows (e8c8121):
# (1) the GPU codegen tests; (2) BART's fp32 training step profiled, kiln alone (c2 has both: its layer norm
# backward kernels of 143 and 113 us a call); (3) BART's row in both orders; (4) BERT's and RoBERTa's rows (post-LN too).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_codegen.py 2>&1 | tail -3 > $OUT/tests.txt
echo "tests rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout 120 python3 scripts/gpu_profile.py bart --train --gemms --top 60 --backends kiln > $OUT/prof_bart.txt 2>&1
echo "prof rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 400 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/bart --train --both-orders \
  --models bart --budget-s 10 > $OUT/bart.log 2>&1
echo "bart rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 555 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/tr --train \
  --models bert,roberta --budget-s $(( 480 - $(date +%s) + start )) > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
for f in tr bart; do grep "^{" $OUT/$f.log > $OUT/${f}_rows.txt; rm -f $OUT/$f.log; done
cat $OUT/machine.txt $OUT/tests.txt; grep -v "^W12\|^I12" $OUT/prof_bart.txt | grep -A25 "top CUDA kernels" | cut -c1-150
cat $OUT/bart/*.md $OUT/tr/*.md
