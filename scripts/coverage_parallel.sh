#!/bin/sh
# The OpInfo coverage sweep on a many-core machine: SHARDS workers at once, each a shard of op_db, for at
# most LIMIT seconds; run it again with the same arguments to resume (--resume skips finished samples).
#   scripts/coverage_parallel.sh BACKEND DTYPES MAX_SAMPLES [SHARDS] [LIMIT]
# e.g. scripts/coverage_parallel.sh kiln float32 0 16 540   (COVERAGE_OPS=a,b,... sweeps only those ops)
set -u
backend=$1 dtypes=$2 max=$3 shards=${4:-$(nproc)} limit=${5:-0}
out=${COVERAGE_OUT:-bench/coverage}
mkdir -p "$out/logs"
i=1
while [ "$i" -le "$shards" ]; do
    timeout "$limit" nice -n 10 python3 -m kiln.tools.coverage --backend "$backend" --dtypes "$dtypes" \
        --max-samples "$max" --shard "$i/$shards" --out "$out" --resume ${COVERAGE_OPS:+--ops "$COVERAGE_OPS"} \
        > "$out/logs/$backend-$i.log" 2>&1 &
    i=$((i + 1))
done
wait
python3 -m kiln.tools.coverage --summary-only --out "$out"
