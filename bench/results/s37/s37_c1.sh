#!/bin/bash
# session 37 call 1: background kernel builds + backward compiled ahead: GPU tests, then compile time cold/warm
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt; nproc >> $OUT/machine.txt
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)" >> $OUT/machine.txt
python3 -c "import torch._functorch.config as c; print('force_non_lazy', hasattr(c, 'force_non_lazy_backward_lowering'))" >> $OUT/machine.txt
PYTHONPATH=. KILN_FORBID_INDUCTOR=1 timeout 120 python3 -m pytest -q -x tests/test_compile_time.py tests/test_cuda_launch.py > $OUT/tests.log 2>&1; echo "tests rc $?" >> $OUT/machine.txt
tail -3 $OUT/tests.log
PYTHONPATH=. timeout 170 python3 scripts/gpu_compile_time.py --out $OUT/train_resnet --models resnet --train --budget-s 160 > $OUT/train_resnet.log 2>&1
cat $OUT/train_resnet/compile_time.md
PYTHONPATH=. timeout 200 python3 scripts/gpu_compile_time.py --out $OUT/train_gpt2 --models gpt2 --train --budget-s 190 > $OUT/train_gpt2.log 2>&1
cat $OUT/train_gpt2/compile_time.md
PYTHONPATH=. timeout 90 python3 scripts/gpu_compile_time.py --out $OUT/infer --models resnet --budget-s 80 > $OUT/infer.log 2>&1
cat $OUT/infer/compile_time.md
uptime >> $OUT/machine.txt
