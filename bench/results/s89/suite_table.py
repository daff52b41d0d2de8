"""Merge the per-model JSONs of suite_shards.py (or any gpu_compile_time.py outputs) into one table, with the
geomean and the worst of kiln's cold and warm overhead over Inductor's (scripts/gpu_compile_time.write_table):

    PYTHONPATH=. python3 bench/results/s89/suite_table.py OUT_DIR JSON...
"""
import json
import sys
import types

sys.path.insert(0, "scripts")
from gpu_compile_time import write_table  # noqa: E402

rows = [row for path in sys.argv[2:] for row in json.load(open(path))["rows"]]
write_table(rows, types.SimpleNamespace(out=sys.argv[1], repeats=1))
