#!/bin/bash
# session 60, call 2 (one H200): issue 19's max-autotune AMP-bf16 training rows not measured yet; both compilers
# in max-autotune, one process; no model starts after the budget.
export PYTHONPATH=.
R=$OUT; mkdir -p $R/mt; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $R/machine.txt 2>&1
timeout 530 python3 scripts/gpu_models.py --out /tmp/m1 --train --amp --backends inductor@max-autotune,kiln@max-autotune --models timm_resnet,albert,roberta,timm_deit,distilbert --budget-s 330 > /tmp/m1.log 2>&1
echo "rc $? done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/m1/*.json /tmp/m1/*.md $R/mt/ 2>/dev/null
cat $R/machine.txt; grep "^{" /tmp/m1.log | cut -c1-900; grep -v "^W12\|^I12\|^V12" /tmp/m1.log | tail -n 3 | cut -c1-300
