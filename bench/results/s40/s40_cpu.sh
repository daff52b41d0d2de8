#!/bin/bash
# session 40, on the 2-core CPU: compile time cold/warm, aot_eager / Inductor / kiln, of the conv nets' inference
# (eval batch norms, now lowered whole) at the quick size (float32), one process per (model, backend, phase), rounds
# alternating the backends (medians):   bash bench/results/s40/s40_cpu.sh OUTDIR
OUT=$1
mkdir -p $OUT
(date; uptime; nproc; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --models resnet,mobilenet_v2,efficientnet,regnet --repeats 2 --timeout 300 > $OUT/infer.log 2>&1
(date; uptime) >> $OUT/machine.txt
