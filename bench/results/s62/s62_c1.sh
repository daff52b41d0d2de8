#!/bin/bash
# session 62, call 1 (one H200): issue 19's max-autotune bf16 inference rows not measured yet, the conv nets first;
# both compilers in max-autotune, one process; no model starts after the budget.
export PYTHONPATH=.
R=$OUT; mkdir -p $R/mt; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime; git log -1 --format=%h; git status --short | head
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda)"; } > $R/machine.txt 2>&1
timeout 540 python3 scripts/gpu_models.py --out /tmp/m0 --backends inductor@max-autotune,kiln@max-autotune --models ${MODELS:-mobilenet_v2,efficientnet,convnext,regnet,timm_convnext,swin} --budget-s ${BUDGET:-400} > /tmp/m0.log 2>&1
echo "rc $? done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/m0/*.json /tmp/m0/*.md $R/mt/ 2>/dev/null
cat $R/machine.txt; grep "^{" /tmp/m0.log | cut -c1-900; grep -v "^W12\|^I12\|^V12" /tmp/m0.log | tail -n 3 | cut -c1-300
