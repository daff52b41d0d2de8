#!/bin/bash
# session 42: a depthwise kernel and a batch norm kernel of MobileNetV2 (session 42's c1 trace) with and without
# the batch norm's per-element IEEE square root and division (s42_dw_variants.py)
R=$OUT/r; mkdir -p $R
T=bench/results/s42/c1/dwprof_mobilenet_v2_trace/g0_inference
PYTHONPATH=. timeout 150 python3 bench/results/s42/s42_dw_variants.py $T 8d8ff1c8cc 32,144,58,58,3,1,0 $R/dw_144.json > $R/dw_144.log 2>&1
PYTHONPATH=. timeout 150 python3 bench/results/s42/s42_dw_variants.py $T 99a9a9914a - $R/bn_144.json > $R/bn_144.log 2>&1
grep -v Warn $R/dw_144.log $R/bn_144.log | grep -v "^.*{" 
tar czf $OUT/v.tgz -C $R .
