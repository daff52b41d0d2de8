#!/bin/bash
# session 88, call c4 (one H100/H200), ~480 s: a training backward's convolutions planned ahead on the autograd
# thread (kiln/runtime/library_plans.py). 1) plans_thread_check.py with and without (same thread as the backward,
# gradients against fp64); 2) kiln's cold EfficientNet-B0 fp32 training child (fresh cache dirs), base (the load
# hook reverted: s88/plans_hook.patch) and planned, in alternating rounds (ROUNDS); 3) EfficientNet-B0's issue-23
# row, aot_eager / Inductor / kiln cold and warm, one round (s86/c1.sh's loop), with what is left of BUDGET.
export PYTHONUNBUFFERED=1; ROUNDS=${ROUNDS:-2}; BUDGET=${BUDGET:-560}; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $OUT/machine.txt 2>&1
rm -rf /tmp/base && cp -r . /tmp/base && (cd /tmp/base && patch -s -R -p1 < bench/results/s88/plans_hook.patch)
for dir in . /tmp/base; do
  (cd $dir && PYTHONPATH=. timeout 120 python3 bench/results/s88/plans_thread_check.py 2>&1 | grep "ROW\|Error" \
    | sed "s|^|$dir |" >> $OUT/thread_check.txt)
done
cat $OUT/thread_check.txt
run() {   # variant dir
  local variant=$1 dir=$2 d=$(mktemp -d)
  local row=$(cd $dir && KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t PYTHONPATH=. \
    timeout 90 python3 scripts/gpu_compile_time.py --child --model efficientnet --backend kiln --device cuda --train \
    < /dev/null 2>/dev/null | grep ROW | cut -c5-)
  echo "{\"variant\": \"$variant\", \"at_s\": $(( $(date +%s) - start )), \"row\": ${row:-null}}" >> $OUT/ab.jsonl
  rm -rf $d
}
for r in $(seq $ROUNDS); do run base /tmp/base; run planned .; done
python3 - $OUT/ab.jsonl <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
for v in dict.fromkeys(r["variant"] for r in rows):
    got = [r["row"] for r in rows if r["variant"] == v and r["row"]]
    for key in ("compile_s", "backend_s", "convolutions_planned_ahead"):
        xs = [g.get(key, 0) for g in got]
        print(v, key, "median %.2f" % statistics.median(xs) if xs else "-", [round(x, 1) for x in xs])
PY
STEPS='train_efficientnet 260 --models efficientnet --train' BUDGET=$(( BUDGET - ($(date +%s) - start) )) \
  bash bench/results/s86/c1.sh > /dev/null 2>&1
cp $OUT/c1.tgz $OUT/row.tgz 2>/dev/null; tar xzf $OUT/c1.tgz -O ./train_efficientnet/compile_time.md 2>/dev/null
