# session 77: torch.profiler over 20 calls of kiln frozen and Inductor frozen (quick, float32):
#   PYTHONPATH=.:$TIMMLIB python3 bench/results/s77/maxpool/profile_frozen.py timm_resnet
import torch, kiln, copy, sys
import torch._inductor.config as icfg
from kiln.tools.workloads import workload
from kiln.tools.bench import _own_recompile_budget
name = sys.argv[1]
w = workload(name)
m = w.make_module("cpu", torch.float32, "quick", False).eval(); x = w.make_inputs("cpu", torch.float32, "quick")
_own_recompile_budget(0)
fk = kiln.compile(copy.deepcopy(m), options={"freezing": True})
_own_recompile_budget(1)
icfg.freezing = True; fi = torch.compile(copy.deepcopy(m))
with torch.no_grad():
    fi(*x); icfg.freezing = False
    for f in (fk, fi):
        for _ in range(5): f(*x)
    for label, f in (("kiln", fk), ("inductor", fi)):
        with torch.profiler.profile() as p:
            for _ in range(20): f(*x)
        print("=====", label)
        print(p.key_averages().table(sort_by="self_cpu_time_total", row_limit=14))
