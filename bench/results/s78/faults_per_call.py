# session 78: page faults and ms a call of kiln and Inductor (not frozen) in one process, quick size, float32:
#   PYTHONPATH=.:$TIMMLIB python3 bench/results/s78/faults_per_call.py [timm_resnet]
import torch, kiln, copy, resource, time, sys
from kiln.tools.workloads import workload
w = workload(sys.argv[1] if len(sys.argv) > 1 else "timm_resnet")
m = w.make_module("cpu", torch.float32, "quick", False).eval(); x = w.make_inputs("cpu", torch.float32, "quick")
fns = {"kiln": kiln.compile(copy.deepcopy(m)), "inductor": torch.compile(copy.deepcopy(m))}
with torch.no_grad():
    for f in fns.values():
        for _ in range(3): f(*x)
    for r in range(2):
        for k, f in fns.items():
            a = resource.getrusage(resource.RUSAGE_SELF).ru_minflt; t0 = time.perf_counter()
            for _ in range(10): f(*x)
            t = (time.perf_counter() - t0) / 10 * 1e3
            print(k, "faults/call", (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - a) / 10, "ms", round(t, 2))
