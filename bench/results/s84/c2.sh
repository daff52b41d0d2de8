#!/bin/bash
# session 84, call c2: issue 23's fp32 training rows on the GPU, not measured since session 35: GPT-2 and BERT,
# cold and warm, aot_eager / Inductor / kiln, one round (scripts/gpu_compile_time.py --train); then GPT-2's
# training step's first call sampled (kiln, fresh caches). ~330 s of command.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s); mkdir -p /tmp/o
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; } > /tmp/o/machine.txt 2>&1
timeout 270 python3 scripts/gpu_compile_time.py --out /tmp/o/ct --models gpt2,bert --train --timeout 100 > /tmp/o/ct.log 2>&1
echo "ct rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> /tmp/o/machine.txt
d=$(mktemp -d)
KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t timeout 60 \
  python3 bench/results/s83/sample_gpu_compile.py gpt2 kiln /tmp/o/s_gpt2_train_kiln --train > /tmp/o/gpt2_sample.log 2>&1
echo "sample rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
grep -v "^W12\|^I12" /tmp/o/ct.log | tail -n 40 > /tmp/o/ct_tail.txt; rm /tmp/o/ct.log
tar czf $OUT/c2.tgz -C /tmp/o .
cat /tmp/o/machine.txt; cat /tmp/o/ct/compile_time.md; tail -n 1 /tmp/o/gpt2_sample.log | cut -c1-1500
