#!/bin/bash
# session 83, call 2 (one H100/H200): bench/results/s83/sample_gpu_compile.py (the first call sampled, fresh caches)
# for kiln and aot_eager on timm ViT and ConvNeXt (bf16 inference), and kiln on GPT-2's and BERT's fp32 training
# steps (issue 23: where kiln's GPU compile time above aot_eager goes).
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h;
  python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
for m in "timm_vit kiln" "timm_vit aot_eager" "timm_convnext kiln" "timm_convnext aot_eager" "gpt2 kiln --train" \
         "bert kiln --train"; do
  set -- $m; d=$(mktemp -d)
  KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t timeout 200 \
    python3 bench/results/s83/sample_gpu_compile.py $1 $2 $OUT/s_$1_$2$3 $3 > $OUT/s_$1_$2$3.log 2>&1
  echo "$m rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt; rm -f $OUT/s_$1_$2$3.folded
done
cat $OUT/machine.txt; for f in $OUT/s_*.log; do tail -n 1 $f | cut -c1-900; done
