#!/bin/bash
# session 69, call 1 (one H200): an interleaved reduction's tile narrowed (down to 8 columns) while its programs
# are fewer than codegen/triton.SPREAD_PROGRAMS = 128: a split column sum's combine over many partial sums, and
# DeiT-tiny's 192-column partial sums (96 -> 192 programs). main (64 columns a program) against exp/ (the change):
# the layer norm's and a channels-last batch norm's backward, kiln / Inductor per call and per kernel; the GPU
# tests with exp/; then default-mode training rows with exp/ (conv nets' batch norms, DeiT-tiny's layer norms).
export PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime;
  python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
mkdir -p $OUT/main $OUT/exp
S=32x197x192,32x197x384,32x197x768
OUT=$OUT/main timeout 100 python3 bench/results/s69/bn_backward.py > $OUT/bn_main.txt 2>&1
echo "bn main rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
OUT=$OUT/exp PYTHONPATH=exp:. timeout 100 python3 bench/results/s69/bn_backward.py > $OUT/bn_exp.txt 2>&1
echo "bn exp rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
OUT=$OUT/main timeout 60 python3 bench/results/s67/ln_backward.py --shapes $S --variants inductor,default > $OUT/ln_main.txt 2>&1
echo "ln main rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
OUT=$OUT/exp PYTHONPATH=exp:. timeout 60 python3 bench/results/s67/ln_backward.py --shapes $S --variants inductor,default > $OUT/ln_exp.txt 2>&1
echo "ln exp rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
(cd exp && PYTHONPATH=$PWD:.. timeout 120 python3 -m pytest -q -x -p no:cacheprovider ../tests/test_gpu_codegen.py ../tests/test_modes.py) > $OUT/tests_exp.txt 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s; $(tail -1 $OUT/tests_exp.txt)" >> $OUT/machine.txt
PYTHONPATH=exp:. timeout $(( 575 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/train --train \
  --models timm_resnet,resnet,mobilenet_v2 --budget-s $(( 400 - $(date +%s) + start )) > $OUT/train.log 2>&1
echo "train rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
cat $OUT/machine.txt; grep "us a call" $OUT/*_main.txt $OUT/*_exp.txt | cut -c1-330; tail -3 $OUT/tests_exp.txt
grep "^{" $OUT/train.log | cut -c1-600
