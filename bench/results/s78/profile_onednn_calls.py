# session 78: torch.profiler over 100 calls of kiln frozen and Inductor frozen, twice each, oneDNN calls by input shape:
#   PYTHONPATH=.:$TIMMLIB python3 bench/results/s78/profile_onednn_calls.py timm_convnext [-v]
import torch, kiln, copy, sys
import torch._inductor.config as icfg
from kiln.tools.workloads import workload
w = workload(sys.argv[1])
m = w.make_module("cpu", torch.float32, "quick", False).eval(); x = w.make_inputs("cpu", torch.float32, "quick")
fk = kiln.compile(copy.deepcopy(m), options={"freezing": True})
with torch.no_grad():
    fk(*x)
    icfg.freezing = True; fi = torch.compile(copy.deepcopy(m)); fi(*x); icfg.freezing = False
    for _ in range(20): fk(*x); fi(*x)
    for label, f in (("kiln", fk), ("inductor", fi), ("kiln", fk), ("inductor", fi)):
        with torch.profiler.profile(record_shapes=True) as p:
            for _ in range(100): f(*x)
        rows = [e for e in p.key_averages(group_by_input_shape=True) if "mkldnn" in e.key]
        print("==", label, "total mkldnn us/call %.0f" % (sum(e.self_cpu_time_total for e in rows) / 100))
        if "-v" in sys.argv:
            for e in rows: print(f"  {e.self_cpu_time_total / e.count:7.1f} us x{e.count // 100:2d} {e.key} {str(e.input_shapes)[:70]}")
