#!/bin/bash
# session 35 call 5: compile time of fp32 training steps after the lowering speedups (Lazy reads probed once, buffers
# by name through an index), HF ResNet-18 and GPT-2, three backends, cold and warm (issue 23)
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. timeout $((590 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/train --models resnet,gpt2 --train --budget-s 330 > $OUT/train.log 2>&1
tail -n 8 $OUT/train.log
