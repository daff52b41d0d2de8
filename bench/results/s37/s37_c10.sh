#!/bin/bash
mkdir -p $OUT
PYTHONPATH=. timeout 100 python3 .devrun/s37_kernel_times.py llama > $OUT/llama.txt 2>&1; tail -10 $OUT/llama.txt
PYTHONPATH=. timeout 80 python3 .devrun/s37_kernel_times.py resnet > $OUT/resnet.txt 2>&1; tail -10 $OUT/resnet.txt
