#!/bin/bash
# session 37 call 2: same-host A/B of HEAD (7a86d3c, .devrun/old) and the change, HF ResNet-18 fp32 training cold;
# then a main-thread profile of the change's cold compile, and its warm start
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. timeout 60 python3 scripts/gpu_compile_time.py --out $OUT/aot --models resnet --train --backends aot_eager > $OUT/aot.log 2>&1
for round in 1 2; do
  (cd .devrun/old && PYTHONPATH=. timeout 100 python3 scripts/gpu_compile_time.py --out $OUT/old$round --models resnet --train --backends kiln > $OUT/old$round.log 2>&1)
  PYTHONPATH=. timeout 100 python3 scripts/gpu_compile_time.py --out $OUT/new$round --models resnet --train --backends kiln > $OUT/new$round.log 2>&1
done
grep -h "kiln cold\|kiln warm\|aot_eager cold" $OUT/*.log
d=$(mktemp -d); KILN_CACHE_DIR=$d/k TRITON_CACHE_DIR=$d/t TORCHINDUCTOR_CACHE_DIR=$d/i PYTHONPATH=. timeout 120 python3 .devrun/s37_prof.py resnet $OUT/resnet_train.prof --train > $OUT/prof.txt 2>&1
head -3 $OUT/prof.txt | cut -c1-600
PYTHONPATH=. timeout 90 python3 scripts/gpu_compile_time.py --out $OUT/inductor --models resnet --train --backends inductor > $OUT/inductor.log 2>&1
grep -h "inductor cold" $OUT/inductor.log
uptime >> $OUT/machine.txt
