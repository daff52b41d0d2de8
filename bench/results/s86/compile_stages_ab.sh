#!/bin/bash
# alternate HEAD (/work/main) and the change (/tmp/alt): fake-CUDA compile of a model's training graphs
for r in 1 2 3; do
  for side in head alt; do
    dir=/work/main; [ $side = alt ] && dir=/tmp/alt
    for m in $MODELS; do
      out=$(cd $dir && PYTHONPATH=. timeout 900 python3 bench/results/s56/s56_fake_cuda_compile.py $m 2>&1 | grep "^forward\|^backward\|^total" | tr '\n' ' ')
      echo "$r $side $m $out"
    done
  done
done
