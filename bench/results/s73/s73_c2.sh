#!/bin/bash
# session 73, call 2 (one H200): (1) BART's fp32 training step profiled against Inductor (its row is 0.991 in both
# orders, c1): where its 2.2 ms go; (2) a max-autotune row not measured yet (issue 19): RoBERTa's AMP training step,
# both compilers in max-autotune, one process, alternating rounds.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 200 python3 scripts/gpu_profile.py bart --train --gemms --top 60 > $OUT/prof_bart.txt 2>&1
echo "prof rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 590 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/ma \
  --backends inductor@max-autotune,kiln@max-autotune --train --amp --models roberta --budget-s 60 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep -v "^W12\|^I12\|^V12" $OUT/ma.log | tail -n 30 > $OUT/ma_tail.txt; rm -rf $OUT/ma.log $OUT/ma
cat $OUT/machine.txt; grep "^{" $OUT/ma_tail.txt | cut -c1-900
