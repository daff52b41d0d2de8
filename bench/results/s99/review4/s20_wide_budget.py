# A wide gapped input (h[:, -1] of a fresh h of 4x512x256 fp32: 4 KiB of elements over a 1.5 MiB span), at a new place
# at every call (h kept), 60 calls: recordings, replays and whether the graph ends up without a CUDA graph. The
# commit reads it in place (recorded again where it moves); the parent copies it into a buffer of its span.
import logging, torch
from harness import *
warned = []
class H(logging.Handler):
    def emit(self, r):
        if "without a CUDA graph" in r.getMessage(): warned.append(r.getMessage()[:200])
logging.getLogger("kiln.cudagraphs").addHandler(H())
setup(1 << 27)
W = torch.randn(256, 256) / 16
f = lambda x: torch.tanh(x @ W)
g, kept = compiled(f), []
with torch.no_grad():
    for t in range(60):
        h = torch.randn(4, 512, 256); kept.append(h)
        close(g(h[:, -1]), f(h[:, -1]))
print("60 calls:", stats(), "| without a CUDA graph:", warned)
