#!/bin/bash
# session 67, call 7 (one H200): a layer norm's backward, kiln's variants of its column sums (split and tile, in
# exp/, a copy of main with the two settings read from the environment) against Inductor, timed as the GPU runs
# them (bench/results/s67/ln_backward.py); then timm DeiT-tiny's AMP training step, Inductor against kiln with the
# variant that was fastest over the shapes (default mode, one process, alternating rounds).
export PYTHONPATH=exp:.; start=$(date +%s)
timeout 200 python3 bench/results/s67/ln_backward.py > $OUT/ln.txt 2>&1
echo "ln rc $? at $(( $(date +%s) - start )) s" >> $OUT/ln.txt
best=$(python3 -c "
import json, collections
t = collections.defaultdict(float)
for r in json.load(open('$OUT/ln_backward.json')):
    if r['variant'] not in ('inductor', 'auto'): t[r['variant']] += r['us_per_call']
print(min(t, key=t.get))")
echo "best $best" >> $OUT/ln.txt
for part in ${best//+/ }; do
  case $part in s*) export KILN_EXP_SHORTEST=${part#s};; t*) export KILN_EXP_TILE=${part#t};; esac
done
env | grep KILN_EXP >> $OUT/ln.txt
timeout $(( 330 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/m --train --amp --backends inductor,kiln --models timm_deit --budget-s 30 > $OUT/m.log 2>&1
echo "model rc $? at $(( $(date +%s) - start )) s" >> $OUT/ln.txt
cat $OUT/ln.txt; cat $OUT/m/*.md
