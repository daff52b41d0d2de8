# session 98 (issue 19): reduce-overhead on a model whose layers are frames of their own (a graph break per layer,
# as HF Whisper's and BART's), training on the CPU through tests/test_modes.py's stand-in recorder; prints the
# recordings and replays per step, then each compiled graph's recordings (copied inputs, replays, pool number,
# placed inputs, with positions.patch).   PYTHONPATH=. python3 bench/results/s98/layers_as_frames.py
import logging, sys, torch
sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__file__), "..", "..", "..", "tests"))
import kiln
from kiln.runtime import cuda_graphs
from test_modes import ReplayingRecorder
cuda_graphs.RECORDERS["cpu"] = ReplayingRecorder
ReplayingRecorder.pool = (torch.empty(1 << 25, dtype=torch.uint8), 0)
logging.basicConfig(); logging.getLogger("kiln.cudagraphs").setLevel(logging.INFO)

class Layer(torch.nn.Module):
    def __init__(s):
        super().__init__(); s.lin = torch.nn.Linear(16, 16)
    def forward(s, x):
        y = torch.tanh(s.lin(x)) + x
        torch._dynamo.graph_break()
        return y * 0.5
class M(torch.nn.Module):
    def __init__(s, n=4):
        super().__init__(); s.layers = torch.nn.ModuleList(Layer() for _ in range(n))
    def forward(s, x):
        for l in s.layers: x = l(x)
        return x.sum()
torch.manual_seed(0)
m = M(); ref = M(); ref.load_state_dict(m.state_dict())
orig = cuda_graphs.GraphedCall.replayed_or_recorded
def spy(self, args):
    print(self.name, [type(a).__name__ for a in args if isinstance(a, torch.Tensor)][:6])
    return orig(self, args)
if "spy" in sys.argv: cuda_graphs.GraphedCall.replayed_or_recorded = spy
orig_replay = cuda_graphs.Recording.replay
def counting(self, args):
    out = orig_replay(self, args)
    if out is not None: self.n = getattr(self, "n", 0) + 1
    return out
cuda_graphs.Recording.replay = counting
step = kiln.compile(m, mode="reduce-overhead", options={"graph_cache": False})
for i in range(8):
    for p in list(m.parameters()) + list(ref.parameters()): p.grad = None
    x = torch.randn(8, 16)
    step(x).backward(); ref(x).backward()
    print("step", i, "recordings", ReplayingRecorder.recordings, kiln.stats().get("cuda_graph_replays"))
for p, q in zip(m.parameters(), ref.parameters()): torch.testing.assert_close(p.grad, q.grad)
print("grads ok")
import gc
for o in [o for o in gc.get_objects() if type(o) is cuda_graphs.GraphedCall]:
    # (a shape's recordings: a list of them with positions.patch, one recording without it)
    shapes = {k: v if isinstance(v, list) else [v] for k, v in o.recordings.items()}
    print(o.name, {k: len(v) for k, v in shapes.items()}, "copied", o.copied,
          [[(len(r.copied), getattr(r, "n", 0), r.number, sorted(getattr(r, "placed", ()))) for r in v]
           for v in shapes.values()])
