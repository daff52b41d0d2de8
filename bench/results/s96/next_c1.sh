#!/bin/bash
# A short GPU call for little device time (issue 23): BERT's bf16 inference warm row, the only row of the table over
# Inductor's (2.5 against 1.9 s, session 89's code), two rounds cold then warm on cores 0-7; beside it on cores
# 8-15, timm MobileNetV3 (the worst cold row, 0.31) once with session 95's 5x5 window-row loop. ~300 s.
# With more device time: bench/results/s95/next_c1.sh, then s95/next_c2.sh.
export PYTHONUNBUFFERED=1 PYTHONPATH=.
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
taskset -c 0-7 timeout ${LIMIT:-300} python3 scripts/gpu_compile_time.py --out $OUT/ct_bert --models bert \
  --repeats 2 --timeout 120 > $OUT/ct_bert.log 2>&1 &
taskset -c 8-15 timeout ${LIMIT:-300} python3 scripts/gpu_compile_time.py --out $OUT/ct_depthwise --timeout 120 \
  --models ${MODELS:-timm_mobilenetv3} --budget-s ${BUDGET:-240} > $OUT/ct_depthwise.log 2>&1 &
wait; uptime >> $OUT/machine.txt
tail -n 12 $OUT/ct_*/compile_time.md
tar czf /tmp/results.tgz -C $OUT . && find $OUT -mindepth 1 -delete && mv /tmp/results.tgz $OUT/
