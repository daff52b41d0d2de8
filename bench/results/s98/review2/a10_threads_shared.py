# two threads running the SAME compiled frame-layer model, inference, results kept; interleaving per call
import torch, threading
from harness import *
from common_layers import M
setup()
torch.manual_seed(0)
m = M(4); g = compiled(m)
with torch.no_grad(): g(torch.randn(8, 16)); g(torch.randn(8, 16))   # compiled before the threads start
errors, marks = [], []
def work(k):
    try:
        kept = []
        with torch.no_grad():
            for t in range(150):
                x = torch.randn(8, 16)
                out = g(x); ref = m(x)
                close(out, ref)
                kept.append((out, ref))
                if k == 0 and t % 30 == 29: marks.append((t, stats()))
            for a, b in kept: close(a, b)
    except Exception as e:
        errors.append(repr(e)[:300])
ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]
[t.start() for t in ts]; [t.join() for t in ts]
for mk in marks: print(mk)
print("errors", errors[:2], stats())
