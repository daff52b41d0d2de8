#!/bin/bash
# session 60, call 3 (one H200, what is left of the device time; LEFT seconds): issue 19's reduce-overhead rows at
# batch 2 after session 59's recording stream (kiln reduce-overhead against Inductor's, one process), then GPU
# freezing of HF ResNet-18 (kiln and Inductor with and without freezing, bf16 inference).
export PYTHONPATH=.
R=$OUT; mkdir -p $R/ro $R/fz; start=$(date +%s); LEFT=${LEFT:-420}
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $R/machine.txt 2>&1
timeout $(( LEFT - 130 )) python3 scripts/gpu_modes.py --out /tmp/ro --models distilbert,gpt2,bert,roberta --batches 2 --skip-checks --budget-s $(( LEFT - 280 )) > $R/ro.log 2>&1
echo "modes rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt; cp /tmp/ro/*.json $R/ro/ 2>/dev/null
left=$(( LEFT - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_modes.py --out /tmp/fz --freezing resnet,timm_resnet --skip-checks --budget-s $(( left - 150 )) > $R/fz.log 2>&1
echo "freezing rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt; cp /tmp/fz/*.json $R/fz/ 2>/dev/null
cat $R/machine.txt; grep "^{" $R/ro.log | cut -c1-1500; grep "^{" $R/fz.log | cut -c1-1500; tail -n 3 $R/ro.log $R/fz.log | cut -c1-300
