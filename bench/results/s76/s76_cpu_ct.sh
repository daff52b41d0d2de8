#!/bin/bash
# session 76, on the 2-core CPU (issue 23): cold and warm compile time of every HF model of the suite (timm is
# not installed on this machine), inference, quick size, fp32, 2 rounds alternating the backends, medians:
#   bash bench/results/s76/s76_cpu_ct.sh OUTDIR
OUT=$1; mkdir -p $OUT
(date; uptime; nproc; git log -1 --format=%h; python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)") > $OUT/machine.txt
PYTHONPATH=. python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --repeats 2 --timeout 300 \
  --models gpt2,llama,mistral,qwen2,bert,roberta,distilbert,albert,deberta_v2,t5,bart,whisper,vit,deit,swin,convnext,resnet,regnet,mobilenet_v2,efficientnet \
  > $OUT/infer.log 2>&1
(date; uptime) >> $OUT/machine.txt
