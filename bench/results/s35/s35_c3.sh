#!/bin/bash
# session 35 call 3: the training entry on torch 2.11 (AOTAutograd's pass-through wrappers around the forward), then
# compile time of fp32 training steps, HF ResNet-18 and BERT, three backends, cold and warm (issue 23)
mkdir -p $OUT
export KILN_CACHE_DIR=/tmp/s35kc3
for i in 1 2; do PYTHONPATH=. timeout 120 python3 .devrun/s35_dbg.py cuda 2>&1 | grep -v "cache hit\|cache miss" | grep "RESULT\|reason\|Error" | tail -4; done
unset KILN_CACHE_DIR
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. timeout $((590 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/train --models resnet,bert --train --budget-s 300 > $OUT/train.log 2>&1
tail -n 8 $OUT/train.log
