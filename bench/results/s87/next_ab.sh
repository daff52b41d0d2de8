#!/bin/bash
# For the next session's first GPU call (~480 s on one H100/H200 with ROUNDS=4): kiln's cold EfficientNet-B0 fp32
# training child (scripts/gpu_compile_time.py --child, fresh cache dirs each run) in alternating rounds of four
# variants, to tell the runs' 4-6 s variance (bench/NOTES.md 117) from the effect of: the convolutions planned ahead
# (s87/library_plans.patch, applied to a copy of the tree); planned ahead but only once Dynamo's call into kiln
# returns (library_plans_late.patch on top: not beside the backward's compile); and 8 build workers instead of one
# per core (the main thread's compile competing with 16 busy workers on 16 CPUs). One JSON row a run in
# $OUT/ab.jsonl.
#   ROUNDS=4 bash bench/results/s87/next_ab.sh
export PYTHONUNBUFFERED=1; ROUNDS=${ROUNDS:-4}; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; lscpu | grep -i "thread\|core\|socket" ; } > $OUT/machine.txt 2>&1
rm -rf /tmp/plans /tmp/late && cp -r . /tmp/plans && (cd /tmp/plans && git apply bench/results/s87/library_plans.patch)
cp -r /tmp/plans /tmp/late && (cd /tmp/late && git apply bench/results/s87/library_plans_late.patch)
run() {   # variant dir env...
  local variant=$1 dir=$2; shift 2
  local d=$(mktemp -d)
  local row=$(cd $dir && env "$@" KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t PYTHONPATH=. \
    timeout 90 python3 scripts/gpu_compile_time.py --child --model efficientnet --backend kiln --device cuda --train \
    < /dev/null 2>/dev/null | grep ROW | cut -c5-)
  echo "{\"variant\": \"$variant\", \"at_s\": $(( $(date +%s) - start )), \"row\": ${row:-null}}" >> $OUT/ab.jsonl
  rm -rf $d
}
for r in $(seq $ROUNDS); do
  run base .
  run plans /tmp/plans
  run plans_late /tmp/late
  run workers8 . KILN_BUILD_WORKERS=8
done
python3 - $OUT/ab.jsonl <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
for v in dict.fromkeys(r["variant"] for r in rows):
    got = [r["row"] for r in rows if r["variant"] == v and r["row"]]
    for key in ("compile_s", "backend_s"):
        xs = [g[key] for g in got]
        print(v, key, "median %.2f" % statistics.median(xs) if xs else "-", [round(x, 1) for x in xs])
PY
