#!/bin/bash
# session 46, call 4 (2 GPUs): fp32 training rows in both compile orders (gpu_models.py --both-orders): the
# encoder-decoders whose rows move with the order (Whisper, BART; bench/NOTES.md 53) first, then the conv nets.
R=$OUT; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
(CUDA_VISIBLE_DEVICES=0 PYTHONPATH=. PYTHONUNBUFFERED=1 timeout 290 python3 scripts/gpu_models.py --out $R/g0 --train \
   --both-orders --models whisper,resnet,regnet --budget-s 170 > $R/g0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 PYTHONPATH=. PYTHONUNBUFFERED=1 timeout 290 python3 scripts/gpu_models.py --out $R/g1 --train \
   --both-orders --models bart,mobilenet_v2,efficientnet --budget-s 170 > $R/g1.log 2>&1) &
wait
uptime >> $R/machine.txt
cat $R/g*/*.md
