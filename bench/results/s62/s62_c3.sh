#!/bin/bash
# session 62, call 3 (one H200, what is left of the device time; LEFT seconds): issue 19's max-autotune AMP-bf16
# training rows not measured yet (both compilers in max-autotune, one process; no model starts after the budget).
export PYTHONPATH=.
R=$OUT; mkdir -p $R/mt; start=$(date +%s); LEFT=${LEFT:-420}
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $R/machine.txt 2>&1
timeout $(( LEFT - 10 )) python3 scripts/gpu_models.py --out /tmp/m2 --train --amp --backends inductor@max-autotune,kiln@max-autotune --models ${MODELS:-albert,timm_deit,deit,distilbert} --budget-s $(( LEFT - 330 )) > /tmp/m2.log 2>&1
echo "rc $? done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/m2/*.json /tmp/m2/*.md $R/mt/ 2>/dev/null
cat $R/machine.txt; grep "^{" /tmp/m2.log | cut -c1-900; grep -v "^W12\|^I12\|^V12" /tmp/m2.log | tail -n 3 | cut -c1-300
