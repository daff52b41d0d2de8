# A state fed back through two compiled graphs (h = g2(g1(h)), as a loop body split by a graph break) records a new
# position at every call and never replays one; after 64 recordings per graph, calls run without a CUDA graph.
# Parent (3458bff^): 2-3 recordings per graph, replayed from then on.
import torch
from harness import *
setup()
w = torch.randn(16, 16) * 0.3
def step(h):
    h = torch.tanh(h @ w)
    torch._dynamo.graph_break()
    return h * 0.9 + 1
g = compiled(step)
h = torch.randn(8, 16); rh = h.clone()
with torch.no_grad():
    for t in range(100):
        h = g(h); rh = step(rh)
        close(h, rh)
        if t % 20 == 19: print(t, stats())
