#!/bin/bash
# session 83, call 3: timm ViT's first call sampled (kiln, bf16 inference, fresh caches), twice, with lowering's own
# breakdown (call 2's JSON for it did not come back); outputs in one tar.
export PYTHONPATH=. PYTHONUNBUFFERED=1; mkdir -p /tmp/o
for r in 1 2; do d=$(mktemp -d)
  KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t timeout 200 \
    python3 bench/results/s83/sample_gpu_compile.py timm_vit kiln /tmp/o/s_timm_vit_kiln_$r > /tmp/o/vit_$r.log 2>&1
done
tail -n 1 /tmp/o/*.log | cut -c1-600; tar czf $OUT/c3.tgz -C /tmp/o .
