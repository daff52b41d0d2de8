#!/bin/bash
# session 48, call 2 (2 H200s, a process per GPU, each pinned to its half of the CPUs): issue 19's rows at the
# session's code. GPU 0: reduce-overhead, the suite's transformers at batch 1 and 2, kiln against Inductor.
# GPU 1: freezing, the conv nets (bf16 inference at batch 32), then the fp32 training rows never measured on
# the GPU at this code (ConvNeXt, EfficientNet).
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; uptime; git log -1 --format=%h 2>/dev/null;
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $R/machine.txt 2>&1
(CUDA_VISIBLE_DEVICES=0 timeout 560 taskset -c 0-15 python3 scripts/gpu_modes.py --out $R/ro \
   --models ${RO:-gpt2,llama,bert,distilbert,roberta,t5,bart} --batches 1,2 --budget-s 470 > $R/ro.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout 250 taskset -c 16-31 python3 scripts/gpu_modes.py --out $R/frozen --skip-checks \
   --freezing ${FZ:-resnet,mobilenet_v2,convnext,efficientnet} > $R/frozen.log 2>&1
 CUDA_VISIBLE_DEVICES=1 timeout $(( 560 - ($(date +%s) - start) )) taskset -c 16-31 python3 scripts/gpu_models.py \
   --out $R/train --train --models ${TR:-convnext,efficientnet} --budget-s 200 > $R/train.log 2>&1) &
wait
echo "done at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
tail -30 $R/ro.log; tail -30 $R/frozen.log; cat $R/train/*.md
