#!/bin/bash
# session 36 call 2: stored kernel binaries on a warm start (issue 23): the GPU test, a warm profile of ResNet-18's
# training step, and compile time cold/warm for ResNet-18 training and inference
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. KILN_FORBID_INDUCTOR=1 timeout 150 python3 -m pytest -q -x tests/test_compile_time.py -k "gpu or warm" > $OUT/pytest.txt 2>&1
tail -3 $OUT/pytest.txt
export KILN_CACHE_DIR=/tmp/p_k TRITON_CACHE_DIR=/tmp/p_t TORCHINDUCTOR_CACHE_DIR=/tmp/p_i
PYTHONPATH=. timeout 200 python3 .devrun/s35_prof.py resnet $OUT/cold.prof --train > $OUT/cold.txt 2>&1
PYTHONPATH=. timeout 150 python3 .devrun/s35_prof.py resnet $OUT/warm.prof --train > $OUT/warm.txt 2>&1
grep "first step" $OUT/cold.txt $OUT/warm.txt
unset KILN_CACHE_DIR TRITON_CACHE_DIR TORCHINDUCTOR_CACHE_DIR
PYTHONPATH=. timeout 330 python3 scripts/gpu_compile_time.py --out $OUT/train --models resnet --train --budget-s 300 > $OUT/train.log 2>&1
PYTHONPATH=. timeout 200 python3 scripts/gpu_compile_time.py --out $OUT/infer --models resnet --budget-s 180 > $OUT/infer.log 2>&1
cat $OUT/train/compile_time.md $OUT/infer/compile_time.md
