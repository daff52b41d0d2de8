#!/bin/bash
# session 58, call 2 (one H200): issue 16 after the session 57 leak fix and this session's change (a scatter-add
# onto zeros added to a sum adds into it: a tied embedding's gradient contributions): fp32 training rows of the
# models with tied embeddings (BART, T5, Whisper, GPT-2: time against Inductor, peak against eager), then BART's
# AMP-bf16 training row (its peak was 9068 MiB against eager's 6736).
export PYTHONPATH=.
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime; git log -1 --format=%h; git status --short | head; } > $R/machine.txt 2>&1
timeout 370 python3 scripts/gpu_models.py --out $R/fp32 --train --models bart,t5,whisper,gpt2 --budget-s 330 > $R/fp32.log 2>&1
echo "fp32 rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
left=$(( 580 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_models.py --out $R/amp --train --amp --models bart --budget-s $(( left - 40 )) > $R/amp.log 2>&1
echo "amp rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/machine.txt; cat $R/fp32/*.md $R/amp/*.md 2>/dev/null | cut -c1-400
