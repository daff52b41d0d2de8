#!/bin/bash
# session 47, call 4 (2 H200s): A/B of this session's scheduler change in fp32 training, one process per GPU at the
# same time: GPU 0 runs the code before it (.devrun/old: kiln at 9557c06), GPU 1 the change; each row is kiln /
# Inductor in its own process.
export PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R
(CUDA_VISIBLE_DEVICES=0 PYTHONPATH=.devrun/old:. timeout 235 python3 scripts/gpu_models.py --out $R/before --train \
   --models deit,swin --budget-s 200 > $R/before.log 2>&1) &
(CUDA_VISIBLE_DEVICES=1 PYTHONPATH=. timeout 235 python3 scripts/gpu_models.py --out $R/after --train \
   --models deit,swin --budget-s 200 > $R/after.log 2>&1) &
wait
echo 'import kiln; print(kiln.__file__)' > /tmp/which.py
PYTHONPATH=. python3 /tmp/which.py >> $R/after.log; PYTHONPATH=.devrun/old:. python3 /tmp/which.py >> $R/before.log
cat $R/*/*.md
