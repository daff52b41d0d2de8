"""backend seconds (Dynamo's call of the backend: AOTAutograd's trace + kiln's compile of forward and, ahead, backward) of a suite model's training step at the GPU size, on the CPU; the forward runs once."""
import sys, time, json, torch, gc
import kiln, kiln.capture as cap
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
from torch._dynamo.utils import compilation_time_metrics
model = sys.argv[1]
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
_compile(tiny, "kiln")(torch.ones(2, 3, requires_grad=True)).sum().backward(); torch._dynamo.reset()
t = {"cg": 0.0}
orig = cap.compile_graph
def timed(*a, **k):
    s = time.perf_counter()
    try: return orig(*a, **k)
    finally: t["cg"] += time.perf_counter() - s
cap.compile_graph = timed
compilation_time_metrics.clear()
w = workload(model)
m, x = w.make_module("cpu", torch.float32, "gpu", True), w.make_inputs("cpu", torch.float32, "gpu")
x = [v[:1] if isinstance(v, torch.Tensor) and v.dim() > 0 else v for v in x] if isinstance(x, (list, tuple)) else x
c = _compile(m, "kiln")
s = time.perf_counter()
out = c(*x) if isinstance(x, (list, tuple)) else c(x)
first = time.perf_counter() - s
b = sum(compilation_time_metrics.get("OutputGraph.call_user_compiler", []))
print(json.dumps(dict(model=model, first=round(first, 3), backend_s=round(b, 3), compile_graph=round(t["cg"], 3), aot=round(b - t["cg"], 3), stats={k: round(v, 3) for k, v in kiln.stats().items() if k.startswith("seconds")})))
