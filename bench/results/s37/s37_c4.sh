#!/bin/bash
# session 37 call 4 (after the review's mendings): GPU tests; compile time cold/warm, aot_eager / Inductor / kiln:
# HF ResNet-18 fp32 training and bf16 inference
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
PYTHONPATH=. KILN_FORBID_INDUCTOR=1 timeout 80 python3 -m pytest -q tests/test_compile_time.py tests/test_cuda_launch.py > $OUT/tests.log 2>&1; echo "tests rc $?" >> $OUT/machine.txt
grep -E "passed|failed|^E " $OUT/tests.log | head -20
PYTHONPATH=. timeout 230 python3 scripts/gpu_compile_time.py --out $OUT/train_resnet --models resnet --train > $OUT/train_resnet.log 2>&1
cat $OUT/train_resnet/compile_time.md
PYTHONPATH=. timeout 190 python3 scripts/gpu_compile_time.py --out $OUT/infer_resnet --models resnet > $OUT/infer_resnet.log 2>&1
cat $OUT/infer_resnet/compile_time.md
grep -h "kiln cold\|kiln warm" $OUT/*.log | cut -c1-700
uptime >> $OUT/machine.txt
