#!/bin/bash
# session 77, on the 2-core CPU (issue 23): the three rows whose warm start read above Inductor's in item 106
# (DistilBERT, Swin, Whisper), inference, quick size, fp32, 5 rounds alternating the backends, medians:
#   bash bench/results/s77/s77_cpu_warm.sh OUTDIR
OUT=$1; mkdir -p $OUT
(date; uptime; nproc; git log -1 --format=%h; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --repeats 5 --timeout 300 \
  --models whisper,distilbert,swin > $OUT/infer.log 2>&1
(date; uptime) >> $OUT/machine.txt
