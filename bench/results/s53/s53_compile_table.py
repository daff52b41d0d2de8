"""Session 53: issue 23's GPU rows from the shards of calls 1 and 2 (s53_c1.sh, s53_c2.sh) in one table; a model
run in both calls (Qwen2) counts as two rounds; ResNet-18 from call 3 (s53_c3.sh, GPU 1 alone, 16 cores). Also: warm starts, kiln's total against Inductor's, and the
backend's own part (Dynamo's call_user_compiler) of each.
    PYTHONPATH=. python3 bench/results/s53/s53_compile_table.py bench/results/s53/gpu_compile_time
"""
import glob
import json
import os
import sys
import types

sys.path.insert(0, "scripts")
from gpu_compile_time import median, overhead, write_table  # noqa: E402

folder = sys.argv[1]
rows = {}
for path in sorted(glob.glob(os.path.join(folder, "c*_*.json"))):
    for row in json.load(open(path))["rows"]:
        merged = rows.setdefault(row["model"], {"model": row["model"], "mode": row["mode"]})
        for key, runs in row.items():
            if isinstance(runs, list):
                merged.setdefault(key, []).extend(runs)
write_table(list(rows.values()), types.SimpleNamespace(out=folder, repeats=1))
print("\nwarm: kiln s / Inductor s (backend's own part kiln / Inductor)")
for r in rows.values():
    k, i = median(r, "kiln", "warm"), median(r, "inductor", "warm")
    print(f"{r['model']:13s} {k:.1f} / {i:.1f} ({median(r, 'kiln', 'warm', 'backend_s'):.2f} / "
          f"{median(r, 'inductor', 'warm', 'backend_s'):.2f}){'  kiln slower' if k > i else ''}")
