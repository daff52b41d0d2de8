#!/bin/bash
# session 69, call 4 (one H200): the code as committed (call 1's exp/ tile rule, SPREAD_PROGRAMS = 128, and the
# effect-token ops lowered to nothing): the GPU tests, the batch norm's and layer norm's backward, and timm
# DeiT-tiny's AMP training step in default mode against Inductor (one process, alternating rounds).
export PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
timeout 100 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_codegen.py tests/test_modes.py > $OUT/tests.txt 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s; $(tail -1 $OUT/tests.txt)" >> $OUT/machine.txt
timeout 60 python3 bench/results/s69/bn_backward.py > $OUT/bn.txt 2>&1
timeout 40 python3 bench/results/s67/ln_backward.py --shapes 32x197x192,32x197x768 --variants inductor,default > $OUT/ln.txt 2>&1
echo "norms rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 290 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/m --train --amp --models timm_deit --budget-s 20 > $OUT/m.log 2>&1
echo "deit rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
grep "^{" $OUT/m.log > $OUT/deit.txt; rm -rf $OUT/m $OUT/m.log
cat $OUT/machine.txt; grep "us a call" $OUT/bn.txt $OUT/ln.txt | cut -c1-330; cut -c1-700 $OUT/deit.txt
