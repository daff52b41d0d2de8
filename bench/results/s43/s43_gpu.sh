#!/bin/bash
# session 43, one device call: bf16 inference of the models with a misaligned-rows head (peak memory, kiln / Inductor;
# scripts/gpu_models.py), then freezing rows of conv models (scripts/gpu_modes.py --freezing), on the tree committed.
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)" >> $R/machine.txt
git log -1 --format=%H >> $R/machine.txt 2>/dev/null
PYTHONPATH=. timeout 290 python3 scripts/gpu_models.py --out $R/infer --models ${MODELS:-bert,gpt2,distilbert,deberta_v2} --budget-s 230 > $R/infer.log 2>&1
cat $R/infer/*.md 2>/dev/null | head -30 || tail -5 $R/infer.log
PYTHONPATH=. timeout 260 python3 scripts/gpu_modes.py --out $R/freezing --freezing ${FREEZING:-resnet,mobilenet_v2,convnext,efficientnet} --budget-s 200 > $R/freezing.log 2>&1
grep -v Warn $R/freezing.log | tail -6
uptime >> $R/machine.txt
tar czf $OUT/results.tgz -C $R .
