#!/bin/bash
# session 49, call 6 (one H200; kiln_copy ran against a version since reverted, bench/NOTES.md 71; the script
# no longer has that variant): where handing out the graph's memory should show, a GPU-bound reduce-overhead
# training step (GPT-2 fp32, forward and backward recorded; its forward's outputs include the saved activations,
# which kiln_copy copies at every call), kiln / kiln_copy / kiln_pycheck / Inductor in one process; then BART's
# reduce-overhead rows (not reached in call 5). Call 6a: the training step failed (a module without its loss), BART batch 1
# measured; call 6b: the training step alone (its backward graphs failed to record: an input with gaps); call 6c:
# the same after inputs with gaps are read in place.
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R
{ nvidia-smi --query-gpu=name --format=csv,noheader; uptime; } > $R/machine.txt 2>&1
timeout 170 python3 scripts/gpu_ro_host.py --out $R/train --train --calls 40 --rows ${TRAIN:-gpt2:2} > $R/train.log 2>&1
uptime >> $R/machine.txt
python3 - $R <<'PY'
import json, sys
r = sys.argv[1]
try:
    for row in json.load(open(f"{r}/train/ro_host.json"))["rows"]:
        print(row["model"], row["batch"], {k: round(v, 1) for k, v in row.items() if k.endswith("wall_us_per_call") or k.endswith("_vs_inductor_wall")})
        print({k: row[k]["gpu_busy_us_per_call"] for k in row if k.endswith("gpu_side") and isinstance(row[k], dict)})
except Exception as e:
    print("train:", e)
for row in (json.load(open(f"{r}/ro/modes_reduce_overhead.json"))["rows"] if __import__("os").path.exists(f"{r}/ro") else []):
    print(row["model"], row["batch"], {k: round(row[k], 3) for k in ("kiln_ro_ms", "inductor_ro_ms", "kiln_ro_vs_inductor_ro") if k in row}, row.get("kiln_ro_accuracy"), row.get("inductor_ro_accuracy"), row.get("error", ""))
PY
tail -5 $R/train.log | cut -c1-400
