# session 38: cProfile of a model's first step on the CPU.
#   KILN_TARGET=triton s38_prof_cpu.py MODEL OUT.prof nobuild BATCH [--train]
#     kiln's cold compile with the GPU's Triton codegen (no interpreter); every graph's load raises, so the graph
#     runs eagerly and nothing is built: Dynamo, AOTAutograd, lowering, scheduling and codegen. Full-size config,
#     batch cut to BATCH.
#   [BACKEND=kiln|inductor] s38_prof_cpu.py MODEL OUT.prof SIZE [--train]
#     a first step at the size preset (a warm start where a first process filled the cache dirs), after a tiny
#     module's compile (imports, pools).
import cProfile, os, sys, time
import torch
import kiln
import kiln.capture
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
model, out, size, train = sys.argv[1], sys.argv[2], sys.argv[3], "--train" in sys.argv
backend = os.environ.get("BACKEND", "kiln")
w = workload(model)
if size == "nobuild":
    class Stop(Exception): pass
    def stop(*a, **k): raise Stop()
    kiln.capture.load = stop
    batch = int(sys.argv[4])
    module = w.make_module("cpu", torch.float32, "gpu", train)
    inputs = [t[:batch] if isinstance(t, torch.Tensor) and t.dim() else t for t in w.make_inputs("cpu", torch.float32, "gpu")]
else:
    _compile(torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()), backend)(torch.ones(2, 3))
    torch._dynamo.reset()
    module, inputs = w.make_module("cpu", torch.float32, size, train), w.make_inputs("cpu", torch.float32, size)
step = _make_step(_compile(module, backend), inputs, train)
kiln.reset_stats()
pr = cProfile.Profile()
t = time.perf_counter()
pr.enable(); step(); pr.disable()
print(model, "first step", time.perf_counter() - t, {k: round(v, 2) if isinstance(v, float) else v for k, v in kiln.stats().items()})
pr.dump_stats(out)
