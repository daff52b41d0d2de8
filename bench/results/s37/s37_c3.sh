#!/bin/bash
# session 37 call 3: kiln loads binaries itself (no Triton launcher per signature); GPU tests and CUDA checks;
# same-host A/B of HEAD (.devrun/old) and the change, HF ResNet-18 fp32 training; aot_eager and Inductor; inline profile
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. KILN_FORBID_INDUCTOR=1 timeout 120 python3 -m pytest -q -x tests/test_compile_time.py tests/test_cuda_launch.py > $OUT/tests.log 2>&1; echo "tests rc $?" >> $OUT/machine.txt
tail -2 $OUT/tests.log
PYTHONPATH=. timeout 150 python3 scripts/gpu_check.py --out $OUT/check --skip-bench > $OUT/check.log 2>&1; echo "gpu_check rc $?" >> $OUT/machine.txt
tail -5 $OUT/check.log
for round in 1 2; do
  (cd .devrun/old && PYTHONPATH=. timeout 100 python3 scripts/gpu_compile_time.py --out $OUT/old$round --models resnet --train --backends kiln > $OUT/old$round.log 2>&1)
  PYTHONPATH=. timeout 100 python3 scripts/gpu_compile_time.py --out $OUT/new$round --models resnet --train --backends kiln > $OUT/new$round.log 2>&1
done
PYTHONPATH=. timeout 140 python3 scripts/gpu_compile_time.py --out $OUT/others --models resnet --train --backends aot_eager,inductor > $OUT/others.log 2>&1
for f in old1 new1 old2 new2 others; do grep -h "cold\|warm" $OUT/$f.log | sed "s/^/$f /" | cut -c1-420; done
d=$(mktemp -d); KILN_CACHE_DIR=$d/k TRITON_CACHE_DIR=$d/t TORCHINDUCTOR_CACHE_DIR=$d/i PYTHONPATH=. timeout 100 python3 .devrun/s37_prof_inline.py resnet $OUT/resnet_train.prof --train > $OUT/prof.txt 2>&1
head -1 $OUT/prof.txt | cut -c1-300
uptime >> $OUT/machine.txt
