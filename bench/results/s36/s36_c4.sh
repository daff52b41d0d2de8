#!/bin/bash
# session 36 call 4: HF ResNet-18 compile time cold/warm after the pooling kernels' cuts (index checks, argmax)
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
git log --oneline | head -1 >> $OUT/machine.txt
PYTHONPATH=. timeout 150 python3 scripts/gpu_compile_time.py --out $OUT/infer --models resnet --budget-s 140 > $OUT/infer.log 2>&1
PYTHONPATH=. timeout 200 python3 scripts/gpu_compile_time.py --out $OUT/train --models resnet --train --budget-s 190 > $OUT/train.log 2>&1
uptime >> $OUT/machine.txt
cat $OUT/train/compile_time.md $OUT/infer/compile_time.md
