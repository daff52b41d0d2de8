#!/bin/bash
# session 71, call 2 (one H200), the tree with dependent launches triggered late (GRID_DEPENDENCY without
# gdc_launch_dependents): (1) the GPU tests of codegen and modes; (2) a layer norm's backward, default (now late)
# against no dependent launch and Inductor; (3) issue 23: fp32 training steps' compile time, cold and warm.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > $OUT/machine.txt 2>&1
timeout 150 python3 -m pytest -q -x tests/test_gpu_codegen.py tests/test_modes.py > $OUT/tests.txt 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout 80 python3 bench/results/s67/ln_backward.py --shapes 32x197x192,32x197x768 \
  --variants inductor,default,nodep > $OUT/ln.txt 2>&1
echo "ln rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 585 - $(date +%s) + start )) python3 scripts/gpu_compile_time.py --out $OUT/ct --train \
  --models bert,gpt2 --timeout 120 --budget-s $(( 330 - $(date +%s) + start )) > $OUT/ct.log 2>&1
echo "ct rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{\|^[a-z0-9_]* [a-z_]* \(cold\|warm\)" $OUT/ct.log > $OUT/ct_rows.txt; rm -f $OUT/ct.log
cat $OUT/machine.txt; tail -n 3 $OUT/tests.txt; grep "us a call" $OUT/ln.txt | cut -c1-330; cat $OUT/ct/compile_time.md 2>/dev/null; cut -c1-300 $OUT/ct_rows.txt
