#!/bin/bash
# session 87, call c1 (one H100/H200), ~560 s: where EfficientNet-B0's cold fp32 training compile goes on the GPU
# (cProfile of the main thread, kiln and aot_eager, fresh cache dirs each), then issue 23's rows that session 86 left:
# EfficientNet-B0 training after item 116's cuts, DeiT-tiny training (cut off in session 86). (Since the calls:
# the rows' loop is s86/c1.sh's own, called here, where it was a copy.)
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
[ -z "$NO_PROFILE" ] && { profiled kiln efficientnet; profiled aot_eager efficientnet; }
# the rows: session 86's script, with what is left of the budget (it starts /tmp/o/machine.txt anew: the profiles'
# lines are kept in profiles.txt)
cp /tmp/o/machine.txt /tmp/o/profiles.txt
STEPS=${STEPS:-'train_efficientnet 260 --models efficientnet --train
train_deit 200 --models deit --train'} BUDGET=$(( BUDGET - ($(date +%s) - start) )) bash bench/results/s86/c1.sh
