#!/bin/bash
# The next session's second GPU call (~540 s), after s95/next_c1.sh on the same machine. First, alone on the
# machine: the bf16 inference speed rows of the three models whose 5x5 depthwise windows are loops since session 95
# (the probe's kernel ran within 2% of the unrolled taps; bench/NOTES.md 125), kiln against Inductor in one process,
# alternating rounds. Then the three warm rows left from session 89 (DistilBERT, MobileNetV2, timm RegNet; all
# under Inductor's then), two shards, cold then warm.
export PYTHONUNBUFFERED=1 PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 300 python3 scripts/gpu_models.py --out $OUT/speed --backends inductor,kiln \
  --models ${SPEED_MODELS:-timm_efficientnet,timm_mobilenetv3,efficientnet} --budget-s 220 > $OUT/speed.log 2>&1
grep "^{\"model" $OUT/speed.log > $OUT/speed_rows.txt; tail -n 5 $OUT/speed.log > $OUT/speed_tail.txt
left=$(( ${DEADLINE:-540} - ($(date +%s) - start) ))
[ $left -gt 150 ] && python3 bench/results/s89/suite_shards.py $OUT/warm $left \
  ${MODELS:-distilbert,mobilenet_v2,timm_regnet} > $OUT/warm.out 2>&1
cut -c1-400 $OUT/speed_rows.txt; cat $OUT/warm.out
rm -f $OUT/speed.log
tar czf /tmp/results.tgz -C $OUT . && find $OUT -mindepth 1 -delete && mv /tmp/results.tgz $OUT/
