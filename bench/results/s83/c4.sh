#!/bin/bash
# session 83, call 4: timm ViT's first call sampled twice (kiln, bf16 inference, fresh caches), now with the
# garbage collector's passes, the sampler's gaps (the main thread holding the GIL) and lowering's slow nodes.
export PYTHONPATH=. PYTHONUNBUFFERED=1; mkdir -p /tmp/o
for r in 1 2; do d=$(mktemp -d)
  KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t timeout 200 \
    python3 bench/results/s83/sample_gpu_compile.py timm_vit kiln /tmp/o/s_timm_vit_kiln_$r > /tmp/o/vit_$r.log 2>&1
done
tail -n 1 /tmp/o/*.log | cut -c1-1500; tar czf $OUT/c4.tgz -C /tmp/o .
