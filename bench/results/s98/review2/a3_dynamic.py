# dynamic=True, several shapes, each with 4 call sites (frame layers), training, grads vs eager
import torch, copy
from harness import *
from common_layers import M
setup()
torch.manual_seed(0)
m = M(4); ref = copy.deepcopy(m)
g = compiled(m, dynamic=True)
hist = []
for step in range(40):
    for p in [*m.parameters(), *ref.parameters()]: p.grad = None
    b = [4, 8, 12][step % 3]
    x = torch.randn(b, 16)
    y = g(x); ry = ref(x)
    close(y, ry)
    y.sum().backward(); ry.sum().backward()
    for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
    if step % 10 == 9: print(step, stats())
print("ok")
