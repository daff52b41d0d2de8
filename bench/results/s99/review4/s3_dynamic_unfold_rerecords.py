# dynamic=True, a fresh input at each call read by unfold / diagonal (ordinary view ops): recordings and replays, and
# whether the graph ends up running without a CUDA graph. Every result compared with eager. usage: s3_dynamic_unfold_rerecords.py
import logging, torch
from harness import *
w = torch.randn(3, 3)
cases = {"unfold": lambda x: (x.unfold(1, 3, 1) @ w).sum(-1), "unfold step 2": lambda x: x.unfold(1, 3, 2) * 2,
         "diagonal": lambda x: x.diagonal() * 2,
         "einsum ii->i": lambda x: torch.einsum("ii->i", x @ x.t()) + torch.einsum("ii->i", x[:, :x.shape[0]])}
class Count(logging.Handler):
    def __init__(self): super().__init__(); self.n = 0; self.msgs = []
    def emit(self, r): self.msgs.append(r.getMessage())
for name, f in cases.items():
    setup(); h = Count(); logging.getLogger("kiln.cudagraphs").addHandler(h)
    g = compiled(f, dynamic=True)
    kept = []
    with torch.no_grad():
        for t in range(100):
            x = torch.randn(8 + (t % 2), 12); kept.append(x)   # (kept: each call's input at a new place)
            close(g(x), f(x))
    logging.getLogger("kiln.cudagraphs").removeHandler(h)
    print(f"{name:14s} 100 calls over 2 shapes:", stats(), "| without graph:", any("without a CUDA graph" in m for m in h.msgs))
