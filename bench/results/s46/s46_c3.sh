#!/bin/bash
# session 46, call 3 (2 GPUs, a process each): fp32 training rows not run in call 2 (GPU 0) and the AMP-bf16
# training rows session 45 did not reach (GPU 1), at the session's code (unfused float32 bias, roll lowered).
R=$OUT; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
git log -1 --format=%H >> $R/machine.txt 2>/dev/null
(CUDA_VISIBLE_DEVICES=0 PYTHONPATH=. PYTHONUNBUFFERED=1 timeout 560 python3 scripts/gpu_models.py --out $R/g0 --train \
   --models ${M0:-swin,gpt2,llama,qwen2,t5,whisper,mistral,deit} --budget-s ${BUDGET:-420} > $R/g0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 PYTHONPATH=. PYTHONUNBUFFERED=1 timeout 560 python3 scripts/gpu_models.py --out $R/g1 --train --amp \
   --models ${M1:-distilbert,roberta,deit,convnext,albert,whisper,mistral,deberta_v2} --budget-s ${BUDGET:-420} > $R/g1.log 2>&1) &
wait
uptime >> $R/machine.txt
cat $R/g*/*.md
