# session 94: frames Dynamo compiles for 12 blocks of Linear with a graph break in each, frozen and not, with
# Inductor and kiln (each guards a frozen frame's parameters by identity: a frame per block, to the recompile limit).
#   PYTHONPATH=. python3 bench/results/s94/frozen_block_frames.py inductor|inductor_unfrozen|kiln|kiln_unfrozen
import torch, torch.nn as nn, sys, kiln
import torch._inductor.config as icfg
from torch._dynamo.utils import counters
class Block(nn.Module):
    def __init__(s):
        super().__init__(); s.l = nn.Linear(8, 8)
    def forward(s, x):
        x = s.l(x)
        torch._dynamo.graph_break()
        return x.relu()
class M(nn.Module):
    def __init__(s):
        super().__init__(); s.blocks = nn.ModuleList(Block() for _ in range(12))
    def forward(s, x):
        for b in s.blocks:
            x = b(x)
        return x
m = M().eval(); x = torch.randn(4, 8)
which = sys.argv[1]
if which == "inductor":
    icfg.freezing = True; f = torch.compile(m)
elif which == "inductor_unfrozen":
    f = torch.compile(m)
elif which == "kiln_unfrozen":
    f = kiln.compile(m)
else:
    f = kiln.compile(m, options={"freezing": True})
with torch.no_grad():
    y = f(x)
print(which, "frames compiled", counters["stats"]["unique_graphs"], dict(counters["recompiles"]) if "recompiles" in counters else "", torch.allclose(y, m(x)))
