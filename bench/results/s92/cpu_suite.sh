#!/bin/bash
# session 89 (rerun in session 92 on ecc10c2), on the 2-core CPU (issue 23): cold and warm compile time of the whole suite (27 models), inference,
# quick size, fp32, one round (aot_eager, Inductor, kiln, each cold on fresh dirs then warm, fresh processes).
# timm as in s77_cpu_timm.sh (TIMMLIB):   TIMMLIB=/tmp/timmlib bash bench/results/s89/cpu_suite.sh OUTDIR
OUT=$1; mkdir -p $OUT
(date; uptime; nproc; git log -1 --format=%h; PYTHONPATH=$TIMMLIB python3 -c "import sys, torch, triton, timm, transformers; print(sys.version.split()[0], torch.__version__, triton.__version__, timm.__version__, transformers.__version__)") > $OUT/machine.txt
PYTHONPATH=.:$TIMMLIB python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --timeout 400 \
  --models gpt2,llama,mistral,qwen2,bert,roberta,distilbert,albert,deberta_v2,t5,bart,whisper,vit,deit,swin,convnext,resnet,regnet,mobilenet_v2,efficientnet,timm_vit,timm_deit,timm_convnext,timm_efficientnet,timm_mobilenetv3,timm_regnet,timm_resnet > $OUT/infer.log 2>&1
(date; uptime) >> $OUT/machine.txt
