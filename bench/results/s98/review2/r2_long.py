# Frame layers (a graph break per layer), plain training step whose input is a slice with gaps of a fresh batch
# (x = batch[:, :16], as inputs = ids[:, :-1]). An input with gaps is read in place and recorded again where it moves:
# the first graph's new recording is then the pool's newest, every later layer's position is older than the
# activations it now finds held, and is recorded again too -- at every step, for every layer. Counts real replays
# (a recording replayed after the call that recorded it) and calls per step.
import sys, torch, copy
from h import *
from common_layers import M
from kiln.runtime import cuda_graphs
setup()
calls = [0]
orig = cuda_graphs.GraphedCall.__call__
def counting(self, args):
    calls[0] += 1
    return orig(self, args)
cuda_graphs.GraphedCall.__call__ = counting
torch.manual_seed(0)
gaps = "nogaps" not in sys.argv
m = M(4); ref = copy.deepcopy(m)
g = compiled(m)
last = (0, 0, 0)
for step in range(100):
    for p in [*m.parameters(), *ref.parameters()]: p.grad = None
    batch = torch.randn(8, 32)
    x = batch[:, :16] if gaps else batch[:, :16].clone()
    l = g(x).sum(); rl = ref(x).sum()
    l.backward(); rl.backward()
    for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
    s = stats(); now = (s["recordings"], s["replays"], calls[0])
    if step % 10 == 9:
        rec, rep, c = (a - b for a, b in zip(now, last))
        print(f"step {step}: per step: calls {c/10:.1f}, recordings {rec/10:.1f}, replays of an existing recording {(rep-rec)/10:.1f}")
        last = now
print("ok", stats())
