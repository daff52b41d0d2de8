#!/bin/bash
# session 46, call 2 (2 GPUs): the fp32 training rows after the unfused float32 bias (GPU 0, gpu_models.py), and
# the ATen/library kernels by operand layout of Swin and DeBERTa-v2 with it (GPU 1, gpu_profile.py --gemms).
R=$OUT; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
git log -1 --format=%H >> $R/machine.txt 2>/dev/null
(CUDA_VISIBLE_DEVICES=0 PYTHONPATH=. PYTHONUNBUFFERED=1 timeout 540 python3 scripts/gpu_models.py --out $R/g0 --train \
   --models bert,vit,swin,deberta_v2,distilbert,roberta,albert,whisper --budget-s 430 > $R/g0.log 2>&1) &
(for m in swin deberta_v2; do CUDA_VISIBLE_DEVICES=1 PYTHONPATH=. timeout 260 python3 scripts/gpu_profile.py $m --train --gemms --top 40 > $R/prof_$m.txt 2>&1; done) &
wait
uptime >> $R/machine.txt
cat $R/g0/*.md
