#!/bin/bash
# Session 95's third GPU call (issue 23): Whisper's warm row read kiln 5.4 s against Inductor's 4.7 in c2's
# shards (one round, beside another shard; kiln's backend 0.04 s against 0.23), so Whisper again in two rounds
# with one more warm process of each compiler under cProfile, on cores 0-7, beside DeBERTa-v2's one round on
# cores 8-15 (its row not measured since session 90's fixes), as the shards pin them.
export PYTHONUNBUFFERED=1 PYTHONPATH=.
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; } > $OUT/machine.txt 2>&1
taskset -c 0-7 timeout ${LIMIT:-520} python3 scripts/gpu_compile_time.py --out $OUT/ct_whisper --models whisper \
  --repeats 2 --timeout 150 --profile > $OUT/ct_whisper.log 2>&1 &
taskset -c 8-15 timeout ${LIMIT:-520} python3 scripts/gpu_compile_time.py --out $OUT/ct_deberta_v2 \
  --models deberta_v2 --repeats 1 --timeout 200 > $OUT/ct_deberta_v2.log 2>&1 &
wait; uptime >> $OUT/machine.txt
tail -n 6 $OUT/ct_*/compile_time.md
tar czf /tmp/results.tgz -C $OUT . && find $OUT -mindepth 1 -delete && mv /tmp/results.tgz $OUT/
