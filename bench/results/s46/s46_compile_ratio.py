"""Issue 23's ratio from a `kiln bench` results.json with aot_eager, inductor and kiln rows: kiln's compile time above
aot_eager's over Inductor's above aot_eager's, cold and warm; and speed kiln / Inductor."""
import json, math, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"] if isinstance(d, dict) and "rows" in d else d
by = {}
for r in rows:
    by.setdefault(r["workload"], {})[r["backend"]] = r
def g(xs): xs = [x for x in xs if x and x > 0]; return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
out = {"cold": [], "warm": [], "speed": []}
print("| model | aot_eager cold / warm s | Inductor | kiln | cold ratio | warm ratio | kiln / Inductor speed |")
print("|---|---|---|---|---|---|---|")
for m, b in by.items():
    a, i, k = b.get("aot_eager"), b.get("inductor"), b.get("kiln")
    if not (a and i and k) or not all(x.get("ok") for x in (a, i, k)):
        print(f"| {m} | a row failed (see results.md) |"); continue
    cells = []
    for key, col in (("cold", "compile_cold_s"), ("warm", "compile_warm_s")):
        ka, ia = k[col] - a[col], i[col] - a[col]
        r = ka / ia if ia > 0 else float("nan")
        out[key].append((m, r, ka, ia))
        cells.append(f"{r:.2f}" if ia > 0 else f"n/a (Inductor {ia:+.2f} s)")
    sp = k["speedup"] / i["speedup"]; out["speed"].append(sp)   # (paired speedups over eager); out["speed"].append(sp)
    print(f"| {m} | {a['compile_cold_s']:.2f} / {a['compile_warm_s']:.2f} | {i['compile_cold_s']:.2f} / {i['compile_warm_s']:.2f} | {k['compile_cold_s']:.2f} / {k['compile_warm_s']:.2f} | {cells[0]} | {cells[1]} | {sp:.3f} |")
for key in ("cold", "warm"):
    rs = [r for r in out[key] if r[3] > 0]
    pos = [max(r[1], 1e-3) for r in rs]
    worst = max(rs, key=lambda r: r[1]) if rs else None
    print(f"{key}: geomean ratio {g(pos):.3f} over {len(rs)} rows (ratios at or below 0 floored at 0.001), worst {worst[0]} {worst[1]:.2f}" if rs else f"{key}: no ratio: Inductor's start is at or below aot_eager's on every row")
    print(f"{key}: kiln above aot_eager by at most {max(r[2] for r in out[key]):.2f} s; kiln slower than Inductor on {[r[0] for r in out[key] if r[2] > r[3]]}")
print(f"speed geomean kiln / Inductor {g(out['speed']):.3f}, lowest {min(out['speed']):.3f}")
