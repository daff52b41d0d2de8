"""Issue 23's GPU table, each (model, mode, phase)'s latest row: the compile_time.json / rows.json files below in
order, a later file's row replacing an earlier one's. Cold: kiln's seconds above aot_eager's as a share of
Inductor's (target 1/3). Warm: first-call seconds, and each backend's own call (Dynamo's call_user_compiler).

    python3 bench/results/s95/suite_table.py > bench/results/s95/suite_table.md
"""
import glob
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
from gpu_compile_time import median, overhead   # noqa: E402

FILES = ["s89/gpu/*.json", "s91/c1/ct_*/compile_time.json", "s91/c1/shards/rows.json", "s91/c2/gpu/rows.json",
         "s91/c3/gpu/rows.json", "s93/gpu_c1/ct_*/compile_time.json", "s93/gpu_c2/gpu/rows.json",
         "s93/gpu_train/compile_time.json", "s95/c1/shards/rows.json", "s95/c1/ct_timm_deit/compile_time.json",
         "s95/c2/inference/rows.json", "s95/c2/train/rows.json", "s95/c3/ct_*/compile_time.json",
         "s97/c1/ct_*/compile_time.json", "s97/c2/warm/rows.json"]
BACKENDS = ("aot_eager", "inductor", "kiln")


def main():
    latest = {}   # (model, mode, phase) -> (the row measuring that phase, its session)
    for pattern in FILES:
        for path in sorted(glob.glob(os.path.join(HERE, "..", pattern))):
            for row in json.load(open(path))["rows"]:
                for phase in ("cold", "warm"):
                    if all(median(row, b, phase) is not None for b in BACKENDS):
                        session = os.path.relpath(path, os.path.join(HERE, "..")).split("/")[0]
                        latest[(row["model"], row["mode"], phase)] = (row, session)
    print("| model | mode | cold aot_eager / Inductor / kiln s | overhead | warm aot_eager / Inductor / kiln s "
          "| warm backend call Inductor / kiln s | rows from |\n|---|---|---|---|---|---|---|")
    ratios, over = [], []
    for model, mode in sorted({k[:2] for k in latest}, key=lambda k: (k[1], k[0])):
        cells, sessions = [], []
        for phase in ("cold", "warm"):
            if (model, mode, phase) not in latest:
                cells += ["-", "-"]
                continue
            row, session = latest[(model, mode, phase)]
            sessions.append(session)
            seconds = " / ".join(f"{median(row, b, phase):.1f}" for b in BACKENDS)
            if phase == "cold":
                ratio = overhead(row, "kiln", phase) / overhead(row, "inductor", phase)
                if ratio > 0:
                    ratios.append(ratio)
                cells += [seconds, f"{ratio:.2f}"]
            else:
                if median(row, "kiln", phase) > median(row, "inductor", phase):
                    over.append(f"{model} ({mode})")
                cells += [seconds, " / ".join(f"{median(row, b, phase, 'backend_s'):.2f}" for b in BACKENDS[1:])]
        print(f"| {model} | {mode} | " + " | ".join(cells) + f" | {', '.join(dict.fromkeys(sessions))} |")
    print(f"\nCold, over the {len(ratios)} rows above aot_eager: geomean "
          f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}, worst {max(ratios):.2f}. "
          f"Warm, kiln's first call over Inductor's: {', '.join(over) or 'none'}.")


if __name__ == "__main__":
    main()
