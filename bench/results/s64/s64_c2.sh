#!/bin/bash
# session 64, call 2 (one H200, ~250 s), on exp/kiln: call 1's tree (the stem stored channels-last) plus loads in
# masked regions masked by the lanes they and their conditions read (the stem's taps one load a pixel, not one a
# pixel and output channel: bench/NOTES.md 88). 1) kiln's GPU time of timm MobileNetV3 (bf16, max-autotune without
# CUDA graphs), beside call 1's 0.950 ms; 2) accuracy of the suite's vision models, kiln default mode.
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $R/machine.txt 2>&1
PYTHONPATH=exp:. timeout 130 python3 scripts/gpu_profile.py timm_mobilenetv3 --dtype bfloat16 --top 16 \
  --backends kiln@max-autotune-no-cudagraphs > $R/profile.txt 2>&1
echo "profile rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt
PYTHONPATH=exp:. timeout 200 python3 scripts/gpu_models.py --out /tmp/m --backends kiln --no-time \
  --models timm_mobilenetv3,mobilenet_v2,efficientnet,timm_efficientnet,timm_regnet,convnext,resnet,regnet,swin,timm_resnet > /tmp/m.log 2>&1
echo "models rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
mkdir -p $R/acc; cp /tmp/m/*.json /tmp/m/*.md $R/acc/ 2>/dev/null; grep -v "^W12\|^I12\|^V12" /tmp/m.log | tail -n 40 > $R/acc/log_tail.txt
cat $R/machine.txt; grep -v "^W12\|^I12\|^V12" $R/profile.txt | head -26 | cut -c1-150
grep "^{" /tmp/m.log | cut -c1-300
