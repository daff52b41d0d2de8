#!/bin/bash
# session 69, call 3 (one H200): call 2's exp/ (SPREAD_PROGRAMS = 64) made DeiT-tiny's layer norm backward slower as
# a whole call (12.9 -> 14.0 us) though each kernel alone was as fast or faster (its combine 2.41 -> 1.47). Is it
# the dependent launches? The 192-column call with and without them, main against exp/; then timm DeiT-tiny's AMP
# training step, kiln alone against eager, main and exp/ in alternating processes (twice each).
export PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 40 python3 bench/results/s67/ln_backward.py --shapes 32x197x192 --variants inductor,default,nodep > $OUT/ln_main.txt 2>&1
PYTHONPATH=exp:. timeout 40 python3 bench/results/s67/ln_backward.py --shapes 32x197x192 --variants default,nodep > $OUT/ln_exp.txt 2>&1
echo "ln rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
for round in 1 2; do
  for v in main exp; do
    P=.; [ $v = exp ] && P=exp:.
    PYTHONPATH=$P timeout 110 python3 scripts/gpu_models.py --out $OUT/m --train --amp --backends kiln --models timm_deit --budget-s 20 > $OUT/m.log 2>&1
    echo "$v $(grep '^{' $OUT/m.log | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print(r["kiln_ms"], r["eager_ms"], r["kiln_accuracy"])')" >> $OUT/deit.txt
    echo "deit $v rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
    [ $(( $(date +%s) - start )) -gt 420 ] && break 2
  done
done
rm -rf $OUT/m $OUT/m.log
cat $OUT/machine.txt; grep "us a call" $OUT/ln_*.txt | cut -c1-330; cat $OUT/deit.txt
