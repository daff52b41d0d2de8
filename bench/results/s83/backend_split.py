"""Session 83: one cold first call of a suite model on the CPU, its backend time split into AOTAutograd's part and
kiln's compile_graph (with kiln's stage seconds). KILN_CACHE_DIR=$(mktemp -d) PYTHONPATH=. python3 bench/results/s83/backend_split.py MODEL BACKEND [DEVICE]"""
import sys, time, json, torch, gc
import kiln, kiln.capture as cap
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
model = sys.argv[1]; backend = sys.argv[2]
dev = sys.argv[3] if len(sys.argv) > 3 else "cpu"
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
w = workload(model); size = "gpu" if dev == "cuda" else "quick"; dt = torch.bfloat16 if dev == "cuda" else torch.float32
m, x = w.make_module(dev, dt, size, False), w.make_inputs(dev, dt, size)
_make_step(m, x, False)()
step = _make_step(_compile(m, backend), x, False)
gc.collect(); s = time.perf_counter(); step(); 
if dev == "cuda": torch.cuda.synchronize()
first = time.perf_counter() - s
b = sum(compilation_time_metrics.get("OutputGraph.call_user_compiler", []))
print(json.dumps(dict(backend=backend, first=round(first,3), backend_s=round(b,3), compile_graph=round(t["cg"],3), aot=round(b - t["cg"],3), **({k: round(v,3) for k, v in kiln.stats().items() if k.startswith("seconds")} if backend=="kiln" else {}))))
