# The buffer a gapped input is copied into has the input's strides, so it takes the input's whole span: the last
# position of each sequence of a fresh hidden state (h[:, -1], 8 x 256 floats, strides (512 * 256, 1)), passed to a
# graph at a new place per call.   usage: g8_gapped_buffer_span.py
import torch
from harness import *
from kiln.runtime import cuda_graphs
calls = []
init = cuda_graphs.GraphedCall.__init__
def keep(self, *a, **k):
    init(self, *a, **k); calls.append(self)
cuda_graphs.GraphedCall.__init__ = keep
setup(); torch.manual_seed(0)
w = torch.randn(256, 16)
def head(x): return torch.tanh(x @ w)
g = compiled(head)
with torch.no_grad():
    for t in range(6):
        h = torch.randn(8, 512, 256)
        x = h[:, -1]
        close(g(x), head(x))
recs = [r for c in calls for v in c.recordings.values() for r in (v if isinstance(v, list) else [v])]
held = sum(s.untyped_storage().nbytes() for r in recs for s in r.static)   # (the buffers its recordings copy into)
print(f"input {x.numel() * 4} bytes (span {cuda_graphs.span(x)}), buffers held {held} bytes", stats())
