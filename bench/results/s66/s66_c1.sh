#!/bin/bash
# session 66, call 1 (one H200, <= 545 s): issue 19's max-autotune rows not measured before (bf16 inference), both
# compilers in max-autotune in one process, alternating rounds; main's kiln (317e0c0). A model starts only within
# the budget, so the call holds one or two rows. Call 2: TRAIN=1 MODELS=deit,timm_deit BUDGET=200 (AMP-bf16 training).
R=$OUT; mkdir -p $R; start=$(date +%s); export PYTHONPATH=.; MODELS=${MODELS:-timm_vit,whisper}; BUDGET=${BUDGET:-250}
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $R/machine.txt 2>&1
timeout $(( 545 - $(date +%s) + start )) python3 scripts/gpu_models.py --out /tmp/ma \
  --backends inductor@max-autotune,kiln@max-autotune ${TRAIN:+--train --amp} --models $MODELS --budget-s $BUDGET > /tmp/ma.log 2>&1
echo "$MODELS rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/ma/*.json /tmp/ma/*.md $R/ 2>/dev/null; grep -v "^W12\|^I12\|^V12" /tmp/ma.log | tail -n 30 > $R/log_tail.txt
cat $R/machine.txt; grep "^{" /tmp/ma.log | cut -c1-900
