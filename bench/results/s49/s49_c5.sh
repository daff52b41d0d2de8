#!/bin/bash
# session 49, call 5 (one H200; kiln_copy ran against a version since reverted, bench/NOTES.md 71; the script
# no longer has that variant): the A/B of session 49's two reduce-overhead changes (gpu_ro_host.py: kiln, kiln
# copying its outputs out, kiln checking input addresses in Python, Inductor; in one process), then issue 19's
# rows for the other transformers at this code (gpu_modes.py, the GPU checks already run in call 4).
export PYTHONPATH=. PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R
{ nvidia-smi --query-gpu=name --format=csv,noheader; uptime;
  python3 -c "import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__)"; } > $R/machine.txt 2>&1
timeout 170 python3 scripts/gpu_ro_host.py --out $R/host --rows ${HOST:-llama:1,gpt2:2} > $R/host.log 2>&1
timeout 400 python3 scripts/gpu_modes.py --out $R/ro --skip-checks --models ${RO:-bert,distilbert,roberta,t5,bart} \
   --batches 1,2 --budget-s 330 > $R/ro.log 2>&1
uptime >> $R/machine.txt
python3 - $R <<'PY'
import json, sys
r = sys.argv[1]
for row in json.load(open(f"{r}/host/ro_host.json"))["rows"]:
    print(row["model"], row["batch"], {k: round(v, 1) for k, v in row.items() if k.endswith("wall_us_per_call") or k.endswith("_vs_inductor_wall") or k.endswith("gpu_us_median")})
for row in json.load(open(f"{r}/ro/modes_reduce_overhead.json"))["rows"]:
    print(row["model"], row["batch"], {k: round(row[k], 3) for k in ("kiln_ro_ms", "inductor_ro_ms", "kiln_ro_vs_inductor_ro") if k in row}, row.get("kiln_ro_accuracy"), row.get("inductor_ro_accuracy"), row.get("error", ""))
PY
