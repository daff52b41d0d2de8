#!/bin/bash
# session 38 call 5: compile time cold/warm, aot_eager / Inductor / kiln, of BART bf16 inference (issue 23's row
# not measured with kiln since session 36; call 3's BART kiln rows ran out of time)
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. timeout 560 python3 scripts/gpu_compile_time.py --out $OUT/infer --models bart --timeout 150 > $OUT/infer.log 2>&1
cat $OUT/infer/compile_time.md; grep "cold\|warm" $OUT/infer.log | cut -c1-300
uptime >> $OUT/machine.txt
