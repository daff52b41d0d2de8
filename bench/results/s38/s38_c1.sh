#!/bin/bash
# session 38 call 1: per-kernel sm_90 build times (Llama and HF ResNet-18 inference) with the build budget;
# compile time cold/warm, aot_eager / Inductor / kiln, bf16 inference of Llama and ResNet-18; a profile of
# Llama's warm start
mkdir -p $OUT
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/machine.txt; uptime >> $OUT/machine.txt
for m in llama resnet; do
  PYTHONPATH=. timeout 100 python3 scripts/gpu_kernel_build_times.py $m $OUT/kt_$m > $OUT/kt_$m.txt 2>&1
  grep -v Warning $OUT/kt_$m.txt | tail -9
done
PYTHONPATH=. timeout 330 python3 scripts/gpu_compile_time.py --out $OUT/infer --models llama,resnet > $OUT/infer.log 2>&1
cat $OUT/infer/compile_time.md
mkdir -p /tmp/w; export KILN_CACHE_DIR=/tmp/w/k TORCHINDUCTOR_CACHE_DIR=/tmp/w/i TRITON_CACHE_DIR=/tmp/w/t
PYTHONPATH=. timeout 60 python3 bench/results/s37/s37_prof.py llama /tmp/w/cold.prof > $OUT/llama_cold_prof.txt 2>&1
PYTHONPATH=. timeout 60 python3 bench/results/s37/s37_prof.py llama $OUT/llama_warm.prof > $OUT/llama_warm_prof.txt 2>&1
grep "first step" $OUT/llama_*_prof.txt | cut -c1-600
uptime >> $OUT/machine.txt
