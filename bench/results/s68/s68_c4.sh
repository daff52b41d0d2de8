#!/bin/bash
# session 68, call 4 (one H200): the layer norm's backward at 192, 384 and 768 columns (6304 rows), kiln / Inductor,
# main (interleaved column sums on CUDA in up to reductions.FEW_PIECES = 64 pieces of at least 128 rows, d8eff0c)
# against exp/ (that only while the pieces' outputs stay under FEW_OUTPUTS = 8192: 768 columns back to 16 pieces).
export PYTHONPATH=.; start=$(date +%s); S=32x197x192,32x197x384,32x197x768
timeout 100 python3 bench/results/s67/ln_backward.py --shapes $S --variants inductor,default > $OUT/main.txt 2>&1
echo "main rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
PYTHONPATH=exp:. timeout 100 python3 bench/results/s67/ln_backward.py --shapes $S --variants inductor,default > $OUT/exp.txt 2>&1
echo "exp rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
cat $OUT/machine.txt; grep "us a call" $OUT/main.txt $OUT/exp.txt
