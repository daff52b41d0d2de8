#!/bin/bash
# session 77, on the 2-core CPU (issue 19): the suite's timm conv nets frozen, kiln frozen against Inductor frozen,
# quick size, float32, session 44's script (two variants a process, alternating rounds), both orders. timm as in
# s77_cpu_timm.sh: TIMMLIB=/tmp/timmlib bash bench/results/s77/s77_cpu_frozen_timm.sh > OUT.txt
uptime
for m in timm_resnet timm_convnext timm_mobilenetv3 timm_regnet timm_efficientnet; do
  for order in kiln_frozen,inductor_frozen inductor_frozen,kiln_frozen; do
    ROUNDS=21 CALLS=20 PYTHONPATH=.:$TIMMLIB python3 bench/results/s44/s44_cpu_frozen.py $m $order 2>&1 | grep "^timm"
  done
done
uptime
