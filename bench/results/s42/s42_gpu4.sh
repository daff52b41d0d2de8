#!/bin/bash
# session 42: where DistilBERT's fp32 training step goes (kiln against Inductor, scripts/gpu_profile.py), then
# bf16 inference rows of transformers and ConvNeXts (scripts/gpu_models.py) with session 42's changes
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)" >> $R/machine.txt
PYTHONPATH=. timeout 170 python3 scripts/gpu_profile.py distilbert --train --top 40 > $R/profile_distilbert_train.log 2>&1
grep -v Warn $R/profile_distilbert_train.log | tail -60
PYTHONPATH=. timeout 250 python3 scripts/gpu_models.py --out $R/models --models gpt2,bert,vit,convnext,timm_convnext --budget-s 230 > $R/models.log 2>&1
cat $R/models/*.md
uptime >> $R/machine.txt
tar czf $OUT/results.tgz -C $R .
