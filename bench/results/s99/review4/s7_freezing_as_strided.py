# Freezing (options freezing=True), inference: layers whose parameter is a view at an offset of a larger tensor,
# read by an as_strided before the view (the storage around it), several layers through one graph (frame layers),
# default and reduce-overhead; a parameter whose storage around it is written between calls. Compared with eager.
import sys, torch, kiln
from harness import *
class L(torch.nn.Module):
    def __init__(s, seed):
        super().__init__(); g = torch.Generator().manual_seed(seed)
        s.p = torch.nn.Parameter(torch.randn(10, 4, generator=g)[2:], requires_grad=False)
    def forward(s, x):
        y = s.p.as_strided((4, 4), (4, 1), 0) @ x + s.p[:4]
        torch._dynamo.graph_break()   # (each layer's call a frame of its own: one graph for every layer)
        return y
layers = [L(i) for i in range(3)]
def model(x):
    for l in layers: x = torch.tanh(l(x))
    return x
for mode in ("default", "reduce-overhead"):
    setup(); bad = 0
    g = kiln.compile(model, mode=mode, options={"graph_cache": False, "freezing": True})
    with torch.no_grad():
        for t in range(8):
            if t == 4:   # the storage before layer 0's parameter written
                layers[0].p.untyped_storage()  # noqa
                torch.empty(0).set_(layers[0].p.untyped_storage())[:8].fill_(0.5)
            x = torch.randn(4, 4)
            o, r = g(x), model(x)
            if not torch.allclose(o, r, atol=1e-5): bad += 1; print(f"  {mode} call {t} WRONG max|d| {(o - r).abs().max():.3g}")
    print(f"freezing {mode}: wrong {bad}/8", stats())
