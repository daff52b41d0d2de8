#!/bin/bash
# session 34 call 1: Triton kernels built by worker processes (issue 23): compile time cold and warm, three
# backends, this tree; then HEAD's kiln (.devrun/old, c284d48) cold and warm, kiln only: an A/B in one call
mkdir -p $OUT
nproc > $OUT/nproc.txt
PYTHONPATH=. timeout 320 python3 scripts/gpu_compile_time.py --out $OUT/new --models resnet,gpt2,bert --budget-s 240 > $OUT/new.log 2>&1
PYTHONPATH=.devrun/old:. timeout $((585 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/old --models resnet,gpt2,bert --backends kiln --budget-s $((520 - SECONDS)) > $OUT/old.log 2>&1
tail -3 $OUT/new.log $OUT/old.log
