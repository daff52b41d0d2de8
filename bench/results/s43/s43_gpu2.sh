#!/bin/bash
# session 43, second device call: the aligned-rows heads' peaks after their last rows went in column blocks
# (scripts/gpu_models.py, bf16 inference), HF ResNet-18's frozen bf16 inference profiled against Inductor's frozen
# (scripts/gpu_profile.py --freezing --timeline), then freezing rows (scripts/gpu_modes.py --freezing).
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)" >> $R/machine.txt
PYTHONPATH=. timeout 200 python3 scripts/gpu_models.py --out $R/infer --models deberta_v2,bert,gpt2 --budget-s 150 > $R/infer.log 2>&1
cat $R/infer/*.md 2>/dev/null | head -30 || tail -5 $R/infer.log
PYTHONPATH=. timeout 120 python3 scripts/gpu_profile.py resnet --dtype bfloat16 --freezing --timeline --top 20 > $R/profile_resnet_frozen.log 2>&1
grep -v Warn $R/profile_resnet_frozen.log | head -80
PYTHONPATH=. timeout 200 python3 scripts/gpu_modes.py --out $R/freezing --freezing efficientnet,resnet --budget-s 150 > $R/freezing.log 2>&1
grep -v Warn $R/freezing.log | tail -4
uptime >> $R/machine.txt
tar czf $OUT/results.tgz -C $R .
