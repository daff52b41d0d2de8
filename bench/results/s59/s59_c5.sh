#!/bin/bash
# session 59, call 5 (one H200, the session's last device minutes): issue 23's optimizer-step compile (AdamW over
# GPT-2-small's parameters, fp32, cold, beside aot_eager; session 31's read kiln 28.9 s against Inductor's 22.5),
# after the lowering's index of input readers; issue 19's reduce-overhead rows for BERT and T5 at batch 1 with
# kiln / kiln reduce-overhead memory each in a process of its own.
export PYTHONPATH=.
R=$OUT; mkdir -p $R/ro $R/ct; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head; } > $R/machine.txt 2>&1
timeout 200 python3 scripts/gpu_compile_time.py --out /tmp/ct --train --models adamw_gpt2 --budget-s 120 --timeout 90 > $R/ct.log 2>&1
echo "ct rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt; cp /tmp/ct/compile_time.* $R/ct/ 2>/dev/null
left=$(( 400 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_modes.py --out $R/ro --models bert,t5 --batches 1 --skip-checks --fresh-memory kiln,kiln_ro --budget-s $(( left - 130 )) > $R/ro.log 2>&1
echo "modes rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/machine.txt; grep "cold\|warm" $R/ct.log | cut -c1-600; grep "^{" $R/ro.log | cut -c1-2000
