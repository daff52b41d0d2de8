"""Host cost of a recorded graph's call (cuda_graphs.GraphedCall) on the CPU: a stub recorder whose replay runs
nothing, a forward with P parameter inputs read in place and O outputs each in a storage of its own, and a
backward reading those outputs (handed out) and returning P gradients. Prints us per forward+backward call pair."""
import sys, time
import torch
from kiln.runtime import cuda_graphs as cg

class Stub:
    def __init__(self, device): pass
    def warm_up(self, call, args): return call(args)
    def record(self, call, inputs):
        outputs = call(list(inputs))
        return (lambda: None), outputs

cg.RECORDERS["cpu"] = Stub
P, O = int(sys.argv[1]) if len(sys.argv) > 1 else 200, int(sys.argv[2]) if len(sys.argv) > 2 else 300
params = [torch.randn(16) for _ in range(P)]
x = torch.randn(8)

def fwd(args):
    return [torch.empty(4) for _ in range(O)] + [torch.empty(2)]
def bwd(args):
    return [torch.empty(16) for _ in range(P)]

f = cg.graphed(fwd, (), params + [x], "fwd")
b = cg.graphed(bwd, (), [torch.empty(4) for _ in range(O)] + [x], "bwd")

def step():
    outs = f(params + [x])
    saved = outs[:O]
    del outs
    grads = b(saved + [x])
    del saved
    return grads

for _ in range(5):
    g = step(); del g
print("recordings", cg.COUNTS)
N = 300
best = 1e9
for r in range(5):
    t = time.perf_counter()
    for _ in range(N):
        g = step(); del g
    best = min(best, (time.perf_counter() - t) / N * 1e6)
print(f"P={P} O={O}: {best:.1f} us per forward+backward")
if "--profile" in sys.argv:
    import cProfile, pstats
    cProfile.run("for _ in range(200): step()", "/tmp/rb/prof")
    pstats.Stats("/tmp/rb/prof").sort_stats("tottime").print_stats(12)
