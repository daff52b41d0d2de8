# Diagnosis of s14: per call, where the wrong value comes from. The first graph alone (its output y = a slice of t),
# then eager code reads y.as_strided before / after y. Baselines aot_eager and inductor; kiln default, reduce-overhead.
import sys, torch, kiln, logging
from harness import *
def g1(x):
    t = x * 2
    return t[2:]
def g3(x):
    t = x + 1
    return t[:4]
def g2(x):
    t = torch.tanh(x) * 2
    return t[:, 1:3]
reads = {"g1": lambda y: y.as_strided((4, 4), (4, 1), 0), "g3": lambda y: y.as_strided((6, 4), (4, 1), 0),
         "g2": lambda y: y.as_strided((4, 4), (4, 1), 0)}
comps = {"aot_eager": lambda f: torch.compile(f, backend="aot_eager"), "inductor": lambda f: torch.compile(f, backend="inductor"),
         "kiln default": lambda f: kiln.compile(f, options={"graph_cache": False}),
         "kiln reduce-overhead": lambda f: kiln.compile(f, mode="reduce-overhead", options={"graph_cache": False})}
for fname, fn in [("g1", g1), ("g2", g2), ("g3", g3)]:
    for cname, comp in comps.items():
        setup(); res = []; kept = []
        g = comp(fn)
        with torch.no_grad():
            for t in range(6):
                x = torch.randn(10, 4); kept.append(x)
                y = g(x); kept.append(y)
                ok = torch.allclose(reads[fname](y), reads[fname](fn(x)))
                res.append("ok" if ok else "WRONG")
        ys = y
        print(f"{fname} {cname:21s} {' '.join(res)}  y: offset {ys.storage_offset()} storage {ys.untyped_storage().nbytes()} B", stats())
