# A parameter the graph writes in place (placed: read in place) and a second input viewing the same parameter, at
# alternating places (so copied into a buffer); eager reads the view after the write.   usage: g6_alias_param.py
import torch
from harness import *
setup(); torch.manual_seed(0)
lin = torch.nn.Linear(8, 8)
def f(x, v):
    lin.weight.add_(0.1)
    return lin(x) + v.sum()
g = compiled(f)
ref = torch.nn.Linear(8, 8); ref.load_state_dict(lin.state_dict())
def fr(x, v):
    ref.weight.add_(0.1)
    return ref(x) + v.sum()
with torch.no_grad():
    for t in range(12):
        x = torch.randn(4, 8)
        sl = slice(0, 2) if t % 2 else slice(3, 6, 2)
        out, rout = g(x, lin.weight[sl]), fr(x, ref.weight[sl])
        close(out, rout); close(lin.weight, ref.weight)
print("ok", stats())
