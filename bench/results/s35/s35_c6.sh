#!/bin/bash
# session 35 call 6: after the review's key fixes, training steps still load whole on torch 2.11: a toy step and HF
# ResNet-18's fp32 training step, kiln only, cold then warm (compile s, Dynamo graphs loaded whole)
mkdir -p $OUT
export KILN_CACHE_DIR=/tmp/s35kc6 TRITON_CACHE_DIR=/tmp/s35tc6 TORCHINDUCTOR_CACHE_DIR=/tmp/s35ic6
for i in 1 2; do PYTHONPATH=. timeout 100 python3 .devrun/s35_dbg.py cuda 2>&1 | grep "RESULT\|reason\|Error" | tail -3; done
for phase in cold warm; do
  PYTHONPATH=. timeout 150 python3 scripts/gpu_compile_time.py --child --model resnet --backend kiln --device cuda --train 2>&1 | grep ROW | cut -c1-400
done
