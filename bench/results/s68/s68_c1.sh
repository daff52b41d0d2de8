#!/bin/bash
# session 67, call 9, run as session 68, call 1 (one H200): main at
# d8eff0c or later, interleaved column sums in up to 64 pieces of at least 128 rows (reductions.FEW_PIECES): the
# layer norm backward against Inductor, then timm DeiT-tiny's AMP
# training step, then HF DeiT's and ViT's (default mode, one process, alternating rounds); Inductor's chosen
# launch configurations for the layer norm backward (its .best_config files) are printed too; then the combining
# kernel over many partial sums across tiles (column_sums.py --combine).
export PYTHONPATH=.; start=$(date +%s)
timeout 60 python3 bench/results/s67/ln_backward.py --variants inductor,default > $OUT/ln.txt 2>&1
echo "ln rc $? at $(( $(date +%s) - start )) s" >> $OUT/ln.txt
timeout $(( 400 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/m --train --amp --backends inductor,kiln --models timm_deit,deit,vit --budget-s 100 > $OUT/m.log 2>&1
echo "model rc $? at $(( $(date +%s) - start )) s" >> $OUT/ln.txt
timeout 120 python3 bench/results/s67/column_sums.py --combine > $OUT/combine.txt 2>&1
echo "combine rc $? at $(( $(date +%s) - start )) s" >> $OUT/ln.txt
grep -v Warn $OUT/ln.txt | grep -v _warn_once; cat $OUT/m/*.md; cat $OUT/combine.txt
