"""Where a cold kiln build of HF ResNet-18 bf16 inference goes, with build workers: per kernel, the worker's span,
the JIT's own compile after it (a cache hit), and the load of each handle (Triton's launcher, the binary)."""
import json, os, sys, tempfile, time
for v in ("KILN_CACHE_DIR", "TRITON_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR"):
    os.environ[v] = tempfile.mkdtemp()
import torch, kiln
from kiln.runtime import build_pool, triton_launch
from kiln.tools.workloads import workload
T0 = time.perf_counter()
events = []
def span(kind, fn):
    def wrapped(*a, **k):
        s = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            label = a[1][1] if kind == "worker" else ""
            events.append((kind, round(s - T0, 3), round(time.perf_counter() - T0, 3), label))
    return wrapped
build_pool.BuildPool.build = span("worker", build_pool.BuildPool.build)
build_pool.BuildPool.start = span("pool_start", build_pool.BuildPool.start)
triton_launch.load_handles = span("load_handles", triton_launch.load_handles)
triton_launch.load_c_launcher = span("c_launcher", triton_launch.load_c_launcher)
orig_call = build_pool.InWorkers.__call__
def call(self, src, **kw):
    real = self.compile
    self.compile = span("jit_compile", real)
    try:
        return span("in_workers", orig_call)(self, src, **kw)
    finally:
        self.compile = real
build_pool.InWorkers.__call__ = call
triton_launch.build_ahead = span("build_ahead", triton_launch.build_ahead)
import kiln.runtime.module as mod
mod.load = span("load", mod.load)
import kiln.capture as cap
cap.load = mod.load
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).cuda()
kiln.compile(tiny)(torch.ones(2, 3, device="cuda"))
events.append(("tiny_done", round(time.perf_counter() - T0, 3), 0))
name = sys.argv[1] if len(sys.argv) > 1 else "resnet"
w = workload(name)
m, inputs = w.make_module("cuda", torch.bfloat16, "gpu", False), w.make_inputs("cuda", torch.bfloat16, "gpu")
c = kiln.compile(m)
t = time.perf_counter()
with torch.no_grad():
    c(*inputs) if isinstance(inputs, (list, tuple)) else c(**inputs)
torch.cuda.synchronize()
events.append(("model_first_call", round(t - T0, 3), round(time.perf_counter() - T0, 3)))
print(json.dumps({"stats": kiln.stats(), "events": events}))
import glob
for f in glob.glob(os.path.join(os.environ["KILN_CACHE_DIR"], "triton", "*.py")):
    os.makedirs(os.environ["OUT"] + "/kernels", exist_ok=True)
    os.system(f"cp {f} $OUT/kernels/")
