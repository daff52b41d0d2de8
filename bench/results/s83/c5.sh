#!/bin/bash
# session 83, call 5: bench/results/s83/gc_diagnosis.py on timm ViT and ConvNeXt (bf16 inference, fresh caches)
export PYTHONPATH=. PYTHONUNBUFFERED=1
for m in timm_vit timm_convnext; do d=$(mktemp -d)
  KILN_CACHE_DIR=$d/k TRITON_CACHE_DIR=$d/t timeout 200 python3 bench/results/s83/gc_diagnosis.py $m > $OUT/gc_$m.json 2> $OUT/gc_$m.err
  tail -n 3 $OUT/gc_$m.err
done
