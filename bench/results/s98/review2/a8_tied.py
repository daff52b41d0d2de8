# a layer module used at two call sites (tied parameters: layers 0 and 2 are the same module), training
import torch, copy
from harness import *
from common_layers import Layer
setup()
torch.manual_seed(0)
class T(torch.nn.Module):
    def __init__(s):
        super().__init__(); a, b = Layer(), Layer(); s.seq = torch.nn.ModuleList([a, b, a, b, a])
    def forward(s, x):
        for l in s.seq: x = l(x)
        return x
m = T(); ref = copy.deepcopy(m); g = compiled(m)
opt = torch.optim.Adam(m.parameters(), lr=1e-2); ropt = torch.optim.Adam(ref.parameters(), lr=1e-2)
outs = []
for step in range(30):
    opt.zero_grad(); ropt.zero_grad()
    x = torch.randn(8, 16)
    y = g(x); ry = ref(x); close(y, ry); outs.append((y.detach(), ry.detach()))
    y.square().mean().backward(); ry.square().mean().backward()
    for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
    opt.step(); ropt.step()
    if step % 10 == 9: print(step, stats())
for a, b in outs: close(a, b)
print("ok")
