#!/bin/bash
# session 64, call 4 (one H200, ~110 s): default mode, both compilers in one process, on exp/kiln (call 2's tree)
R=$OUT; mkdir -p $R; export PYTHONPATH=exp:.; start=$(date +%s); timeout 300 python3 scripts/gpu_models.py --out /tmp/m4 --backends inductor,kiln --models timm_mobilenetv3,convnext,swin --budget-s 90 > /tmp/m4.log 2>&1; echo "rc $? at $(( $(date +%s) - start )) s; $(uptime)" > $R/machine.txt; cp /tmp/m4/*.json /tmp/m4/*.md $R/ 2>/dev/null; cat $R/machine.txt; grep "^{" /tmp/m4.log | cut -c1-700
