#!/bin/bash
# session 64, call 3 (one H200, ~560 s): timm MobileNetV3's max-autotune row (bf16 inference, CUDA graphs), kiln
# on exp/kiln (call 2's tree: the stem a channels-last kernel of kiln's with its taps loaded once a pixel) against
# Inductor's max-autotune, one process, alternating rounds; session 62's row: 0.98.
export PYTHONPATH=exp:.
R=$OUT; mkdir -p $R/mt; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; nproc; uptime
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.version.cuda)"; } > $R/machine.txt 2>&1
timeout 560 python3 scripts/gpu_models.py --out /tmp/m1 --backends inductor@max-autotune,kiln@max-autotune --models timm_mobilenetv3 --budget-s 520 > /tmp/m1.log 2>&1
echo "rc $? done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/m1/*.json /tmp/m1/*.md $R/mt/ 2>/dev/null; grep -v "^W12\|^I12\|^V12" /tmp/m1.log | tail -n 30 > $R/log_tail.txt
cat $R/machine.txt; grep "^{" /tmp/m1.log | cut -c1-900; grep -v "^W12\|^I12\|^V12" /tmp/m1.log | tail -n 3 | cut -c1-300
