#!/bin/bash
# session 67, call 1 (one H200): session 66's replay change (main 82077b2) on the GPU. DeiT's AMP training step,
# Inductor reduce-overhead against kiln reduce-overhead in one process, alternating rounds; then both profiled (MODEL=timm_deit: call 4)
# (host time by Python function and by op, top kernels).
export PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 250 python3 scripts/gpu_models.py --out $OUT/ro --train --amp --backends inductor@reduce-overhead,kiln@reduce-overhead --models ${MODEL:-deit} --budget-s 30 > $OUT/ro.log 2>&1
echo "ro rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
timeout $(( 560 - $(date +%s) + start )) python3 scripts/gpu_profile.py ${MODEL:-deit} --train --amp --backends inductor@reduce-overhead,kiln@reduce-overhead --top 12 --host > $OUT/prof_host.txt 2>&1
echo "prof rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
cat $OUT/machine.txt; cat $OUT/ro/*.md
