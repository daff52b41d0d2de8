#!/bin/bash
# session 68, call 2 (one H200): a training forward's activations handed out as the same tensor objects at every
# replay (cuda_graphs.Recording.kept). Checks first (torch 2.11 counts a tensor's C++ holders in its Python
# refcount, or nothing is kept; tests/test_modes.py on the GPU), then timm DeiT-tiny's AMP training step in
# reduce-overhead, kiln against Inductor in one process, alternating rounds, and kiln's host profile (session 67's
# call 4: kiln 3.753 ms of host a step, Inductor 3.197); then its max-autotune row (session 67's call 3: 0.966).
export PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
python3 -c "import torch, triton; from kiln.runtime import cuda_graphs as c; print(torch.__version__, triton.__version__, 'kept alone refcount', c._refcount_kept_alone())" >> $OUT/machine.txt 2>&1
timeout 120 python3 -m pytest -q -x tests/test_modes.py > $OUT/test_modes.txt 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s; $(tail -1 $OUT/test_modes.txt)" >> $OUT/machine.txt
timeout 150 python3 scripts/gpu_models.py --out $OUT/ro --train --amp --backends inductor@reduce-overhead,kiln@reduce-overhead --models timm_deit --budget-s 30 > $OUT/ro.log 2>&1
echo "ro rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
timeout 100 python3 scripts/gpu_profile.py timm_deit --train --amp --backends kiln@reduce-overhead --top 12 --host > $OUT/prof_host.txt 2>&1
echo "prof rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
timeout $(( 590 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/ma \
  --backends inductor@max-autotune,kiln@max-autotune --train --amp --models timm_deit --budget-s 100 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep -v "^W12\|^I12\|^V12" $OUT/ma.log | tail -n 30 > $OUT/ma_tail.txt; rm -f $OUT/ma.log
cat $OUT/machine.txt; cat $OUT/ro/*.md; head -3 $OUT/prof_host.txt; grep "^{" $OUT/ma_tail.txt | cut -c1-900
