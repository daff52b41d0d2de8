#!/bin/bash
# session 63, call 3 (one H200, ~450 s): a convolution of an image's few channels (the stem) as a kernel of kiln's
# (lowering.pooling.unrolled_convolution). 1) what cuDNN computes for a padded tap times an infinite weight; 2) kiln's
# kernels of timm MobileNetV3 (bf16, max-autotune without CUDA graphs), to set beside call 2's (0.966 ms of GPU time
# before, Inductor's 0.978); 3) the conv nets with such a stem, both compilers in default mode, one process.
export PYTHONPATH=.
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $R/machine.txt 2>&1
python3 - > $R/cudnn_padding.txt 2>&1 <<'PY'
import torch, torch.nn.functional as F
for dtype, cl in ((torch.float32, False), (torch.bfloat16, True), (torch.float32, True)):
    for c in (1, 3):
        x = torch.rand(2, c, 16, 16, device="cuda", dtype=dtype) + 1
        w = torch.randn(8, c, 3, 3, device="cuda", dtype=dtype); w[:, :, 0, 0] = float("inf")
        if cl:
            x = x.to(memory_format=torch.channels_last)
        y = F.conv2d(x, w, None, 1, 1)
        print(dtype, "channels_last" if cl else "nchw", f"{c} channels: border NaN", y[:, :, 0, :].isnan().all().item(),
              "any NaN", y.isnan().any().item(), "inside inf", y[:, :, 1:, 1:].isinf().all().item())
PY
timeout 120 python3 scripts/gpu_profile.py timm_mobilenetv3 --dtype bfloat16 --top 16 \
  --backends kiln@max-autotune-no-cudagraphs > $R/profile.txt 2>&1
echo "profile rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt
timeout $(( ${LEFT:-440} - $(date +%s) + start - 15 )) python3 scripts/gpu_models.py --out /tmp/m3 --backends inductor,kiln \
  --models timm_mobilenetv3,mobilenet_v2,efficientnet,timm_efficientnet,timm_regnet --budget-s 200 > /tmp/m3.log 2>&1
echo "models rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/m3/*.json /tmp/m3/*.md $R/ 2>/dev/null
cat $R/machine.txt $R/cudnn_padding.txt; grep -v "^W12\|^I12\|^V12" $R/profile.txt | head -24 | cut -c1-150
grep "^{" /tmp/m3.log | cut -c1-1000; grep -v "^W12\|^I12\|^V12" /tmp/m3.log | tail -n 3 | cut -c1-300
