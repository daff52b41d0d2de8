#!/bin/bash
# session 75, call 2 (one H200): bf16 inference rows of the suite, the oldest measured first (sessions 25-45), one
# process, alternating rounds, to renew issue 16's inference table with today's code.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 575 python3 scripts/gpu_models.py --out $OUT/inf \
  --models timm_deit,timm_vit,timm_resnet,timm_convnext,deberta_v2,mistral,whisper,albert,bart,deit,distilbert,qwen2,roberta,t5,llama,resnet,vit \
  --budget-s 480 > $OUT/inf.log 2>&1
echo "inf rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/inf.log > $OUT/inf_rows.txt; grep "budget" $OUT/inf.log >> $OUT/machine.txt; tail -3 $OUT/inf.log > $OUT/inf_tail.txt
rm -rf $OUT/inf.log $OUT/inf; cat $OUT/machine.txt; cut -c1-400 $OUT/inf_rows.txt
