#!/bin/bash
# session 38 call 4: compile time cold/warm of EfficientNet-B0 (HF) and DeiT-tiny (timm) fp32 training, aot_eager
# and kiln (Inductor's from call 3, another host), after index probes by xreplace (lowering, scheduling, codegen)
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. timeout $((590 - SECONDS)) python3 scripts/gpu_compile_time.py --out $OUT/train --models efficientnet,timm_deit --train --backends aot_eager,kiln --timeout 150 > $OUT/train.log 2>&1
cat $OUT/train/compile_time.md; grep "cold\|warm" $OUT/train.log | cut -c1-400
uptime >> $OUT/machine.txt
