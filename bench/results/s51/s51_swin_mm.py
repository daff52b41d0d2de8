"""Session 51: Swin's quick CPU training step, each aten::mm's self time per step (us) by operand shapes, Inductor against
kiln (torch.profiler, 20 steps). Inductor calls mm with out= into its planned buffers (three shapes), kiln the
functional form, which allocates its result.
    PYTHONPATH=. python3 bench/results/s51/s51_swin_mm.py
"""
import torch, copy, collections, kiln
from torch.profiler import profile
from kiln.tools.workloads import workload
from kiln.tools.bench import _make_step
w = workload("swin")
m = w.make_module("cpu", torch.float32, "quick", True)
x = w.make_inputs("cpu", torch.float32, "quick")
res = {}
for backend in ("inductor", "kiln"):
    mod = copy.deepcopy(m)
    c = torch.compile(mod, backend="inductor") if backend == "inductor" else kiln.compile(mod)
    step = _make_step(c, x, True)
    for _ in range(5): step()
    with profile(record_shapes=True) as p:
        for _ in range(20): step()
    agg = collections.defaultdict(float)
    for e in p.events():
        if e.name == "aten::mm":
            agg[(str(e.input_shapes), )] += e.self_cpu_time_total / 20
    res[backend] = agg
keys = set(res["inductor"]) | set(res["kiln"])
for k in sorted(keys, key=lambda k: -(res["kiln"].get(k, 0) - res["inductor"].get(k, 0))):
    print(round(res["inductor"].get(k, 0), 1), round(res["kiln"].get(k, 0), 1), k[0][:150])
