#!/bin/bash
# session 42, one device call: depthwise kernels from session 42's first traces under launch/code variants
# (s42_dw_variants.py), then the steps of bench/results/s41/s41_gpu.sh. Packs $OUT/results.tgz.
R=$OUT/r; mkdir -p $R
T=bench/results/s42/c1
PYTHONPATH=. timeout 150 python3 bench/results/s42/s42_dw_variants.py $T/dwprof_timm_mobilenetv3_trace/g0_inference 3a9730a1fb 32,120,28,28,5,1,2 $R/dw_120_5x5.json > $R/dw_120_5x5.log 2>&1
PYTHONPATH=. timeout 150 python3 bench/results/s42/s42_dw_variants.py $T/dwprof_mobilenet_v2_trace/g0_inference 8d8ff1c8cc 32,144,58,58,3,1,0 $R/dw_144_3x3.json > $R/dw_144_3x3.log 2>&1
tail -2 $R/dw_*.log
tar czf $OUT/dw.tgz -C $R . 
