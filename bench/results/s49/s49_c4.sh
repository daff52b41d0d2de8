#!/bin/bash
# session 49, call 4 (one H200; with a version since reverted, bench/NOTES.md 71): outputs of a reduce-overhead
# replay handed out in the graph's memory (copied out
# only once a caller keeps one across calls), and the C++ address check of inputs read in place.
# gpu_modes.py: its GPU checks (held outputs, mutated inputs, a training step against eager) and issue 19's rows
# for GPT-2 and Llama at batch 1 and 2; gpu_ro_host.py: per call, kiln / kiln with copies / Inductor in one process.
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R
{ nvidia-smi --query-gpu=name --format=csv,noheader; uptime;
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $R/machine.txt 2>&1
timeout 330 python3 scripts/gpu_modes.py --out $R/ro --models ${RO:-gpt2,llama} --batches 1,2 --budget-s 280 > $R/ro.log 2>&1
timeout 200 python3 scripts/gpu_ro_host.py --out $R/host --rows ${HOST:-llama:1,gpt2:2} > $R/host.log 2>&1
uptime >> $R/machine.txt
grep -v Warning $R/ro.log | grep -v warn | cut -c1-600; tail -3 $R/host.log | cut -c1-900
