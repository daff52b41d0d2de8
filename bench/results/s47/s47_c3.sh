#!/bin/bash
# session 47, call 3 (2 H200s, a process per GPU): training rows at the session's code (a bias gradient summed in its
# producer's kernel, split pieces that divide the rows): fp32 on GPU 0; AMP-bf16 on GPU 1, then Swin's fp32
# training kernels, all of them, kiln against Inductor.
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; uptime; git log -1 --format=%h; } > $R/machine.txt 2>&1
(CUDA_VISIBLE_DEVICES=0 timeout 545 python3 scripts/gpu_models.py --out $R/g0 --train \
   --models ${M0:-swin,bert,vit,gpt2,deit,distilbert,whisper,t5} --budget-s 480 > $R/g0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout 330 python3 scripts/gpu_models.py --out $R/g1 --train --amp \
   --models ${M1:-swin,vit,bert,gpt2,deit} --budget-s 290 > $R/g1.log 2>&1
 CUDA_VISIBLE_DEVICES=1 timeout $(( 545 - ($(date +%s) - start) )) python3 scripts/gpu_profile.py swin --train --top 160 \
   > $R/prof_swin_train_all.txt 2>&1) &
wait
echo "done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/g*/*.md
