#!/bin/bash
# session 48, call 3 (one H200): where reduce-overhead's two losing rows (s48 c2: Llama batch 1 0.936, GPT-2 batch 2
# 0.989) spend their GPU time, kiln against Inductor, per kernel and per library call (default mode: under CUDA
# graphs the replay runs the same kernels). Call 3 ran it as is (float32, by mistake); call 4 with DT=bfloat16.
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R
{ nvidia-smi --query-gpu=name --format=csv,noheader; uptime; } > $R/machine.txt 2>&1
timeout 200 python3 scripts/gpu_profile.py llama --batch 1 ${DT:+--dtype $DT} --gemms --top 80 > $R/prof_llama_b1${DT:+_$DT}.txt 2>&1
timeout 200 python3 scripts/gpu_profile.py gpt2 --batch 2 ${DT:+--dtype $DT} --gemms --top 80 > $R/prof_gpt2_b2${DT:+_$DT}.txt 2>&1
uptime >> $R/machine.txt
grep "=====\|GPU kernels" $R/prof_*.txt
