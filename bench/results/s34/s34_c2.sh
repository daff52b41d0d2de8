#!/bin/bash
# session 34 call 2: build workers warmed up (issue 23): where ResNet's cold build goes; kiln cold and warm
# resnet, gpt2, bert; aot_eager and Inductor on bert
mkdir -p $OUT
PYTHONPATH=. timeout 120 python3 .devrun/s34_buildtimes.py resnet > $OUT/buildtimes_resnet.json 2> $OUT/buildtimes.err
PYTHONPATH=. timeout 250 python3 scripts/gpu_compile_time.py --out $OUT/kiln --models resnet,gpt2,bert --backends kiln --budget-s 200 > $OUT/kiln.log 2>&1
PYTHONPATH=. timeout $((585 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/bert --models bert --backends aot_eager,inductor --budget-s 100 > $OUT/bert.log 2>&1
tail -n 3 $OUT/kiln.log $OUT/bert.log
