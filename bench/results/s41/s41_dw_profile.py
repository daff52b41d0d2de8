"""Session 41: where a model's bf16 inference time goes, kiln against Inductor, per CUDA kernel, with kiln as it is
and with variants patched in this process only (each compiled without the graph cache): the library's depthwise
convolutions (kiln_library_dw), no pointwise kernel re-placed into a reduction over its outputs (kiln_no_rebase).
kiln's own trace (kernels, wrapper) goes to OUT_trace/.
    PYTHONPATH=. python3 bench/results/s41/s41_dw_profile.py WORKLOAD OUT.json [BACKEND,...]
One kiln variant per process: calls 1 and 2 (c1, c2) ran three in one, and Dynamo's cache served every kiln variant
the graphs last compiled (identical kernels, identical times), so their kiln_library_dw and kiln_no_rebase rows
measure nothing of their own."""
import json
import statistics
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

import kiln
import kiln.lowering.externs as externs
import kiln.scheduler as scheduler
from kiln.tools import workloads as W

name, out = sys.argv[1], sys.argv[2]
w = W.workload(name)
m = w.make_module("cuda", torch.bfloat16, "gpu", train=False)
xs = w.make_inputs("cuda", torch.bfloat16, "gpu")
own_depthwise = externs.depthwise_convolution
library_depthwise = lambda *args: NotImplemented   # noqa: E731
own_rebase = scheduler.rebase_to_reduction


def compiled(backend):
    torch._dynamo.reset()
    externs.depthwise_convolution = library_depthwise if backend == "kiln_library_dw" else own_depthwise
    scheduler.rebase_to_reduction = (lambda kernel, node: None) if backend == "kiln_no_rebase" else own_rebase
    options = {"trace": out.replace(".json", "_trace")} if backend == "kiln" else {"graph_cache": False}
    f = torch.compile(m, backend="inductor") if backend == "inductor" else kiln.compile(m, options=options)
    with torch.no_grad():
        for _ in range(3):
            f(*xs)
    torch.cuda.synchronize()
    return f


def timed(f, n=50):
    with torch.no_grad():
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            f(*xs)
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) / n * 1e3


backends = (sys.argv[3] if len(sys.argv) > 3 else "inductor,kiln,kiln_library_dw,kiln_no_rebase").split(",")
assert sum(b != "inductor" for b in backends) <= 1, "one kiln variant per process"
fs = {b: compiled(b) for b in backends}
times = {b: [] for b in backends}
for _ in range(7):
    for b in backends:
        times[b].append(timed(fs[b]))
result = {"workload": name, "ms": {b: statistics.median(v) for b, v in times.items()}, "kernels": {}}
print(result["ms"])
for b in backends:
    with torch.no_grad(), profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(5):
            fs[b](*xs)
        torch.cuda.synchronize()
    events = [e for e in prof.key_averages() if e.device_type == torch.autograd.DeviceType.CUDA]
    rows = sorted(([e.device_time_total / 5, e.count // 5, e.key] for e in events), key=lambda r: -r[0])
    result["kernels"][b] = rows
    print(f"===== {b}: {sum(r[0] for r in rows) / 1e3:.3f} ms GPU, {sum(r[1] for r in rows)} launches")
    for r in rows[:25]:
        print(f"{r[0]:9.1f} x{r[1]:<3} {r[2][:100]}")
json.dump(result, open(out, "w"), indent=1)
