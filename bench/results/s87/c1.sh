#!/bin/bash
# session 87, call c1 (one H100/H200), ~560 s: where EfficientNet-B0's cold fp32 training compile goes on the GPU
# (cProfile of the main thread, kiln and aot_eager, fresh cache dirs each), then issue 23's rows that session 86 left:
# EfficientNet-B0 training after item 116's cuts, DeiT-tiny training (cut off in session 86).
export PYTHONUNBUFFERED=1; start=$(date +%s); mkdir -p /tmp/o; BUDGET=${BUDGET:-560}
{ nvidia-smi --query-gpu=name,memory.used,driver_version --format=csv; uptime; nproc; git log -1 --format=%h; } > /tmp/o/machine.txt 2>&1
profiled() {   # backend model
  local d=$(mktemp -d)
  KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t PYTHONPATH=. timeout 150 python3 -m cProfile \
    -o /tmp/o/$2_$1.prof scripts/gpu_compile_time.py --child --model $2 --backend $1 --device cuda --train \
    < /dev/null > /tmp/o/$2_$1.log 2>&1
  echo "profile $2 $1 rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
  python3 - /tmp/o/$2_$1.prof > /tmp/o/$2_$1.txt <<'PY'
import pstats, sys
p = pstats.Stats(sys.argv[1]); p.sort_stats("cumtime").print_stats(140); p.sort_stats("tottime").print_stats(50)
PY
  grep ROW /tmp/o/$2_$1.log >> /tmp/o/$2_$1.txt; tar czf $OUT/c1.tgz -C /tmp/o --exclude='*.log' .
}
step() {   # name, timeout, args...
  local name=$1 limit=$2; shift 2
  local left=$(( BUDGET - ($(date +%s) - start) )); [ $left -lt 40 ] && return
  [ $limit -gt $left ] && limit=$left
  PYTHONPATH=. timeout $limit python3 scripts/gpu_compile_time.py --out /tmp/o/$name --timeout 120 "$@" < /dev/null > /tmp/o/$name.log 2>&1
  echo "$name rc $? at $(( $(date +%s) - start )) s" >> /tmp/o/machine.txt
  grep -v "^W12\|^I12\|^V12" /tmp/o/$name.log | tail -n 40 > /tmp/o/$name.tail; tar czf $OUT/c1.tgz -C /tmp/o --exclude='*.log' .
}
[ -z "$NO_PROFILE" ] && { profiled kiln efficientnet; profiled aot_eager efficientnet; }
STEPS=${STEPS:-'train_efficientnet 260 --models efficientnet --train
train_deit 200 --models deit --train'}
while read -r line; do [ -n "$line" ] && step $line; done <<< "$STEPS"
cat /tmp/o/machine.txt; cat /tmp/o/*/compile_time.md
