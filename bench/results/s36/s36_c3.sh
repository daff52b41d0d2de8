#!/bin/bash
# session 36 call 3: stored kernel binaries, no build ahead where a binary is stored (issue 23): the GPU test, and
# compile time cold/warm for ResNet-18 training and inference and GPT-2 training
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. KILN_FORBID_INDUCTOR=1 timeout 100 python3 -m pytest -q -x tests/test_compile_time.py -k "gpu" > $OUT/pytest.txt 2>&1
tail -2 $OUT/pytest.txt
PYTHONPATH=. timeout 150 python3 scripts/gpu_compile_time.py --out $OUT/infer --models resnet --budget-s 140 > $OUT/infer.log 2>&1
PYTHONPATH=. timeout 390 python3 scripts/gpu_compile_time.py --out $OUT/train --models resnet,gpt2 --train --budget-s 170 > $OUT/train.log 2>&1
uptime >> $OUT/machine.txt
cat $OUT/train/compile_time.md $OUT/infer/compile_time.md
