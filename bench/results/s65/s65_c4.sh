#!/bin/bash
# session 65, call 4 (one H200, <= 500 s): issue 23's GPU rows cut by session 64's device time, cold then warm
# (aot_eager / Inductor / kiln, one process per backend and run): DeBERTa-v2 bf16 inference, then AdamW over
# ResNet-50's parameters; kiln from exp/kiln (call 1's tree).
R=$OUT; mkdir -p $R; export PYTHONPATH=exp:.; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used --format=csv; uptime; } > $R/machine.txt
timeout 210 python3 scripts/gpu_compile_time.py --out $R/ct_deberta --models deberta_v2 --timeout 80 > $R/ct_deberta.log 2>&1
echo "deberta rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
timeout $(( 490 - $(date +%s) + start )) python3 scripts/gpu_compile_time.py --out $R/ct_adamw --train \
  --models adamw_resnet50 --timeout 80 > $R/ct_adamw.log 2>&1
echo "adamw rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/machine.txt; grep -h "cold\|warm" $R/ct_*.log | cut -c1-330
