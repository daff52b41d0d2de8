#!/bin/bash
# session 73, on the 2-core CPU: issue 23's rows where kiln's warm start read above Inductor's (item 60: GPT-2 and
# Llama inference, DeiT training) and BERT, cold and warm, aot_eager / Inductor / kiln, rounds alternating the
# backends (medians), quick size, float32:  bash bench/results/s73/s73_cpu_ct.sh OUTDIR
OUT=$1; mkdir -p $OUT
(date; uptime; nproc; git log -1 --format=%h; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --models gpt2,llama,bert --repeats 3 --timeout 300 > $OUT/infer.log 2>&1
uptime >> $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --train --out $OUT/train --models deit --repeats 3 --timeout 300 > $OUT/train.log 2>&1
(date; uptime) >> $OUT/machine.txt
