#!/bin/bash
# session 76, call 3 (one H200): BART's AMP-bf16 training row in both orders (NOTES 53), then HF RegNet's, which
# call 1's budget did not reach. One process per model, alternating rounds.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 360 python3 scripts/gpu_models.py --out $OUT/amp --train --amp --both-orders --models bart \
  --budget-s 280 > $OUT/amp.log 2>&1
echo "bart rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
left=$(( 580 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_models.py --out $OUT/amp2 --train --amp --models regnet \
  --budget-s $(( left - 40 )) > $OUT/amp2.log 2>&1
echo "regnet rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep -h "^{" $OUT/amp.log $OUT/amp2.log > $OUT/amp_rows.txt; grep -h "budget" $OUT/amp.log $OUT/amp2.log >> $OUT/machine.txt
tail -3 $OUT/amp.log $OUT/amp2.log > $OUT/amp_tail.txt
rm -rf $OUT/amp.log $OUT/amp2.log $OUT/amp $OUT/amp2; cat $OUT/machine.txt; cut -c1-300 $OUT/amp_rows.txt
