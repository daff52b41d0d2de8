import collections
import time, torch
from torch.fx.experimental.proxy_tensor import make_fx
import kiln.decompositions as D
aten = torch.ops.aten
table = dict(D._table())
def f(ws):
    return [w.t() for w in ws] + [w.transpose(0, 1) for w in ws]
ws = [torch.randn(8, 4) for _ in range(200)]
def direct_t(a):
    return aten.permute.default(a, [1, 0]) if a.dim() == 2 else aten.alias.default(a)
def direct_transpose(a, d0, d1):
    perm = list(range(a.dim()))
    if perm:
        d0, d1 = d0 % a.dim(), d1 % a.dim(); perm[d0], perm[d1] = perm[d1], perm[d0]
    return aten.permute.default(a, perm)
for name, tab in [("refs", table), ("direct", {**table, aten.t.default: direct_t, aten.transpose.int: direct_transpose}), ("refs", table), ("direct", {**table, aten.t.default: direct_t, aten.transpose.int: direct_transpose})]:
    s = time.perf_counter(); gm = make_fx(f, decomposition_table=tab, tracing_mode="fake")(ws); 
    print(name, round(time.perf_counter() - s, 3), collections.Counter(n.target for n in gm.graph.nodes if n.op == "call_function") if False else len(gm.graph.nodes))
print(gm.graph.nodes.__iter__().__next__())
