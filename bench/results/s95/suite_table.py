"""Issue 23's GPU table, each (model, mode, phase)'s latest row: the compile_time.json / rows.json files below in
order, a later file's row replacing an earlier one's. Cold: kiln's seconds above aot_eager's as a share of
Inductor's (target 1/3). Warm: first-call seconds, and each backend's own call (Dynamo's call_user_compiler).

    python3 bench/results/s95/suite_table.py > bench/results/s95/suite_table.md
"""
import glob
import json
import math
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["s89/gpu/*.json", "s91/c1/ct_*/compile_time.json", "s91/c1/shards/rows.json", "s91/c2/gpu/rows.json",
         "s91/c3/gpu/rows.json", "s93/gpu_c1/ct_*/compile_time.json", "s93/gpu_c2/gpu/rows.json",
         "s93/gpu_train/compile_time.json", "s95/c1/shards/rows.json", "s95/c1/ct_timm_deit/compile_time.json",
         "s95/c2/inference/rows.json", "s95/c2/train/rows.json", "s95/c3/ct_*/compile_time.json"]


def med(runs, key):
    values = [r[key] for r in runs if key in r]
    return statistics.median(values) if values else None


def main():
    latest = {}
    for pattern in FILES:
        for path in sorted(glob.glob(os.path.join(HERE, "..", pattern))):
            for row in json.load(open(path))["rows"]:
                for phase in ("cold", "warm"):
                    runs = {b: row.get(f"{b}_{phase}", []) for b in ("aot_eager", "inductor", "kiln")}
                    if all(med(r, "compile_s") is not None for r in runs.values()):
                        source = os.path.relpath(path, os.path.join(HERE, ".."))
                        latest[(row["model"], row["mode"], phase)] = (runs, source)
    print("| model | mode | cold aot_eager / Inductor / kiln s | overhead | warm aot_eager / Inductor / kiln s "
          "| warm backend call Inductor / kiln s | rows from |\n|---|---|---|---|---|---|---|")
    ratios, over = [], []
    for model, mode in sorted({k[:2] for k in latest}, key=lambda k: (k[1], k[0])):
        cells, sources = [], []
        for phase in ("cold", "warm"):
            runs, source = latest.get((model, mode, phase), (None, None))
            if runs is None:
                cells += ["-", "-"] if phase == "cold" else ["-", "-"]
                continue
            sources.append(source.split("/")[0])
            a, i, k = (med(runs[b], "compile_s") for b in ("aot_eager", "inductor", "kiln"))
            if phase == "cold":
                ratio = (k - a) / (i - a)
                ratios.append(ratio) if ratio > 0 else None
                cells += [f"{a:.1f} / {i:.1f} / {k:.1f}", f"{ratio:.2f}"]
            else:
                over += [f"{model} ({mode})"] if k > i else []
                cells += [f"{a:.1f} / {i:.1f} / {k:.1f}",
                          f"{med(runs['inductor'], 'backend_s'):.2f} / {med(runs['kiln'], 'backend_s'):.2f}"]
        print(f"| {model} | {mode} | " + " | ".join(cells) + f" | {', '.join(dict.fromkeys(sources))} |")
    print(f"\nCold, over the {len(ratios)} rows above aot_eager: geomean "
          f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}, worst {max(ratios):.2f}. "
          f"Warm, kiln's first call over Inductor's: {', '.join(over) or 'none'}.")


if __name__ == "__main__":
    main()
