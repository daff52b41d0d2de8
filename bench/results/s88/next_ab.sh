#!/bin/bash
# For the next session's first GPU call (~420 s on one H100/H200 with ROUNDS=2): kiln's cold fp32 training child
# (scripts/gpu_compile_time.py --child, fresh cache dirs each run) of EfficientNet-B0 and of timm's EfficientNet-B0
# (MODELS), in alternating rounds of: base (the backward's convolutions planned when the graph is loaded, item 118)
# and at_scheduling (s88/plans_at_scheduling.patch: planned once the backward is scheduled, before its code is
# generated: ~1 s earlier). One JSON row a run in $OUT/ab.jsonl, then medians.
#   ROUNDS=2 bash bench/results/s88/next_ab.sh
export PYTHONUNBUFFERED=1; ROUNDS=${ROUNDS:-2}; MODELS=${MODELS:-"efficientnet timm_efficientnet"}; start=$(date +%s)
{ nvidia-smi --query-gpu=name --format=csv,noheader; nproc; } > $OUT/machine.txt 2>&1
rm -rf /tmp/early && cp -r . /tmp/early && (cd /tmp/early && git apply bench/results/s88/plans_at_scheduling.patch)
run() {   # variant dir model
  local variant=$1 dir=$2 model=$3 d=$(mktemp -d)
  local row=$(cd $dir && KILN_CACHE_DIR=$d/k TORCHINDUCTOR_CACHE_DIR=$d/i TRITON_CACHE_DIR=$d/t PYTHONPATH=. \
    timeout 90 python3 scripts/gpu_compile_time.py --child --model $model --backend kiln --device cuda --train \
    < /dev/null 2>/dev/null | grep ROW | cut -c5-)
  echo "{\"variant\": \"$variant\", \"model\": \"$model\", \"at_s\": $(( $(date +%s) - start )), \"row\": ${row:-null}}" \
    >> $OUT/ab.jsonl
  rm -rf $d
}
for r in $(seq $ROUNDS); do for m in $MODELS; do run base . $m; run at_scheduling /tmp/early $m; done; done
python3 - $OUT/ab.jsonl <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
for key in dict.fromkeys((r["model"], r["variant"]) for r in rows):
    got = [r["row"] for r in rows if (r["model"], r["variant"]) == key and r["row"]]
    for stat in ("compile_s", "backend_s", "convolutions_planned_ahead"):
        xs = [g.get(stat, 0) for g in got]
        print(*key, stat, "median %.2f" % statistics.median(xs) if xs else "-", [round(x, 1) for x in xs])
PY
