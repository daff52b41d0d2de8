#!/bin/bash
# Session 98 (issue 19): max-autotune rows never measured, both compilers in max-autotune, one process, alternating
# rounds. MODELS (in order), MODE ("--train --amp" or "" for bf16 inference), LIMIT (s), BUDGET (no model starts
# after it). JOBS (session 100): models compiled at once, each job on a GPU of its own (several-GPU machines), timed
# one at a time after the compiles (scripts/gpu_models.py --jobs); default: one per GPU. TIMING_LOCK: a lock file
# shared with other runs at once.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; python3 -c \
  "import torch, triton; print(torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
timeout ${LIMIT:-585} python3 scripts/gpu_models.py --out $OUT/ma $MODE \
  --backends inductor@max-autotune,kiln@max-autotune --models $MODELS --budget-s ${BUDGET:-250} \
  --jobs ${JOBS:-$(nvidia-smi -L | wc -l)} ${TIMING_LOCK:+--timing-lock $TIMING_LOCK} > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\"model" $OUT/ma.log > $OUT/ma_rows.txt
grep -v "^W12\|^I12\|^V12\|^{\|AUTOTUNE\|triton_\|strides:\|dtypes:" $OUT/ma.log | tail -n 20 > $OUT/ma_tail.txt
cp $OUT/ma/*.json $OUT/ 2>/dev/null; rm -rf $OUT/ma.log $OUT/ma; cat $OUT/machine.txt $OUT/ma_tail.txt
cut -c1-700 $OUT/ma_rows.txt
