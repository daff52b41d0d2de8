# gradient accumulation: two forwards over frame layers, then one backward of their sum
import torch, copy
from harness import *
from common_layers import M
setup()
torch.manual_seed(0)
m = M(4); ref = copy.deepcopy(m); g = compiled(m)
for step in range(40):
    for p in [*m.parameters(), *ref.parameters()]: p.grad = None
    x1, x2 = torch.randn(8, 16), torch.randn(8, 16)
    l = g(x1).sum() + g(x2).square().sum(); rl = ref(x1).sum() + ref(x2).square().sum()
    close(l, rl); l.backward(); rl.backward()
    for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
    if step % 10 == 9: print(step, stats())
print("ok")
