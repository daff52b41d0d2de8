#!/bin/bash
# session 75, on the 2-core CPU (NOTES 104): the warm rows not measured since item 99's warm-start change, BERT
# inference and DeiT training (quick size, fp32, 3 rounds alternating the backends, medians):
#   bash bench/results/s75/s75_cpu_ct.sh OUTDIR
OUT=$1; mkdir -p $OUT
(date; uptime; nproc; git log -1 --format=%h; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --models bert --repeats 3 --timeout 300 > $OUT/infer.log 2>&1
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/train --train --models deit --repeats 3 --timeout 300 > $OUT/train.log 2>&1
(date; uptime) >> $OUT/machine.txt
