# A plain training step over N frame layers (a graph break per layer). With N = 32 (MAX_POSITIONS; Whisper large's
# decoder has 32 layers) the positions' warm-up spends the shape's 2 * MAX_POSITIONS recordings (each layer is
# recorded about twice in the first two steps), and most calls run without a CUDA graph from then on (34 of 128 replayed at N = 32, 33 of 124 at N = 31). N <= 30: all
# replayed.   usage: r4_32_frame_layers.py N
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
n = int(sys.argv[1]) if len(sys.argv) > 1 else 32
m = M(n); ref = copy.deepcopy(m)
g = compiled(m)
last = (0, 0, 0)
for step in range(12):
    for p in [*m.parameters(), *ref.parameters()]: p.grad = None
    x = torch.randn(8, 16)
    l = g(x).sum(); rl = ref(x).sum()
    l.backward(); rl.backward()
    for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
    s = stats(); now = (s["recordings"], s["replays"], calls[0])
    if step % 4 == 3:
        rec, rep, c = (a - b for a, b in zip(now, last))
        print(f"steps {step-3}-{step}: per step: calls {c/4:.0f}, recordings {rec/4:.1f}, "
              f"replays of an existing recording {(rep-rec)/4:.1f}")
        last = now
print("ok")
