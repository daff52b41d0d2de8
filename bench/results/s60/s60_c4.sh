#!/bin/bash
# session 60, call 4 (one H200, the session's last device minutes): the frozen graph's held memory after 9f34806 (a
# folded weight read only through its channels-last copy is let go) and GPU freezing timings again (HF and timm
# ResNet-18, bf16 inference); then the CUDA tests of the modules changed this session (recorded graphs, freezing).
export PYTHONPATH=.
R=$OUT; mkdir -p $R/fz; start=$(date +%s); LEFT=${LEFT:-330}
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $R/machine.txt 2>&1
timeout $(( LEFT - 90 )) python3 scripts/gpu_modes.py --out /tmp/fz --freezing timm_resnet,resnet --skip-checks --budget-s $(( LEFT - 200 )) > $R/fz.log 2>&1
echo "freezing rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt; cp /tmp/fz/*.json $R/fz/ 2>/dev/null
left=$(( LEFT - ($(date +%s) - start) ))
timeout $(( left > 20 ? left - 5 : 15 )) python3 -m pytest -q -x tests/test_modes.py tests/test_freezing.py > $R/tests.log 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cat $R/machine.txt; tail -n 3 $R/tests.log
python3 -c "
import json; d=json.load(open('/tmp/fz/modes_freezing_cuda.json'))
for r in d['rows']: print({k:(round(v,3) if isinstance(v,float) else v) for k,v in r.items() if 'ms' in k or 'mib' in k or 'vs' in k or 'accuracy' in k or 'error' in k})"
