#!/bin/bash
# session 42: hand-written depthwise kernels (s42_dw_hand.py) over two shapes, and whether ncu is there
R=$OUT/r; mkdir -p $R
(which ncu nsys; ls /usr/local/cuda*/bin 2>/dev/null | head -30) > $R/tools.txt 2>&1
for s in 32,144,56 32,72,56; do PYTHONPATH=. timeout 200 python3 bench/results/s42/s42_dw_hand.py $s $R/hand_${s//,/_}.json > $R/hand_${s//,/_}.log 2>&1; tail -40 $R/hand_${s//,/_}.log; done
cat $R/tools.txt
tar czf $OUT/hand.tgz -C $R .
