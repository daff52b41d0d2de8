#!/bin/bash
# prepared in session 69 for the next session's first call (one H200): why DeiT-tiny's layer norm backward (192
# columns) is 1.1 us slower with its combine spread over 24 programs, with dependent launches only (NOTES 93):
# the combine's program count set through SPREAD_PROGRAMS (1: 3 programs of 64 columns, as before; 4: 6 of 32;
# 8: 12 of 16; 64: 24 of 8, the partial sums unnarrowed; 128, the default: as committed), each with and without
# dependent launches;
# then a max-autotune row not measured yet: Mistral's AMP training step, both compilers, one process.
export PYTHONPATH=.; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; } > $OUT/machine.txt 2>&1
V=inductor,spread1,spread1+nodep,spread4,spread4+nodep,spread8,spread8+nodep,spread64,spread64+nodep,default,nodep
timeout 120 python3 bench/results/s67/ln_backward.py --shapes 32x197x192 --variants $V > $OUT/ln.txt 2>&1
echo "ln rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 590 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/ma \
  --backends inductor@max-autotune,kiln@max-autotune --train --amp --models mistral --budget-s 60 > $OUT/ma.log 2>&1
echo "ma rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep -v "^W12\|^I12\|^V12" $OUT/ma.log | tail -n 30 > $OUT/ma_tail.txt; rm -rf $OUT/ma.log $OUT/ma
cat $OUT/machine.txt; grep "us a call" $OUT/ln.txt | cut -c1-330; grep "^{" $OUT/ma_tail.txt | cut -c1-900
