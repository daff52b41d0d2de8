# One compiled graph called with an input of one shape whose strides change between calls: expanded along dim 0,
# dense, expanded along dim 1. Every result (kept to the end) compared with eager. usage: s1_expanded_strides_change.py
import sys, torch
from harness import *
w = torch.randn(8, 8)
def f(x, m): return torch.tanh(x @ w) * m + x
def mk(kind):
    if kind == "row": return torch.randn(8).expand(8, 8)        # strides (0, 1)
    if kind == "col": return torch.randn(8, 1).expand(8, 8)     # strides (1, 0)
    if kind == "all": return torch.randn(()).expand(8, 8)       # strides (0, 0)
    return torch.randn(8, 8)                                     # dense
for dyn in (None, False, True):
    for order in (["row", "dense"], ["row", "col"], ["dense", "row"], ["col", "all", "row", "dense"]):
        setup(); torch.manual_seed(0)
        g, bad, kept = compiled(f, dynamic=dyn), 0, []
        with torch.no_grad():
            for t in range(12):
                kind = order[(t // 3) % len(order)]
                x, m = torch.randn(8, 8), mk(kind)
                out, ref = g(x, m), f(x, m)
                kept.append((out, ref, kind, t))
                if not torch.allclose(out, ref, atol=1e-5): bad += 1; print(f"  dyn={dyn} {order} call {t} ({kind}) WRONG max|d|={(out-ref).abs().max():.3g}")
        later = sum(not torch.allclose(o, r, atol=1e-5) for o, r, _, _ in kept)
        print(f"dynamic={dyn} {order}: wrong {bad}/12, kept wrong {later}", stats(), "frames", torch._dynamo.utils.counters["stats"]["unique_graphs"])
