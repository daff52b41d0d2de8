# session 39: where a cold compile's time goes inside the backend, without a profiler's distortion: Dynamo's own
# timers (compile_times) and wall-clock timers around kiln's steps inside its backend call.
#   s39_split.py MODEL [--train]     (fresh cache dirs expected in the environment; CUDA, bf16 inference or fp32 training)
import sys, time
import torch
import kiln, kiln.capture, kiln.warm_start
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
from torch._dynamo.utils import compilation_time_metrics
T = {}


def timed(owner, name):
    f = getattr(owner, name)

    def w(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            T[name] = T.get(name, 0) + time.perf_counter() - t
    setattr(owner, name, w)


for n in ("compile_dynamo_graph", "aot_module_simplified", "compile_graph", "eager_output_strides", "rewrite_attention",
          "rewrite_identity_calls", "kiln_decompositions", "partition", "compile_backward_ahead"):
    timed(kiln.capture, n)
timed(kiln.warm_start, "dynamo_cache_key")
for n in ("compiled", "traced"):
    timed(kiln.warm_start.Pending, n)
model, train = sys.argv[1], "--train" in sys.argv
dev = "cuda" if torch.cuda.is_available() else "cpu"   # (the CPU: to try the script)
sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
_compile(torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).to(dev), "kiln")(torch.ones(2, 3, device=dev))
torch._dynamo.reset()
T.clear()
compilation_time_metrics.clear()
w = workload(model)
dtype = torch.float32 if train or dev == "cpu" else torch.bfloat16
module, inputs = w.make_module(dev, dtype, "gpu" if dev == "cuda" else "quick", train), w.make_inputs(dev, dtype, "gpu" if dev == "cuda" else "quick")
step = _make_step(_compile(module, "kiln"), inputs, train)
sync()
kiln.reset_stats()
t = time.perf_counter()
step()
sync()
first = time.perf_counter() - t
print(model, "first step", round(first, 3))
print(" kiln timers:", {k: round(v, 3) for k, v in T.items()})
print(" kiln stats:", {k: round(v, 3) for k, v in kiln.stats().items() if k.startswith("seconds")})
print(" dynamo:", {k: round(sum(v), 3) for k, v in compilation_time_metrics.items() if sum(v) > 0.01})
