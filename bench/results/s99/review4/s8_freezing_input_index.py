# Freezing (options freezing=True) in inference with reduce-overhead: parameters come first among the graph's
# inputs and become constants; the user input after them, at a new place each call, is read by an as_strided
# before its first element. Is the right input index read in place (Artifact.read_in_storage)? Compared with eager.
import torch, kiln
from harness import *
from kiln.runtime import cuda_graphs
seen = []
_g = cuda_graphs.graphing
def graphing(*a, **k):
    seen.append(a[5:] + tuple(k.items())); return _g(*a, **k)
import kiln.capture; kiln.capture.cuda_graphs.graphing = graphing
lin = torch.nn.Linear(4, 4); lin2 = torch.nn.Linear(4, 4)
def model(x): return lin2(torch.tanh(lin(x.as_strided((4, 4), (4, 1), 0))))
for freezing in (True, False):
    setup(); seen.clear(); bad = 0; kept = []
    g = kiln.compile(model, mode="reduce-overhead", options={"graph_cache": False, "freezing": freezing})
    with torch.no_grad():
        for t in range(8):
            x = torch.randn(10, 4)[2:]; kept.append(x)
            o, r = g(x), model(x)
            if not torch.allclose(o, r, atol=1e-5): bad += 1
    print(f"freezing={freezing}: wrong {bad}/8", stats(), "graphing(saved_from, placed, read_in_storage):", seen)
