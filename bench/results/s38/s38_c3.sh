#!/bin/bash
# session 38 call 3: compile time cold/warm, aot_eager / Inductor / kiln, on the issue-23 rows not run since
# session 36: BART bf16 inference, DeiT-tiny (timm) and EfficientNet-B0 fp32 training
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. timeout 200 python3 scripts/gpu_compile_time.py --out $OUT/infer --models bart --timeout 150 > $OUT/infer.log 2>&1
cat $OUT/infer/compile_time.md
PYTHONPATH=. timeout $((590 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/train --models timm_deit,efficientnet --train --timeout 150 --budget-s $((480 - SECONDS)) > $OUT/train.log 2>&1
cat $OUT/train/compile_time.md
uptime >> $OUT/machine.txt
