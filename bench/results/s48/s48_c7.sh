#!/bin/bash
# session 48, call 7 (2 H200s, a process chain per GPU, each pinned to its half of the CPUs): issue 23's compile
# time on the GPU for suite models no earlier call measured, bf16 inference, one round each: aot_eager / Inductor /
# kiln, cold (fresh cache dirs) then warm (a new process on the filled dirs), by scripts/gpu_compile_time.py.
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; uptime;
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $R/machine.txt 2>&1
(CUDA_VISIBLE_DEVICES=0 timeout 310 taskset -c 0-15 python3 scripts/gpu_compile_time.py --out $R/g0 \
   --models ${M0:-gpt2,vit,distilbert} --repeats 1 --timeout 150 --budget-s 170 > $R/g0.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout 310 taskset -c 16-31 python3 scripts/gpu_compile_time.py --out $R/g1 \
   --models ${M1:-t5,swin,mobilenet_v2} --repeats 1 --timeout 150 --budget-s 170 > $R/g1.log 2>&1) &
wait
echo "done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/g*/compile_time.md
