#!/bin/bash
# session 35 call 4: where kiln's cold and warm compile of HF ResNet-18's fp32 training step go (cProfile, kernel
# builds inline), issue 23
mkdir -p $OUT
export KILN_CACHE_DIR=/tmp/p_k TRITON_CACHE_DIR=/tmp/p_t TORCHINDUCTOR_CACHE_DIR=/tmp/p_i
PYTHONPATH=. timeout 200 python3 .devrun/s35_prof.py resnet $OUT/cold.prof --train > $OUT/cold.txt 2>&1
PYTHONPATH=. timeout 150 python3 .devrun/s35_prof.py resnet $OUT/warm.prof --train > $OUT/warm.txt 2>&1
grep "first step" $OUT/cold.txt $OUT/warm.txt
