# dynamic=True, gapped inputs whose width (and so stride) changes, three shapes in turn, mutated in place by the
# graph; every result kept to the end and every base compared with eager.   usage: g10_dynamic_gapped.py
import torch
from harness import *
setup(); torch.manual_seed(0)
def f(x):
    x.mul_(2)
    return torch.tanh(x).sum(-1) + x[:, 0]
g, kept = compiled(f, dynamic=True), []
for t in range(30):
    n = (3, 4, 5)[t % 3]
    b = torch.randn(8, 2 * n + 1); rb = b.clone()
    out, ref = g(b[:, 1:n + 1]), f(rb[:, 1:n + 1])
    close(out, ref); close(b, rb); kept.append((out, ref))
for o, r in kept: close(o, r)
print("ok", stats())
