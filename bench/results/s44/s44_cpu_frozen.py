"""kiln frozen against Inductor frozen on the 2-core CPU (quick sizes, float32), two variants in one process,
alternating rounds of CALLS calls (session 44, issue 19).

    PYTHONPATH=. python3 bench/results/s44/s44_cpu_frozen.py MODEL kiln_frozen,inductor_frozen   # either order
"""
import torch, kiln, copy, time, statistics, sys, os
import torch._inductor.config as icfg
from kiln.tools.workloads import workload
from kiln.tools.bench import _own_recompile_budget
name = sys.argv[1]; which = sys.argv[2].split(",")
w = workload(name)
m = w.make_module("cpu", torch.float32, "quick", False).eval(); x = w.make_inputs("cpu", torch.float32, "quick")
fns = {}
for i, k in enumerate(which):
    _own_recompile_budget(i)
    if k == "eager": fns[k] = m
    elif k.startswith("inductor"):
        icfg.freezing = k.endswith("frozen"); fns[k] = torch.compile(copy.deepcopy(m))
        with torch.no_grad(): fns[k](*x)
        icfg.freezing = False
    else: fns[k] = kiln.compile(copy.deepcopy(m), options={"freezing": k.endswith("frozen")})
n = int(os.environ.get("CALLS", 20))
with torch.no_grad():
    for f in fns.values():
        for _ in range(3): f(*x)
    t = {k: [] for k in fns}
    for r in range(int(os.environ.get("ROUNDS", 15))):
        for k, f in (fns.items() if r % 2 else reversed(list(fns.items()))):
            t0 = time.perf_counter()
            for _ in range(n): f(*x)
            t[k].append((time.perf_counter() - t0) / n * 1e3)
med = {k: statistics.median(v) for k, v in t.items()}
print(name, {k: round(v, 3) for k, v in med.items()}, flush=True)
