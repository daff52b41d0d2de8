#!/bin/bash
# The next session's first GPU call (issue 23, ~560 s on one H100/H200). Session 95 measured the suite's other
# rows on this code; five bf16 inference warm rows date from before session 90's first-call fixes (session 89's
# shards), one of them over Inductor's: BERT 2.5 s against 1.9 (kiln's backend call 0.03 s of it, Inductor's
# 0.19). And session 95 made a 5x5 depthwise window's rows a loop (built 2.7x faster for sm_90): the three models
# with such windows, cold and warm, to see their first call's wait for builds.
# On cores 0-7: BERT in two rounds, cold then warm, plus one warm process of each compiler under cProfile; on
# cores 8-15, one round each: timm MobileNetV3 (0.31 in session 95, waiting 2.3 s for builds), timm EfficientNet-B0
# (0.30, 1.5 s), HF EfficientNet-B0 (0.26, 1.8 s). bench/NOTES.md 125.
# The second call, on the warm machine: bash bench/results/s95/next_c2.sh (their speed rows, the other warm rows).
export PYTHONUNBUFFERED=1 PYTHONPATH=.
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
taskset -c 0-7 timeout ${LIMIT:-540} python3 scripts/gpu_compile_time.py --out $OUT/ct_bert --models bert \
  --repeats 2 --timeout 150 --profile > $OUT/ct_bert.log 2>&1 &
taskset -c 8-15 timeout ${LIMIT:-540} python3 scripts/gpu_compile_time.py --out $OUT/ct_depthwise --timeout 150 \
  --models ${MODELS:-timm_mobilenetv3,timm_efficientnet,efficientnet} --budget-s ${BUDGET:-380} \
  > $OUT/ct_depthwise.log 2>&1 &
wait; uptime >> $OUT/machine.txt
tail -n 12 $OUT/ct_*/compile_time.md
tar czf /tmp/results.tgz -C $OUT . && find $OUT -mindepth 1 -delete && mv /tmp/results.tgz $OUT/
