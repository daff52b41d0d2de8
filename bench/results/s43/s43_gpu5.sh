#!/bin/bash
# session 43, fifth device call: fp32 training rows of the models with a misaligned-rows head after float32 products
# went back to cuBLAS's own kernels (scripts/gpu_models.py --train), then freezing rows again (scripts/gpu_modes.py).
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)" >> $R/machine.txt
PYTHONPATH=. timeout 250 python3 scripts/gpu_models.py --out $R/train --models bert,deberta_v2,gpt2 --train --budget-s 200 > $R/train.log 2>&1
cat $R/train/*.md 2>/dev/null | head -30 || tail -5 $R/train.log
PYTHONPATH=. timeout 200 python3 scripts/gpu_modes.py --out $R/freezing --freezing mobilenet_v2,resnet --budget-s 150 > $R/freezing.log 2>&1
grep -v Warn $R/freezing.log | tail -4
uptime >> $R/machine.txt
tar czf $OUT/results.tgz -C $R .
