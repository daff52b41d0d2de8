#!/bin/bash
# session 67, call 5 (one H200): timm DeiT-tiny's AMP training step in kiln's default mode, top kernels by GPU time
# and kiln's trace (kernel sources, per-kernel times): main (82077b2), then main with interleaved column sums split
# into pieces of at least 64 rows instead of 256 (reductions.SPLITS; the tree under exp/).
export PYTHONPATH=.; start=$(date +%s)
timeout 200 python3 scripts/gpu_profile.py timm_deit --train --amp --backends kiln --top 40 --trace $OUT/trace_main > $OUT/prof_main.txt 2>&1
echo "main rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
PYTHONPATH=exp:. timeout 200 python3 scripts/gpu_profile.py timm_deit --train --amp --backends kiln --top 40 > $OUT/prof_exp.txt 2>&1
echo "exp rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
cat $OUT/machine.txt; head -12 $OUT/prof_main.txt; head -12 $OUT/prof_exp.txt; du -sh $OUT/trace_main
