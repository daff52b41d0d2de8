#!/bin/bash
# Session 95's fourth GPU call, with the device time left (issue 19): Qwen2's AMP-training max-autotune row, never
# measured (NOTES "Not done yet"), both compilers in max-autotune, one process, alternating rounds. A transformer:
# Inductor tunes matmuls only, no convolutions, so it may finish inside the call.
export PYTHONPATH=. PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,memory.used --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout ${LIMIT:-330} python3 scripts/gpu_models.py --out $OUT/ma --train --amp \
  --backends inductor@max-autotune,kiln@max-autotune --models ${MODELS:-qwen2} --budget-s 60 > $OUT/ma.log 2>&1
echo "ma rc $?; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/ma.log > $OUT/ma_rows.txt
grep -v "^W12\|^I12\|^V12\|^{\|AUTOTUNE\|triton_\|strides:\|dtypes:" $OUT/ma.log | tail -n 15 > $OUT/ma_tail.txt
cp $OUT/ma/*.json $OUT/ 2>/dev/null; rm -rf $OUT/ma.log $OUT/ma; cat $OUT/machine.txt $OUT/ma_tail.txt
cut -c1-600 $OUT/ma_rows.txt
