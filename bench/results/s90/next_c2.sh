#!/bin/bash
# Chained right after s89/next_c1.sh on the same warm machine, with the device time left: issue 23's GPU rows of
# models not measured in session 89 (two shards, s89/suite_shards.py: cold then warm, aot_eager / Inductor / kiln),
# in $OUT/results.tgz.
#   DEADLINE=330 bash bench/results/s90/next_c2.sh
export PYTHONUNBUFFERED=1 PYTHONPATH=.
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; uptime; } > $OUT/machine.txt 2>&1
python3 bench/results/s89/suite_shards.py $OUT/gpu ${DEADLINE:-330} \
  ${MODELS:-vit,llama,roberta,qwen2,deit,resnet,albert,regnet,timm_resnet,timm_vit,timm_convnext,mistral,bart,t5,whisper} \
  > $OUT/shards.out 2>&1
python3 bench/results/s89/suite_table.py $OUT/gpu $OUT/gpu/rows.json > /dev/null 2>&1; tail -n 3 $OUT/gpu/*.md
cd $OUT && tar czf results.tgz --exclude results.tgz . && find . -mindepth 1 ! -name results.tgz -delete
