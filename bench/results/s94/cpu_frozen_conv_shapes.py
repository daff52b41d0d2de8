# session 94: timm ResNet-18 frozen on the 2-core CPU, kiln against Inductor (both frozen) in one process: each
# oneDNN convolution call's self time a step by (input, weight or accumulated-into) shape, min of 3 rounds of 20 calls.
#   PYTHONPATH=.:$TIMMLIB python3 bench/results/s94/cpu_frozen_conv_shapes.py
import torch, kiln, copy, collections
import torch._inductor.config as icfg
from torch.profiler import profile, ProfilerActivity
from kiln.tools.workloads import workload
from kiln.tools.bench import _own_recompile_budget
w = workload("timm_resnet")
m = w.make_module("cpu", torch.float32, "quick", False).eval(); x = w.make_inputs("cpu", torch.float32, "quick")
print([t.shape for t in x])
_own_recompile_budget(0)
icfg.freezing = True; ind = torch.compile(copy.deepcopy(m))
with torch.no_grad(): ind(*x)
icfg.freezing = False
_own_recompile_budget(1)
kl = kiln.compile(copy.deepcopy(m), options={"freezing": True})
fns = {"inductor": ind, "kiln": kl}
with torch.no_grad():
    for f in fns.values():
        for _ in range(5): f(*x)
    res = {}
    for rnd in range(3):
        for k, f in fns.items():
            with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as p:
                for _ in range(20): f(*x)
            d = collections.defaultdict(float)
            for e in p.events():
                if e.name.startswith("mkldnn::_convolution_pointwise"):
                    shp = e.input_shapes
                    d[(str(shp[0]), str(shp[1]) if len(shp)>1 else "", e.name[-1] == "_")] += e.self_cpu_time_total / 20
            res.setdefault(k, []).append(d)
for k in fns:
    print("==", k)
    keys = sorted(res[k][0])
    for key in keys:
        print(f"{min(r[key] for r in res[k]):9.1f} us", key)
    print("total", sum(min(r[key] for r in res[k]) for key in keys))
