# A gapped slice of one graph's output (handed out by its recording) fed to a second graph that mutates it in place
# (y = g1(x); z = g2(y[:, :8])), with y kept on every third step and all results kept to the end; then the same in
# training through frame layers whose input is a gapped slice of a kept batch, mutated by the first layer.
import torch
from harness import *
setup(); torch.manual_seed(0)
w1, w2 = torch.randn(16, 16) * 0.3, torch.randn(8, 8) * 0.3
def f(x, w1=w1, w2=w2):
    y = torch.tanh(x @ w1)
    torch._dynamo.graph_break()
    s = y[:, :8]
    s.mul_(2)
    z = torch.tanh(s @ w2) + s
    return y, z
g, kept = compiled(f), []
with torch.no_grad():
    for t in range(40):
        x = torch.randn(8, 16)
        (y, z), (ry, rz) = g(x), f(x)
        close(y, ry); close(z, rz)
        if t % 3 == 0: kept.append((y, z, ry, rz))
        else: kept.append((z, rz))
    for k in kept:
        for a, b in zip(k[:len(k) // 2], k[len(k) // 2:]): close(a, b)
print("handed slice, mutated: ok", stats())

import copy
class L(torch.nn.Module):
    def __init__(s, first): super().__init__(); s.lin = torch.nn.Linear(16, 16); s.first = first
    def forward(s, x):
        if s.first: x.mul_(0.5)   # (in place on the step's gapped input)
        y = torch.tanh(s.lin(x)) + x
        torch._dynamo.graph_break()
        return y * 0.5
class M(torch.nn.Module):
    def __init__(s): super().__init__(); s.ls = torch.nn.ModuleList([L(True)] + [L(False) for _ in range(3)])
    def forward(s, x):
        for l in s.ls: x = l(x)
        return x
setup(); torch.manual_seed(0)
m = M(); ref = copy.deepcopy(m); g = compiled(m)
batches, kept = [], []
for step in range(16):
    for p in [*m.parameters(), *ref.parameters()]: p.grad = None
    b = torch.randn(8, 32); rb = b.clone(); batches.append((b, rb))
    x, rx = b[:, 3:19], rb[:, 3:19]   # gapped, at an offset; not a leaf needing grad, so in-place is allowed
    out = g(x); rout = ref(rx)
    out.sum().backward(); rout.sum().backward()
    close(out, rout); close(b, rb)
    for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
    kept.append((out.detach(), rout.detach()))
for o, r in kept: close(o, r)
for b, rb in batches: close(b, rb)
print("training, gapped input mutated by layer 0: ok", stats())
