#!/bin/bash
# session 63, call 2 (one H200): where timm MobileNetV3's bf16 inference spends its GPU time under max-autotune
# (kiln 0.98x Inductor in session 62), each compiler's kernels and library calls (torch.profiler), kiln first.
# Inductor's caches are kept in $OUT/icache.tgz, to be carried into a later call (a warm Inductor there).
export PYTHONPATH=.
R=$OUT; mkdir -p $R; start=$(date +%s)
export TORCHINDUCTOR_CACHE_DIR=/tmp/icache/inductor TRITON_CACHE_DIR=/tmp/icache/triton
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $R/machine.txt 2>&1
timeout ${T:-560} python3 scripts/gpu_profile.py timm_mobilenetv3 --dtype bfloat16 --top 40 --gemms \
  --backends kiln@max-autotune-no-cudagraphs,inductor@max-autotune-no-cudagraphs > $R/profile.txt 2>&1
echo "rc $? done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
(cd /tmp && tar czf $R/icache.tgz icache); ls -la $R >> $R/machine.txt
cat $R/machine.txt; grep -v "^W12\|^I12\|^V12\|num_choices\|AUTOTUNE\|^  \(triton\|mm\|conv\|addmm\|bias\)" $R/profile.txt | cut -c1-200 | tail -150
