#!/bin/bash
# session 72, call 1 (one H200): SDPA's float32 memory-efficient attention as batched products (issue 16).
# (1) the decomposition against eager's kernel (tests/test_decompositions.py on CUDA); (2) fp32 attention alone,
# eager / Inductor / kiln; (3) fp32 training rows, kiln against Inductor, one process, alternating rounds.
export PYTHONPATH=. PYTHONUNBUFFERED=1; start=$(date +%s)
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; git log -1 --format=%h;
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $OUT/machine.txt 2>&1
timeout 100 python3 -m pytest -q -x tests/test_decompositions.py > $OUT/tests.txt 2>&1
echo "tests rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout 150 python3 bench/results/s72/attention_fp32.py $OUT/attention.json > $OUT/attention.txt 2>&1
echo "attention rc $? at $(( $(date +%s) - start )) s" >> $OUT/machine.txt
timeout $(( 580 - $(date +%s) + start )) python3 scripts/gpu_models.py --out $OUT/tr --train \
  --models t5,bart,vit,bert --budget-s $(( 420 - $(date +%s) + start )) > $OUT/tr.log 2>&1
echo "tr rc $? at $(( $(date +%s) - start )) s; $(uptime)" >> $OUT/machine.txt
grep "^{" $OUT/tr.log > $OUT/tr_rows.txt; grep -v "^W12\|^I12\|^V12" $OUT/tr.log | tail -n 20 > $OUT/tr_tail.txt; rm -f $OUT/tr.log
cat $OUT/machine.txt; tail -n 3 $OUT/tests.txt; grep -v "^W12\|^I12" $OUT/attention.txt | tail -n 12 | cut -c1-400; cat $OUT/tr/*.md
