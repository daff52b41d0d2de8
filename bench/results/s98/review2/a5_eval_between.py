# training steps over frame layers, a torch.no_grad evaluation between them (results kept), grads vs eager
import torch, copy, sys
from harness import *
from common_layers import M
setup()
torch.manual_seed(0)
m = M(4); ref = copy.deepcopy(m)
g = compiled(m)
opt = torch.optim.SGD(m.parameters(), lr=0.05); ropt = torch.optim.SGD(ref.parameters(), lr=0.05)
evals, losses = [], []
for step in range(40):
    opt.zero_grad(); ropt.zero_grad()
    x = torch.randn(8, 16)
    l = g(x).square().mean(); rl = ref(x).square().mean()
    l.backward(); rl.backward()
    losses.append((l.detach(), rl.detach()))
    for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
    opt.step(); ropt.step()
    with torch.no_grad():
        xe = torch.randn(8, 16)
        e, re = g(xe), ref(xe)
        close(e, re); evals.append((e, re))
    if step % 10 == 9: print(step, stats())
for a, b in evals + losses: close(a, b)
print("ok")
