#!/bin/bash
# session 64, call 1 (one H200, ~550 s). 1) branch try/stem-channels-last (main + the unrolled few-channel
# convolution stored channels-last, carried as exp/kiln): kiln's GPU time of timm MobileNetV3 (bf16, max-autotune
# without CUDA graphs), beside session 63's 0.966 ms (cuDNN's stem) and 1.003 (the NCHW-tiled kernel); 2) that tree's
# accuracy on five conv nets (default mode); 3) issue 23 on main's tree: AdamW steps' GPU compile, cold and warm,
# since their foreach ops reach kiln whole (session 62 measured them on the CPU only).
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $R/machine.txt 2>&1
PYTHONPATH=exp:. timeout 130 python3 scripts/gpu_profile.py timm_mobilenetv3 --dtype bfloat16 --top 16 \
  --backends kiln@max-autotune-no-cudagraphs > $R/profile.txt 2>&1
echo "profile rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt
PYTHONPATH=exp:. timeout 170 python3 scripts/gpu_models.py --out /tmp/m --backends kiln --no-time \
  --models timm_mobilenetv3,mobilenet_v2,efficientnet,timm_efficientnet,timm_regnet > /tmp/m.log 2>&1
echo "models rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt
mkdir -p $R/acc; cp /tmp/m/*.json /tmp/m/*.md $R/acc/ 2>/dev/null; grep -v "^W12\|^I12\|^V12" /tmp/m.log | tail -n 40 > $R/acc/log_tail.txt
PYTHONPATH=. timeout $(( 575 - $(date +%s) + start )) python3 scripts/gpu_compile_time.py --out $R/ct --train \
  --models adamw_gpt2,adamw_resnet50 --timeout 150 > $R/ct.log 2>&1
echo "compile rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/machine.txt; grep -v "^W12\|^I12\|^V12" $R/profile.txt | head -26 | cut -c1-150
grep "^{" /tmp/m.log | cut -c1-500; cat $R/ct/compile_time.md 2>/dev/null; tail -5 $R/ct.log
