# frame layers with BatchNorm (buffers mutated by the graph, placed) and an optimizer step in between
import torch, copy
from harness import *
setup()
torch.manual_seed(0)
class L(torch.nn.Module):
    def __init__(s): super().__init__(); s.lin = torch.nn.Linear(16, 16); s.bn = torch.nn.BatchNorm1d(16)
    def forward(s, x):
        y = torch.tanh(s.bn(s.lin(x))) + x
        torch._dynamo.graph_break()
        return y * 0.5
m = torch.nn.Sequential(*[L() for _ in range(4)]); ref = copy.deepcopy(m)
g = compiled(m)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9); ropt = torch.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
for step in range(30):
    opt.zero_grad(); ropt.zero_grad()
    x = torch.randn(8, 16)
    l = g(x).square().mean(); rl = ref(x).square().mean()
    close(l, rl)
    l.backward(); rl.backward()
    opt.step(); ropt.step()
    for (n, p), q in zip(m.state_dict().items(), ref.state_dict().values()): close(p, q, msg=lambda s: f"{n} at {step}: {s}")
    if step % 10 == 9: print(step, stats())
print("ok")
