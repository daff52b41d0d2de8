#!/bin/bash
# session 39 (after the bench collects garbage before a first call: the rows where kiln was above Inductor warm), on the 2-core CPU: compile time cold/warm, aot_eager / Inductor / kiln, issue 23's rows at the quick
# size (float32), one process per (model, backend, phase), rounds alternating the backends (medians):
#   bash bench/results/s39/s39_cpu.sh OUTDIR
OUT=$1
mkdir -p $OUT
(date; uptime; nproc; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --models gpt2,bert,vit,llama,bart --repeats 3 --timeout 300 > $OUT/infer.log 2>&1
uptime >> $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --train --out $OUT/train --models bert,deit --repeats 2 --timeout 300 > $OUT/train.log 2>&1
(date; uptime) >> $OUT/machine.txt
