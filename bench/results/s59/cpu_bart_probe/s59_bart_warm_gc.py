import sys, time, gc
backend = sys.argv[1]
import torch
from kiln.tools.bench import _compile, _make_step, _own_recompile_budget
from kiln.tools.workloads import workload
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
_compile(tiny, backend)(torch.ones(2, 3)); torch._dynamo.reset()
w = workload("bart")
module, inputs = w.make_module("cpu", torch.float32, "quick", False), w.make_inputs("cpu", torch.float32, "quick")
_own_recompile_budget(0)
step = _make_step(_compile(module, backend), inputs, False)
gc.collect()
spent, starts, gens = [0.0], {}, []
def cb(phase, info):
    if phase == "start": starts["t"] = time.perf_counter()
    else:
        spent[0] += time.perf_counter() - starts["t"]; gens.append(info["generation"])
gc.callbacks.append(cb)
t = time.perf_counter(); step(); first = time.perf_counter() - t
gc.callbacks.remove(cb)
from torch._dynamo.utils import compilation_time_metrics as m
print(backend, "first", round(first, 2), "gc s", round(spent[0], 2), "collections by gen", [gens.count(g) for g in range(3)],
      "backend", round(sum(m.get("OutputGraph.call_user_compiler", [])), 2), "objects", len(gc.get_objects()), "frozen", gc.get_freeze_count())
