#!/bin/bash
# session 73, on the 2-core CPU, after 0e09df7 (NOTES 99): the warm rows kiln was above Inductor on, again
# (quick size, fp32, rounds alternating the backends, medians):  bash bench/results/s73/s73_cpu_ct_after.sh OUTDIR
OUT=$1; mkdir -p $OUT
(date; uptime; nproc; git log -1 --format=%h; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --models gpt2,llama --repeats 3 --timeout 300 > $OUT/infer.log 2>&1
(date; uptime) >> $OUT/machine.txt
