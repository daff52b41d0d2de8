#!/bin/bash
# session 83, call 1 (one H100/H200): (a) bench/results/s82/gpu_scalars.py on the committed tree; (b) cProfile of
# kiln's cold first call (fresh caches) of timm ViT and ConvNeXt bf16 inference and GPT-2's fp32 training step
# (issue 23: where kiln's GPU compile time above aot_eager goes).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h;
  python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"; nproc; } > $OUT/machine.txt 2>&1
timeout 120 python3 bench/results/s82/gpu_scalars.py > $OUT/scalars.log 2>&1
echo "scalars rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
for m in timm_vit timm_convnext "gpt2 --train"; do
  set -- $m; d=$(mktemp -d)
  KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t timeout 200 \
    python3 bench/results/s83/profile_gpu_compile.py $1 $OUT/prof_$1$2 $2 > $OUT/prof_$1$2.log 2>&1
  echo "$m rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
done
cat $OUT/machine.txt; grep "^{" $OUT/scalars.log | cut -c1-200; for f in $OUT/prof_*.log; do tail -c 1500 $f; done
