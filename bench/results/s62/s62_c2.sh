#!/bin/bash
# session 62, call 2 (one H200): issue 19's max-autotune bf16 inference rows not measured yet, the rest of the inference rows;
# both compilers in max-autotune, one process; no model starts after the budget.
export PYTHONPATH=.
R=$OUT; mkdir -p $R/mt; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime; git log -1 --format=%h; git status --short | head
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda)"; } > $R/machine.txt 2>&1
timeout 540 python3 scripts/gpu_models.py --out /tmp/m1 --backends inductor@max-autotune,kiln@max-autotune --models ${MODELS:-timm_mobilenetv3,timm_efficientnet,deberta_v2,whisper,timm_vit,bart} --budget-s ${BUDGET:-400} > /tmp/m1.log 2>&1
echo "rc $? done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/m1/*.json /tmp/m1/*.md $R/mt/ 2>/dev/null
cat $R/machine.txt; grep "^{" /tmp/m1.log | cut -c1-900; grep -v "^W12\|^I12\|^V12" /tmp/m1.log | tail -n 3 | cut -c1-300
