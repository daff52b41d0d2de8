# One compiled graph at two call sites used at different rates: model A every call, model B (same class) every
# `every`-th call (a teacher/EMA model, an eval model). Inference. B's position is dropped while A's replay
# ("not replayed while every other one was, twice over") and recorded again at each use of B, until the shape's
# 64 recordings are spent; from then on B's calls run without a CUDA graph. Parent: one recording per graph is
# recorded again at each switch too, until its 8 recordings are spent.
import sys, torch
from harness import *
setup()
torch.manual_seed(0)
a, b = torch.nn.Linear(16, 16), torch.nn.Linear(16, 16)
def f(m, x): return torch.tanh(m(x))
g = compiled(f)
every = int(sys.argv[1]) if len(sys.argv) > 1 else 4
with torch.no_grad():
    for t in range(int(sys.argv[2]) if len(sys.argv) > 2 else 400):
        m = b if t % every == 0 else a
        x = torch.randn(8, 16)
        close(g(m, x), f(m, x))
        if t % 200 == 199: print(t, stats())
