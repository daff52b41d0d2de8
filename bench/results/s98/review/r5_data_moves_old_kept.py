# A parameter whose .data is set anew at each call while the old tensor stays alive (kept in a list here; also a
# snapshot/EMA history, or an autograd graph still holding it). Its position no longer fits and is not "gone"
# (its storage lives), so `replaced` never takes it and the parameter is never switched to copying: a new
# position per call, until the shape's 64 recordings are spent; then every call runs without a CUDA graph.
# Parent (3458bff^): recorded again twice, then the parameter is copied and every call replays.
import torch
from harness import *
setup()
torch.manual_seed(0)
lin = torch.nn.Linear(16, 16)
def f(x): return torch.tanh(lin(x))
g = compiled(f)
history = []
with torch.no_grad():
    for t in range(120):
        history.append(lin.weight.data)
        lin.weight.data = lin.weight.data * 0.99
        x = torch.randn(8, 16)
        close(g(x), f(x))
        if t % 20 == 19: print(t, stats())
