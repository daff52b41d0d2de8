#!/bin/bash
# session 46, call 1 (2 GPUs): the library calls of the fp32 training rows below Inductor, by operand layout
# (gpu_profile.py --gemms), two models per GPU; then what Dynamo makes of BART on this machine.
R=$OUT; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
python3 -c "import sys, torch, triton, transformers; print(sys.version.split()[0], torch.__version__, triton.__version__, transformers.__version__)" >> $R/machine.txt
(for m in swin vit; do CUDA_VISIBLE_DEVICES=0 PYTHONPATH=. timeout 250 python3 scripts/gpu_profile.py $m --train --gemms --top 20 > $R/prof_$m.txt 2>&1; done) &
(CUDA_VISIBLE_DEVICES=1 PYTHONPATH=. TORCH_LOGS=graph_breaks,recompiles timeout 80 python3 bench/results/s46/s46_bart_breaks.py bart > $R/bart_breaks.txt 2>&1
 for m in bert deberta_v2; do CUDA_VISIBLE_DEVICES=1 PYTHONPATH=. timeout 250 python3 scripts/gpu_profile.py $m --train --gemms --top 20 > $R/prof_$m.txt 2>&1; done) &
wait
uptime >> $R/machine.txt
tail -3 $R/*.txt
