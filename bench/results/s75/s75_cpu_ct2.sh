#!/bin/bash
# session 75, on the 2-core CPU, after the BLAS binding change (NOTES 104): the cold and warm rows of the quick
# transformers and DeiT's training step (quick size, fp32, 3 rounds alternating the backends, medians):
#   bash bench/results/s75/s75_cpu_ct2.sh OUTDIR
OUT=$1; mkdir -p $OUT
(date; uptime; nproc; git log -1 --format=%h; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --models bert,gpt2,llama --repeats 3 --timeout 300 > $OUT/infer.log 2>&1
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/train --train --models deit --repeats 3 --timeout 300 > $OUT/train.log 2>&1
(date; uptime) >> $OUT/machine.txt
