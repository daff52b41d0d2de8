#!/bin/bash
# session 34 call 4: compile time with build workers (warmed up, handles loaded as each kernel is built), three
# backends, cold and warm, bf16 inference of HF ResNet-18, GPT-2 and BERT, on one machine (issue 23)
mkdir -p $OUT
PYTHONPATH=. timeout 590 python3 scripts/gpu_compile_time.py --out $OUT/infer --models resnet,gpt2,bert --budget-s 560 > $OUT/infer.log 2>&1
tail -n 6 $OUT/infer.log
