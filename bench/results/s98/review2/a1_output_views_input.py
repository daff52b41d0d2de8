# graph outputs that view inputs, called at several sites (layers), results held across calls
import torch
from harness import *
setup()
torch.manual_seed(0)
class L(torch.nn.Module):
    def __init__(s): super().__init__(); s.lin = torch.nn.Linear(16, 16)
    def forward(s, x):
        y = torch.tanh(s.lin(x)) + x
        v = x.t()            # a view of the input
        torch._dynamo.graph_break()
        return y * 0.5, v
class M(torch.nn.Module):
    def __init__(s): super().__init__(); s.ls = torch.nn.ModuleList(L() for _ in range(4))
    def forward(s, x):
        vs = []
        for l in s.ls:
            x, v = l(x); vs.append(v)
        return x, vs
m = M(); g = compiled(m)
held = []
with torch.no_grad():
    for t in range(60):
        x = torch.randn(8, 16)
        out, vs = g(x); ro, rvs = m(x)
        close(out, ro); [close(a, b) for a, b in zip(vs, rvs)]
        held.append((out, vs, ro, rvs))
        if t % 10 == 9: print(t, stats())
    for out, vs, ro, rvs in held:
        close(out, ro); [close(a, b) for a, b in zip(vs, rvs)]
print("ok", stats())
