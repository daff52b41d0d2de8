# freezing + reduce-overhead, frame layers, inference; results kept; then a parameter written in place
import torch, copy
from harness import *
from common_layers import M
setup()
torch.manual_seed(0)
m = M(4).eval()
g = kiln.compile(m, mode="reduce-overhead", options={"graph_cache": False, "freezing": True})
kept = []
with torch.no_grad():
    for t in range(30):
        x = torch.randn(8, 16)
        out = g(x); ref = m(x); close(out, ref); kept.append((out, ref))
        if t == 15:
            m.layers[2].lin.weight.mul_(0.5)   # a write to a frozen parameter
    for a, b in kept: close(a, b)
    print("ok", stats())
