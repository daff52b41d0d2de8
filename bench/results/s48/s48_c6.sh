#!/bin/bash
# session 48, call 6 (2 H200s, a process per GPU, each pinned to its half of the CPUs): the fp32 training rows
# under or near 1.00 (Swin, T5, BART, Whisper) and the conv nets whose split column sums the session's
# reductions.SPLITS change moves (MobileNetV2, EfficientNet), each in both compile orders (--both-orders).
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; uptime;
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $R/machine.txt 2>&1
(CUDA_VISIBLE_DEVICES=0 timeout 540 taskset -c 0-15 python3 scripts/gpu_models.py --out $R/g0 --train --both-orders \
   --models ${M0:-swin,t5,mobilenet_v2} --budget-s 330 > $R/g0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout 540 taskset -c 16-31 python3 scripts/gpu_models.py --out $R/g1 --train --both-orders \
   --models ${M1:-bart,whisper,efficientnet} --budget-s 330 > $R/g1.log 2>&1) &
wait
echo "done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/g*/*.md
