"""Issue 19's max-autotune table: each (model, mode)'s latest row with both compilers in max-autotune, from every
row file under bench/results/s<N>/ (JSON files with "rows", and the `{"model": ...}` lines of text files), a later
session's row replacing an earlier one's (within a session, a later call's). The 54 rows of the suite: 27 models
in bf16 inference and in AMP-bf16 training.

    python3 bench/results/s98/ma_table.py > bench/results/s98/ma_table.md
"""
import glob
import json
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..")
KILN, INDUCTOR = "kiln@max-autotune", "inductor@max-autotune"
MODES = {"inference bfloat16": "bf16 inference", "train amp-bf16": "AMP-bf16 training"}


def rows_of(path):
    if path.endswith(".json"):
        try:
            data = json.load(open(path))
        except (json.JSONDecodeError, UnicodeDecodeError):
            return []   # (JSON lines, traces)
        return data.get("rows", []) if isinstance(data, dict) else []
    rows = []
    for line in open(path, errors="replace"):
        if line.startswith('{"model"'):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                pass   # (a line cut short by a call's limit)
    return rows


def order(path):
    """(session, call, path): where a row file sits in time."""
    rel = os.path.relpath(path, RESULTS)
    session = int(re.match(r"s(\d+)", rel).group(1))
    call = re.search(r"/c(\d+)/", "/" + rel)
    return session, int(call.group(1)) if call else 0, rel


def main():
    paths = [p for p in glob.glob(os.path.join(RESULTS, "s*", "**", "*"), recursive=True)
             if re.match(r"s\d+/", os.path.relpath(p, RESULTS)) and p.endswith((".json", ".txt"))]
    latest = {}
    for path in sorted(paths, key=order):
        for row in rows_of(path):
            if f"{KILN}_vs_inductor" in row and row.get("mode") in MODES:
                latest[(row["model"], row["mode"])] = (row, order(path))
    print("| model | mode | kiln / Inductor | ms kiln / Inductor / eager | tuning + compile s kiln / Inductor "
          "| accuracy kiln / Inductor | row from |\n|---|---|---|---|---|---|---|")
    ratios = []
    for (model, mode), (row, (session, call, rel)) in sorted(latest.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        ratio = row[f"{KILN}_vs_inductor"]
        ratios.append(ratio)
        ms = " / ".join(f"{row.get(k, float('nan')):.2f}" for k in (f"{KILN}_ms", f"{INDUCTOR}_ms", "eager_ms"))
        tune = " / ".join(f"{row.get(f'{b}_compile_s', float('nan')):.0f}" for b in (KILN, INDUCTOR))
        acc = " / ".join(str(row.get(f"{b}_accuracy")) for b in (KILN, INDUCTOR))
        print(f"| {model} | {MODES[mode]} | {ratio:.3f} | {ms} | {tune} | {acc} | {os.path.dirname(rel)} |")
    below = [f"{m} ({MODES[mode]}, {latest[(m, mode)][0][f'{KILN}_vs_inductor']:.3f})"
             for m, mode in latest if latest[(m, mode)][0][f"{KILN}_vs_inductor"] < 1.0]
    print(f"\n{len(ratios)} rows of 54: geomean {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}; "
          f"below 1.0: {', '.join(below) or 'none'}.")


if __name__ == "__main__":
    main()
