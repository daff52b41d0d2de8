#!/bin/bash
# session 35 call 1: warm training starts without AOTAutograd's trace (issue 23): compile time of fp32 training
# steps, HF ResNet-18 and BERT, three backends, cold and warm
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. timeout $((590 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/train --models resnet,bert --train --budget-s 300 > $OUT/train.log 2>&1
tail -n 8 $OUT/train.log
