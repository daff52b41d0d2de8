#!/bin/bash
# session 69, call 2 (one H200): exp/ as call 1's but narrowing only below SPREAD_PROGRAMS = 64 programs (call 1's
# 128 narrowed DeiT-tiny's 96-program partial sums too: its layer norm's backward 12.9 -> 14.1 us a call): the layer
# norm's and batch norm's backward, the GPU tests (but the one whose combine count the change moves); then a
# max-autotune row not measured before: Llama's AMP training step, both compilers in max-autotune, one process.
export PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
PYTHONPATH=exp:. timeout 60 python3 bench/results/s67/ln_backward.py --shapes 32x197x192,32x197x384,32x197x768 --variants inductor,default > $OUT/ln_exp.txt 2>&1
echo "ln exp rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
PYTHONPATH=exp:. timeout 80 python3 bench/results/s69/bn_backward.py > $OUT/bn_exp.txt 2>&1
echo "bn exp rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
(cd exp && PYTHONPATH=$PWD:.. timeout 120 python3 -m pytest -q -p no:cacheprovider ../tests/test_gpu_codegen.py ../tests/test_modes.py \
   --deselect ../tests/test_gpu_codegen.py::test_channels_last_rows_of_a_computed_value_are_split) > $OUT/tests_exp.txt 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s; $(tail -1 $OUT/tests_exp.txt)" >> $OUT/machine.txt
PYTHONPATH=exp:. timeout $(( 590 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/ma \
  --backends inductor@max-autotune,kiln@max-autotune --train --amp --models llama --budget-s 60 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep -v "^W12\|^I12\|^V12" $OUT/ma.log | tail -n 30 > $OUT/ma_tail.txt; rm -rf $OUT/ma.log $OUT/ma
cat $OUT/machine.txt; grep "us a call" $OUT/*_exp.txt | cut -c1-330; tail -3 $OUT/tests_exp.txt; grep "^{" $OUT/ma_tail.txt | cut -c1-900
