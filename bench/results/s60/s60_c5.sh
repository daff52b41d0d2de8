#!/bin/bash
# session 60, call 5 (one H200, the last ~3 device minutes): GPU freezing's held memory and timings after the frozen
# constants are dropped from AOTAutograd's graph module (HF and timm ResNet-18, bf16 inference, batch 32).
export PYTHONPATH=.
R=$OUT; mkdir -p $R/fz; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used --format=csv; uptime; } > $R/machine.txt 2>&1
timeout 150 python3 scripts/gpu_modes.py --out /tmp/fz --freezing timm_resnet,resnet --skip-checks --budget-s 60 > $R/fz.log 2>&1
echo "freezing rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt; cp /tmp/fz/*.json $R/fz/ 2>/dev/null
cat $R/machine.txt
python3 -c "
import json; d=json.load(open('/tmp/fz/modes_freezing_cuda.json'))
for r in d['rows']: print(r['model'], {k:(round(v,3) if isinstance(v,float) else v) for k,v in r.items() if 'ms' in k or 'mib' in k or 'vs' in k or 'accuracy' in k or 'error' in k})"
