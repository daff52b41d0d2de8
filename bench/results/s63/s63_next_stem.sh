#!/bin/bash
# For the next session's first call (one H200, ~200 s), on branch try/stem-channels-last (bench/NOTES.md 87):
# kiln's GPU time of timm MobileNetV3 with the stem as a channels-last unrolled kernel, beside session 63's 0.966 ms
# (cuDNN's stem) and 1.003 (the NCHW-tiled kernel); then the five conv nets' accuracy in default mode.
export PYTHONPATH=.
R=$OUT; mkdir -p $R
timeout 120 python3 scripts/gpu_profile.py timm_mobilenetv3 --dtype bfloat16 --top 16 \
  --backends kiln@max-autotune-no-cudagraphs > $R/profile.txt 2>&1
timeout 200 python3 scripts/gpu_models.py --out /tmp/m --backends kiln --no-time \
  --models timm_mobilenetv3,mobilenet_v2,efficientnet,timm_efficientnet,timm_regnet > /tmp/m.log 2>&1
cp /tmp/m/*.json $R/ 2>/dev/null; head -30 $R/profile.txt | cut -c1-150; grep "^{" /tmp/m.log | cut -c1-400
