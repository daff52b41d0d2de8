#!/bin/bash
# Session 94's second GPU call for issue 23, on the machine s93/next_c1.sh warmed: the bf16 inference rows its
# shards did not reach (MODELS), then the fp32 training rows not measured on this code (HF EfficientNet-B0, and
# BERT's warm row: s93/gpu_train had its cold row only), two shards each, cold then warm, in $OUT/results.tgz.
#   DEADLINE=560 MODELS=whisper,deberta_v2 bash bench/results/s94/next_c2.sh
export PYTHONUNBUFFERED=1 PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; } > $OUT/machine.txt 2>&1
[ -n "$MODELS" ] && python3 bench/results/s89/suite_shards.py $OUT/inference $(( ${DEADLINE:-560} - 290 )) \
  $MODELS > $OUT/inference.out 2>&1
left=$(( ${DEADLINE:-560} - ($(date +%s) - start) ))
python3 bench/results/s89/suite_shards.py $OUT/train $left ${TRAIN_MODELS:-efficientnet,bert} --train \
  > $OUT/train.out 2>&1
cat $OUT/*.out; grep -h "kiln\|inductor\|aot_eager" /tmp/ct_*.log | cut -c1-200
mkdir -p /tmp/pack && cp -r $OUT/. /tmp/pack/ && tar czf $OUT/results.tgz -C /tmp/pack . && \
  find $OUT -mindepth 1 ! -name results.tgz -delete
