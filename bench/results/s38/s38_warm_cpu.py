# session 38: cProfile of a warm start (caches filled by a first process) of a model's first step on the CPU;
# BACKEND=kiln|inductor.
# usage: KILN_CACHE_DIR=... s38_warm_cpu.py MODEL OUT.prof SIZE [--train]
import cProfile, os, sys, time
import torch
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
model, out, size, train = sys.argv[1], sys.argv[2], sys.argv[3], "--train" in sys.argv
BACKEND = os.environ.get("BACKEND", "kiln")
BACKEND = os.environ.get("BACKEND", "kiln")
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
_compile(tiny, BACKEND)(torch.ones(2, 3))
torch._dynamo.reset()
w = workload(model)
module, inputs = w.make_module("cpu", torch.float32, size, train), w.make_inputs("cpu", torch.float32, size)
step = _make_step(_compile(module, BACKEND), inputs, train)
import kiln
kiln.reset_stats()
pr = cProfile.Profile()
t = time.perf_counter()
pr.enable(); step(); pr.disable()
print(model, "first step", time.perf_counter() - t, {k: round(v, 2) if isinstance(v, float) else v for k, v in kiln.stats().items()})
pr.dump_stats(out)
