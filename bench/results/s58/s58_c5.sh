#!/bin/bash
# session 58, call 5 (one H200): issue 16's BART rows with each backend given 64 recompiles of a frame (bench.
# _own_recompile_budget; transformers' shared layer __call__ frame recompiles once per BART decoder layer, past
# Dynamo's 8: the first backend ran its last layers eagerly, the second nearly all of them): fp32 training, AMP-bf16
# training, bf16 inference, kiln / Inductor in one process, peaks against eager.
export PYTHONPATH=.
R=$OUT; mkdir -p $R; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head; } > $R/machine.txt 2>&1
for spec in "fp32:--train" "amp:--train --amp" "infer:"; do
  n=${spec%%:*}; flags=${spec#*:}
  timeout 165 python3 scripts/gpu_models.py --out $R/$n $flags --models bart --budget-s 140 > $R/$n.log 2>&1
  echo "$n rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt
  grep -c "recompile_limit" $R/$n.log >> $R/machine.txt
done
cat $R/machine.txt; cat $R/*/*.md | cut -c1-420; grep -h '^{' $R/*.log | grep -o '"kiln_kernels": [0-9]*, "kiln_fallback_ops": [0-9]*, "kiln_graphs_fallback": [0-9]*, "kiln_graphs": [0-9]*'
