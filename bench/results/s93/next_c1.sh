#!/bin/bash
# The next session's GPU calls for issue 23 (session 93 measured 21 of the 27 bf16 inference rows on this code;
# bench/NOTES.md 123). First call (~560 s on one H100/H200):
# 1. timm DeiT alone on the machine, two rounds, cold then warm: its warm row read kiln 1.56 s against Inductor's
#    1.40 in session 93's shards (one round, load 2.5; kiln's backend call 0.02 s against 0.16), the one GPU warm
#    row over Inductor's (session 94: and one more warm process of each compiler under cProfile, --profile);
# 2. the six rows measured before session 90's first-call fixes, two shards, cold and warm, in the time left
#    (timm MobileNetV3 0.28, Llama 0.28, Qwen2 0.25, HF EfficientNet 0.20, DeBERTa-v2 0.13, Whisper 0.12);
# 0. first, ~1 min: timm EfficientNet's 5x5 depthwise kernel as generated (25 unrolled taps) against two looped
#    forms, build and GPU time (s93/dw_loop_probe.py; the looped forms built 3-5x faster for sm_90 on the CPU).
# A second call on the warm machine runs the shards' leftovers:
#   DEADLINE=500 MODELS=<those the first call's shards.out lists> bash bench/results/s90/next_c2.sh
#   bash bench/results/s93/next_c1.sh
# With little device time, the probe and DeiT alone, one round (no shards):
#   DEADLINE=0 REPEATS=1 bash bench/results/s93/next_c1.sh
export PYTHONUNBUFFERED=1 PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; } > $OUT/machine.txt 2>&1
timeout 120 python3 bench/results/s93/dw_loop_probe.py $OUT/dw_loop_probe.json > $OUT/dw_loop_probe.log 2>&1
timeout 330 python3 scripts/gpu_compile_time.py --out $OUT/ct_timm_deit --models timm_deit --repeats ${REPEATS:-2} \
  --timeout 120 --profile > $OUT/ct_timm_deit.log 2>&1
left=$(( ${DEADLINE:-550} - ($(date +%s) - start) ))
[ $left -gt 150 ] && python3 bench/results/s89/suite_shards.py $OUT/shards $left \
  ${SHARD_MODELS:-llama,qwen2,timm_mobilenetv3,efficientnet,whisper,deberta_v2} > $OUT/shards.out 2>&1
tail -n 6 $OUT/ct_*/compile_time.md; cat $OUT/shards.out
mkdir -p /tmp/pack && cp -r $OUT/. /tmp/pack/ && tar czf $OUT/results.tgz -C /tmp/pack . && \
  find $OUT -mindepth 1 ! -name results.tgz -delete
