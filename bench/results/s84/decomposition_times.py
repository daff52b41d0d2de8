import sys, time, collections, torch
import kiln, kiln.decompositions as D
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
T = collections.Counter(); N = collections.Counter(); depth = [0]
table = D._tagged_table()
for op, fn in list(table.items()):
    def timed(*a, _fn=fn, _op=op, **k):
        depth[0] += 1
        s = time.perf_counter()
        try: return _fn(*a, **k)
        finally:
            depth[0] -= 1
            if depth[0] == 0: T[str(_op)] += time.perf_counter() - s; N[str(_op)] += 1
    table[op] = timed
model = sys.argv[1]; size = sys.argv[2] if len(sys.argv) > 2 else "quick"
w = workload(model)
m, x = w.make_module("cpu", torch.float32, size, True), w.make_inputs("cpu", torch.float32, size)
step = _make_step(_compile(m, "kiln"), x, True)
s = time.perf_counter(); step(); print("first call", time.perf_counter() - s)
print("total top-level decomp", sum(T.values()))
for k, v in T.most_common(15): print(f"{v:.3f} {N[k]:4d} {k}")
