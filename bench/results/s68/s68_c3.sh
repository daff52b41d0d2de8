#!/bin/bash
# session 68, call 3 (one H200): as call 2, on HF DeiT's AMP training step (session 67: reduce-overhead 1.24,
# max-autotune 1.061), kiln with kept activations (cuda_graphs.Recording.kept).
export PYTHONPATH=.; start=$(date +%s)
timeout 150 python3 scripts/gpu_models.py --out $OUT/ro --train --amp --backends inductor@reduce-overhead,kiln@reduce-overhead --models deit --budget-s 30 > $OUT/ro.log 2>&1
echo "ro rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
timeout $(( 560 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/ma \
  --backends inductor@max-autotune,kiln@max-autotune --train --amp --models deit --budget-s 100 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep -v "^W12\|^I12\|^V12" $OUT/ma.log | tail -n 30 > $OUT/ma_tail.txt; rm -f $OUT/ma.log
cat $OUT/machine.txt; grep "^{" $OUT/ro.log | cut -c1-900; grep "^{" $OUT/ma_tail.txt | cut -c1-900
