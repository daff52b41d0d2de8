"""Session 83: one cold first call of a suite model on the CPU, its backend time split into AOTAutograd's part and
kiln's compile_graph (with kiln's stage seconds). KILN_CACHE_DIR=$(mktemp -d) PYTHONPATH=. python3 bench/results/s83/backend_split.py MODEL BACKEND [DEVICE]
With --train-gpu-size (session 84): the training step's forward at the GPU size, batch 1, on the CPU (its first call:
AOTAutograd's trace of the joint graph and the forward's compile; the backward is not run)."""
import sys, time, json, torch, gc
import kiln, kiln.capture as cap
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
train = "--train-gpu-size" in sys.argv
args = [a for a in sys.argv[1:] if a != "--train-gpu-size"]
model = args[0]; backend = args[1]
dev = args[2] if len(args) > 2 else "cpu"
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).to(dev)
_compile(tiny, backend)(torch.ones(2, 3, device=dev)); torch._dynamo.reset()
with torch.no_grad(): _compile(tiny, backend)(torch.ones(2, 3, device=dev)); torch._dynamo.reset()
t = {"cg": 0.0}
orig = cap.compile_graph
def timed(*a, **k):
    s = time.perf_counter()
    try: return orig(*a, **k)
    finally: t["cg"] += time.perf_counter() - s
cap.compile_graph = timed
from torch._dynamo.utils import compilation_time_metrics
compilation_time_metrics.clear()
w = workload(model); size = "gpu" if dev == "cuda" or train else "quick"
dt = torch.bfloat16 if dev == "cuda" and not train else torch.float32
m, x = w.make_module(dev, dt, size, train), w.make_inputs(dev, dt, size)
if train:
    x = [v[:1] if isinstance(v, torch.Tensor) and v.dim() > 0 else v for v in x] if isinstance(x, (list, tuple)) else x
    compiled = _compile(m, backend)
    step = lambda: compiled(*x) if isinstance(x, (list, tuple)) else compiled(x)
else:
    _make_step(m, x, False)()
    step = _make_step(_compile(m, backend), x, False)
gc.collect(); s = time.perf_counter(); step(); 
if dev == "cuda": torch.cuda.synchronize()
first = time.perf_counter() - s
b = sum(compilation_time_metrics.get("OutputGraph.call_user_compiler", []))
print(json.dumps(dict(backend=backend, first=round(first,3), backend_s=round(b,3), compile_graph=round(t["cg"],3), aot=round(b - t["cg"],3), **({k: round(v,3) for k, v in kiln.stats().items() if k.startswith("seconds")} if backend=="kiln" else {}))))
