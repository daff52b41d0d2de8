#!/bin/bash
# session 45: the real-model suite's GPU rows on a 2-GPU host, one process per GPU at once (each its own models,
# so no two timings share a GPU): MODE = train | amp | infer; BUDGET = seconds after which no model starts.
# scripts/gpu_models.py in each; results packed into $OUT/results.tgz.
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/machine.txt; uptime >> $R/machine.txt
python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)" >> $R/machine.txt
git log -1 --format=%H >> $R/machine.txt 2>/dev/null
case $MODE in train) FLAGS="--train";; amp) FLAGS="--train --amp";; *) FLAGS="";; esac
M0=${M0:-gpt2,mistral,bert,distilbert,deberta_v2,bart,vit,swin,resnet,mobilenet_v2}
M1=${M1:-llama,qwen2,roberta,albert,t5,whisper,deit,convnext,regnet,efficientnet}
for g in 0 1; do
  eval M=\$M$g
  CUDA_VISIBLE_DEVICES=$g PYTHONPATH=. PYTHONUNBUFFERED=1 timeout $((BUDGET + 100)) python3 scripts/gpu_models.py \
    --out $R/g$g $FLAGS --models $M --budget-s $BUDGET > $R/g$g.log 2>&1 &
done
wait
uptime >> $R/machine.txt
cat $R/g*/*.md
tar czf $OUT/results.tgz -C $R .
