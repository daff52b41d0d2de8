# Expanded (stride-0) inputs at a fresh place per call: read in place, recorded again where they move. Every
# result, kept across calls, compared with eager.   usage: g3_expanded.py
import torch
from h99 import *
w = torch.randn(4, 4)
def run(name, f, make, calls=8):
    setup(); torch.manual_seed(0)
    g, kept = compiled(f), []
    for t in range(calls):
        args = make(t)
        out, ref = g(*args), f(*args)
        close(out, ref); kept.append((out, ref))
    for o, r in kept: close(o, r)
    print(f"{name:36s} ok", stats())
run("expanded row, fresh", lambda x: torch.tanh(x @ w) + x, lambda t: (torch.randn(1, 4).expand(8, 4),))
v = torch.randn(1, 4)
run("expanded row, same base, mutated base", lambda x: torch.tanh(x @ w) + x,
    lambda t: (v.add_(1).expand(8, 4),))
run("expanded col + dense", lambda x, y: x * y + 1, lambda t: (torch.randn(8, 1).expand(8, 4), torch.randn(8, 4)))
run("expanded, two alternating bases", lambda x: x * 2 + 1,
    lambda t: ((v if t % 2 else w[:1]).expand(8, 4),))
