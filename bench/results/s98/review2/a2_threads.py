# two threads, each its own frame-layer model (same class: one compiled graph), inference, results kept
import torch, threading, copy
from harness import *
from common_layers import M
setup()
torch.manual_seed(0)
ms = [M(4), M(4)]
gs = [compiled(m) for m in ms]
errors = []
def work(k):
    try:
        kept = []
        with torch.no_grad():
            for t in range(60):
                x = torch.randn(8, 16)
                out = gs[k](x); ref = ms[k](x)
                close(out, ref)
                kept.append((out, ref))
            for a, b in kept: close(a, b)
    except Exception as e:
        errors.append(repr(e)[:300])
ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]
[t.start() for t in ts]; [t.join() for t in ts]
print("errors", errors[:2], stats())
