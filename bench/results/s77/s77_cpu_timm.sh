#!/bin/bash
# session 77, on the 2-core CPU (issue 23): cold and warm compile time of the suite's 7 timm models, inference,
# quick size, fp32, 2 rounds alternating the backends, medians. timm 1.0.31 and torchvision 0.28.0 installed with
# --no-deps into TIMMLIB (not the environment), torchvision's __init__ edited to skip its C ops' registrations,
# which do not load with the CPU-only torch (timm needs only torchvision's Python parts):
#   TIMMLIB=/tmp/timmlib bash bench/results/s77/s77_cpu_timm.sh OUTDIR
OUT=$1; mkdir -p $OUT
(date; uptime; nproc; git log -1 --format=%h; PYTHONPATH=$TIMMLIB python3 -c "import sys, torch, triton, timm; print(sys.version.split()[0], torch.__version__, triton.__version__, timm.__version__)") > $OUT/machine.txt
PYTHONPATH=.:$TIMMLIB python3 scripts/gpu_compile_time.py --device cpu --out $OUT/infer --repeats 2 --timeout 300 \
  --models timm_vit,timm_deit,timm_convnext,timm_efficientnet,timm_mobilenetv3,timm_regnet,timm_resnet > $OUT/infer.log 2>&1
(date; uptime) >> $OUT/machine.txt
