#!/bin/bash
# session 58, call 4 (one H200): why gpu_models.py read kiln's BART fp32 training peak at 9970 MiB (call 2) where
# the same sequence alone read 7690 (call 3): the probe with Dynamo not reset between backends, Inductor then kiln,
# as gpu_models runs them; then gpu_models.py for BART with kiln alone (no timing).
export PYTHONPATH=.
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head; } > $R/machine.txt 2>&1
timeout 200 python3 bench/results/s58/s58_peak_probe.py $R/peak_bart_noreset.json bart eager,inductor,kiln --no-reset 2>&1 | grep -v "^W\|warn\|Warn" | cut -c1-330
echo "probe done at $(( $(date +%s) - start )) s" | tee -a $R/machine.txt
timeout 200 python3 scripts/gpu_models.py --out $R/kiln_alone --train --models bart --backends kiln --no-time > $R/kiln_alone.log 2>&1
cat $R/kiln_alone/*.md | cut -c1-300
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $R/machine.txt
