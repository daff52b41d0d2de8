# Which kiln graph (GraphedCall) each call reaches, with its shape key and the mask's strides, where an input of
# one shape changes strides between calls: expanded (0, 1), dense (8, 1), expanded (1, 0); automatic dynamic
# (dynamic=None) and dynamic=True. A graph that sees two stride patterns under one key would copy the new one by the
# recorded pattern's distinct sizes.   usage: s11_stride_keys.py
import torch
from harness import *
from kiln.runtime import cuda_graphs
seen = {}
_r = cuda_graphs.GraphedCall.replayed_or_recorded
def spy(self, args):
    key = tuple(args[i] if not isinstance(args[i], torch.Tensor) else tuple(args[i].shape) for i in self.key_inputs)
    pats = tuple(a.stride() for a in args if isinstance(a, torch.Tensor) and 0 in a.stride() or isinstance(a, torch.Tensor) and a.shape == (8, 8) and a.stride() == (8, 1) and False)
    seen.setdefault((id(self), self.name, key), set()).add(tuple(tuple(a.stride()) for a in args if isinstance(a, torch.Tensor)))
    return _r(self, args)
cuda_graphs.GraphedCall.replayed_or_recorded = spy
w = torch.randn(8, 8)
def f(x, m): return torch.tanh(x @ w) * m + x
mk = {"row": lambda: torch.randn(8).expand(8, 8), "dense": lambda: torch.randn(8, 8), "col": lambda: torch.randn(8, 1).expand(8, 8)}
for dyn in (None, True):
    for order in (["row", "dense"], ["row", "dense", "col"], ["dense", "row", "col"]):
        setup(); seen.clear(); bad = 0
        g = compiled(f, dynamic=dyn)
        with torch.no_grad():
            for t in range(18):
                x, m = torch.randn(8, 8), mk[order[t % len(order)]]()
                bad += not torch.allclose(g(x, m), f(x, m), atol=1e-5)
        multi = {k: v for k, v in seen.items() if len(v) > 1}
        print(f"dynamic={dyn} {order}: wrong {bad}/18, graphs {len(seen)}, graphs seeing several stride patterns under one key: {[(k[1], k[2], sorted(v)) for k, v in multi.items()]}")
