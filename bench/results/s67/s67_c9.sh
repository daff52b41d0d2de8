#!/bin/bash
# session 67, call 9 (one H200; NOT RUN: the session's device time was spent, so session 68's first call): main with interleaved column sums in up to 64 pieces of at least 128 rows
# (reductions.FEW_PIECES; uncommitted tree): the layer norm backward against Inductor, then timm DeiT-tiny's AMP
# training step (default mode, one process, alternating rounds).
export PYTHONPATH=.; start=$(date +%s)
timeout 60 python3 bench/results/s67/ln_backward.py --variants inductor,default > $OUT/ln.txt 2>&1
echo "ln rc $? at $(( $(date +%s) - start )) s" >> $OUT/ln.txt
timeout $(( 150 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/m --train --amp --backends inductor,kiln --models timm_deit --budget-s 20 > $OUT/m.log 2>&1
echo "model rc $? at $(( $(date +%s) - start )) s" >> $OUT/ln.txt
grep -v Warn $OUT/ln.txt | grep -v _warn_once; cat $OUT/m/*.md
