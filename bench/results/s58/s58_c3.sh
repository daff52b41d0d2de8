#!/bin/bash
# session 58, call 3 (one H200): issue 16, BART's fp32 training peak as gpu_models.py measures it (call 2: kiln
# 9970 MiB, Inductor 10900, eager 8940; session 57's history probe read kiln's at 9239 after two warm-up
# steps), eager, kiln and Inductor, with the blocks alive at each peak (s58_peak_probe.py).
export PYTHONPATH=.
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head; } > $R/machine.txt 2>&1
timeout 400 python3 bench/results/s58/s58_peak_probe.py $R/peak_bart.json bart eager,kiln,inductor 2>&1 | grep -v "^W\|warn" | cut -c1-330
echo "done at $(( $(date +%s) - start )) s; $(uptime)" | tee -a $R/machine.txt
