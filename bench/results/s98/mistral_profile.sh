#!/bin/bash
# Session 98 (issue 19): where Mistral's AMP-training step under max-autotune (0.995x Inductor's, s70/c1) differs
# from Inductor's: both compilers in max-autotune, one process, the top GPU kernels and the library calls by operand
# layout (scripts/gpu_profile.py --gemms).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout ${LIMIT:-585} python3 scripts/gpu_profile.py mistral --train --amp --gemms --top 40 \
  --backends inductor@max-autotune,kiln@max-autotune > $OUT/prof.log 2>&1
echo "prof rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep -v "^W12\|^I12\|^V12\|AUTOTUNE\|triton_.*[0-9] ms\|strides:\|dtypes:\|SingleProcess\|^  triton_\|^  mm \|^  bmm \|^  addmm " \
  $OUT/prof.log > $OUT/prof.txt; rm -f $OUT/prof.log; cat $OUT/machine.txt; tail -c 9000 $OUT/prof.txt
