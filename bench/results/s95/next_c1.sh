#!/bin/bash
# The next session's first GPU call (issue 23, ~560 s on one H100/H200). Session 95 measured the suite's other
# rows on this code; five bf16 inference warm rows date from before session 90's first-call fixes (session 89's
# shards), one of them over Inductor's: BERT 2.5 s against 1.9 (kiln's backend call 0.03 s of it, Inductor's
# 0.19). On cores 0-7: BERT in two rounds, cold then warm, plus one warm process of each compiler under
# cProfile; on cores 8-15, one round each, in the time left: DistilBERT, timm RegNet, MobileNetV2, timm
# EfficientNet (session 89 read them under Inductor's warm). If every warm row is at or under Inductor's, issue 23's
# targets are all shown (bench/NOTES.md 125).
# A second call, on the warm machine, issue 19's next max-autotune row (AMP training, a transformer):
#   LIMIT=520 MODELS=t5 bash bench/results/s95/next_c4.sh
export PYTHONUNBUFFERED=1 PYTHONPATH=.
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
taskset -c 0-7 timeout ${LIMIT:-540} python3 scripts/gpu_compile_time.py --out $OUT/ct_bert --models bert \
  --repeats 2 --timeout 150 --profile > $OUT/ct_bert.log 2>&1 &
taskset -c 8-15 timeout ${LIMIT:-540} python3 scripts/gpu_compile_time.py --out $OUT/ct_others --timeout 150 \
  --models ${MODELS:-distilbert,timm_regnet,mobilenet_v2,timm_efficientnet} --budget-s ${BUDGET:-380} \
  > $OUT/ct_others.log 2>&1 &
wait; uptime >> $OUT/machine.txt
tail -n 12 $OUT/ct_*/compile_time.md
tar czf /tmp/results.tgz -C $OUT . && find $OUT -mindepth 1 -delete && mv /tmp/results.tgz $OUT/
