#!/bin/bash
# session 66, call 3 (one H200, <= 560 s): why DeiT's AMP training step under kiln max-autotune (16.25 ms) trails
# Inductor's (12.43 ms; call 2): kiln default, reduce-overhead and max-autotune in one process, kiln's log lines kept.
R=$OUT; mkdir -p $R; start=$(date +%s); export PYTHONPATH=.
KILN_LOGS=autotune timeout 550 python3 scripts/gpu_models.py --out /tmp/k --train --amp \
  --backends kiln,kiln@reduce-overhead,kiln@max-autotune --models deit --budget-s 60 > /tmp/k.log 2>&1
echo "rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/k/*.json /tmp/k/*.md $R/ 2>/dev/null; grep -i "kiln" /tmp/k.log | grep -v "^{" | sort | uniq -c | sort -rn | head -40 > $R/kiln_lines.txt
cat $R/machine.txt; cat $R/kiln_lines.txt | cut -c1-300; grep "^{" /tmp/k.log | cut -c1-1500
