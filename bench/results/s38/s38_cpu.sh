#!/bin/bash
# session 38, on the 2-core CPU after CI: compile time cold/warm, aot_eager / Inductor / kiln, issue 23's rows at
# the quick size (float32), one process per (model, backend, phase)
OUT=bench/results/s38/cpu
mkdir -p $OUT
(date; uptime; nproc; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --models gpt2,bert,vit,llama,resnet,bart --timeout 300 --budget-s 1000 > $OUT/infer.log 2>&1
uptime >> $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --train --out $OUT/train --models resnet,bert,deit,efficientnet --timeout 300 --budget-s 700 > $OUT/train.log 2>&1
uptime >> $OUT/machine.txt
