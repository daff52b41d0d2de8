#!/bin/bash
# session 59, call 1 (one H200): issue 19's reduce-overhead memory, with the allocator's history over each variant's
# life (s59_ro_memory_probe.py: DistilBERT and GPT-2 at batch 1, bf16 inference), and issue 23's BART compile rows
# beside aot_eager (cold and warm, inference and fp32 training; s58's were measured without aot_eager).
export PYTHONPATH=.
R=$OUT; mkdir -p $R/probe $R/ct_infer $R/ct_train; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h; git status --short | head; } > $R/machine.txt 2>&1
for m in distilbert gpt2; do
  timeout 150 python3 bench/results/s59/s59_ro_memory_probe.py $R/probe/$m.json $m 1 > $R/probe/$m.log 2>&1
  echo "probe $m rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt
done
timeout 200 python3 scripts/gpu_compile_time.py --out /tmp/ci --models bart --budget-s 170 --timeout 120 > $R/ct_infer.log 2>&1
echo "ct infer rc $? at $(( $(date +%s) - start )) s" >> $R/machine.txt
cp /tmp/ci/compile_time.* $R/ct_infer/ 2>/dev/null
left=$(( 560 - ($(date +%s) - start) ))
timeout $left python3 scripts/gpu_compile_time.py --out /tmp/ct --train --models bart --budget-s $(( left - 30 )) --timeout 150 > $R/ct_train.log 2>&1
echo "ct train rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $R/machine.txt
cp /tmp/ct/compile_time.* $R/ct_train/ 2>/dev/null
cat $R/machine.txt; grep -v "^ *$" $R/probe/*.log | cut -c1-300 | head -80; cat $R/ct_*/compile_time.md | cut -c1-400
