#!/bin/bash
# session 34 call 3: build workers, handles loaded as each kernel is built (issue 23): where ResNet's cold build
# goes (and its kernels' source); compile time of HF ResNet-18's fp32 training step, three backends, cold and warm
mkdir -p $OUT
PYTHONPATH=. timeout 120 python3 .devrun/s34_buildtimes.py resnet > $OUT/buildtimes_resnet.json 2> $OUT/buildtimes.err
PYTHONPATH=. timeout $((585 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/train --models resnet --train --budget-s 400 > $OUT/train.log 2>&1
tail -n 4 $OUT/train.log
