# A slice of a value computed in one graph (t[2:], t = x * 2) read by the next graph (after a graph break) with an
# as_strided before the slice's first element (t's first rows): does the first graph store t whole, as eager's
# storage holds it? Default mode and reduce-overhead, fresh x at each call, results kept. Compared with eager.
import torch, kiln
from harness import *
def f(x):
    t = x * 2
    y = t[2:]
    torch._dynamo.graph_break()
    return y.as_strided((4, 4), (4, 1), 0) + 1
def f2(x):
    t = torch.tanh(x) * 2
    y = t[:, 1:3]   # gapped slice of an intermediate
    torch._dynamo.graph_break()
    return y.as_strided((4, 4), (4, 1), 0) * 3
def f3(x):   # a slice handed to the next graph, which reads past its end
    t = x + 1
    y = t[:4]
    torch._dynamo.graph_break()
    return y.as_strided((6, 4), (4, 1), 0) * 3
for name, fn in [("t[2:] read before", f), ("t[:, 1:3] read its gaps", f2), ("t[:4] read after its end", f3)]:
    for mode in ("default", "reduce-overhead"):
        setup(); bad = 0; kept = []
        g = kiln.compile(fn, mode=mode, options={"graph_cache": False})
        with torch.no_grad():
            for t in range(8):
                x = torch.randn(10, 4); kept.append(x)
                o, r = g(x), fn(x); kept.append((o, r))
                bad += not torch.allclose(o, r, atol=1e-5)
        later = sum(not torch.allclose(o, r, atol=1e-5) for o, r in kept[1::2])
        print(f"{name:26s} {mode:15s} wrong {bad}/8 kept wrong {later}", stats())
