#!/bin/bash
# The next session's GPU calls for issue 23: the 12 models whose latest bf16 inference rows predate session 90's
# first-call fixes (bench/NOTES.md 121). timm EfficientNet (0.36) and MobileNetV2 (0.33) alone on the machine, two
# cold rounds, then shards (cold and warm) of four more; the second call, chained at once on the warm machine, the
# other six in shards. Each returns $OUT/results.tgz.
#   bash bench/results/s91/next_c1.sh            (~560 s)
#   DEADLINE=500 MODELS=roberta,swin,deberta_v2,timm_deit,vit,whisper bash bench/results/s90/next_c2.sh
MODELS="timm_efficientnet mobilenet_v2" SHARD_MODELS=timm_mobilenetv3,efficientnet,llama,qwen2 BUDGET=260 \
  DEADLINE=550 exec bash bench/results/s90/next_c1.sh
# A third call, chained, with the time left: random programs on the GPU (session 91's 150 found one class of compile
# failure, fixed; ~1 s a program):
#   timeout 400 python3 -m kiln fuzz --target cuda --programs 300 --seed 9120 --dynamic-fraction 0.3 --out $OUT/fz \
#     > $OUT/fz.log 2>&1; tail -3 $OUT/fz.log
