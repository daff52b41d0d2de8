# session 38: cProfile of kiln's compile of a model's first step on the CPU with the GPU's Triton codegen
# (KILN_TARGET=triton, no interpreter); every graph's load raises, so the graph runs eagerly and nothing is built:
# the profile holds Dynamo, AOTAutograd, lowering, scheduling and codegen. Full-size config, batch cut to BATCH.
# usage: KILN_TARGET=triton s38_prof_cpu.py MODEL OUT.prof BATCH [--train]
import cProfile, pstats, sys, time, os
import torch
import kiln.capture
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
class Stop(Exception): pass
def stop(*a, **k): raise Stop()
kiln.capture.load = stop
model, out, batch, train = sys.argv[1], sys.argv[2], int(sys.argv[3]), "--train" in sys.argv
w = workload(model)
module = w.make_module("cpu", torch.float32, "gpu", train)
inputs = [t[:batch] if isinstance(t, torch.Tensor) and t.dim() else t for t in w.make_inputs("cpu", torch.float32, "gpu")]
step = _make_step(_compile(module, "kiln"), inputs, train)
import kiln
kiln.reset_stats()
pr = cProfile.Profile()
t = time.perf_counter()
pr.enable(); step(); pr.disable()
print(model, "first step", time.perf_counter() - t, {k: round(v, 2) if isinstance(v, float) else v for k, v in kiln.stats().items()})
pr.dump_stats(out)
