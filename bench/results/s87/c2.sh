#!/bin/bash
# session 87, call c2 (one H100/H200), ~420 s: a wall-clock sampling profile (s87/sampled.py) of EfficientNet-B0's
# cold fp32 training compile, kiln and aot_eager (fresh cache dirs each); then DeBERTa-v2's bf16 inference row with
# its warm row (cut off in session 86).
export PYTHONUNBUFFERED=1; start=$(date +%s); mkdir -p /tmp/o
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; nproc; git log -1 --format=%h; } > /tmp/o/machine.txt 2>&1
for b in kiln aot_eager; do
  d=$(mktemp -d)
  KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t PYTHONPATH=. timeout 150 python3 \
    bench/results/s87/sampled.py /tmp/o/efficientnet_$b.json -- --child --model efficientnet --backend $b --device cuda \
    --train < /dev/null > /tmp/o/efficientnet_$b.log 2>&1
  echo "sampled efficientnet $b rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
  grep ROW /tmp/o/efficientnet_$b.log > /tmp/o/efficientnet_$b.row; tar czf $OUT/c2.tgz -C /tmp/o --exclude='*.log' .
done
PYTHONPATH=. timeout 330 python3 scripts/gpu_compile_time.py --out /tmp/o/inf_deberta --timeout 150 --models deberta_v2 \
  < /dev/null > /tmp/o/inf_deberta.log 2>&1
echo "inf_deberta rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
grep -v "^W12\|^I12\|^V12" /tmp/o/inf_deberta.log | tail -n 40 > /tmp/o/inf_deberta.tail; tar czf $OUT/c2.tgz -C /tmp/o --exclude='*.log' .
cat /tmp/o/machine.txt /tmp/o/*.row; cat /tmp/o/*/compile_time.md
