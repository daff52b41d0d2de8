"""Where a DDP/FSDP2 step's added time goes with 2 ranks, per backend: GPU timeline of the step (session 44, issue 22).

torchrun --nproc-per-node N bench/results/s44/s44_ddp_prof.py OUT [model] [how] [backends]
Per backend, the model trains over all ranks ("world") and over a one-rank group ("solo"); after warm steps, 8
timed steps (step and host ms), then 3 profiled steps: per step, the span of the GPU's kernels, the time the
compute streams are busy, NCCL's kernels (busy, overlapped by compute, exposed), idle time, the sum of compute
kernels' durations by name, and the NCCL kernels' offsets and durations.
"""
import gc
import json
import os
import statistics
import sys
import tempfile
import time

for _var, _value in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"), ("NVSHMEM_DISABLE_NVLS", "1")):
    os.environ[_var] = _value

import torch
import torch.distributed as dist

from kiln.tools.bench import _own_recompile_budget
from kiln.tools.distributed import Run

out = sys.argv[1]
model = sys.argv[2] if len(sys.argv) > 2 else "gpt2"
how = sys.argv[3] if len(sys.argv) > 3 else "ddp"
backends = (sys.argv[4] if len(sys.argv) > 4 else "kiln,inductor").split(",")
local = int(os.environ.get("LOCAL_RANK", 0))
device = f"cuda:{local}"
torch.cuda.set_device(local)
dist.init_process_group("nccl", device_id=torch.device(device))
rank, world = dist.get_rank(), dist.get_world_size()
solo = dist.new_subgroups(1)[0]
kw = dict(device=device, size="gpu", autocast=torch.bfloat16, lr=1e-6)


def union(intervals):
    total, end = 0.0, None
    merged = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return merged


def length(merged):
    return sum(e - s for s, e in merged)


def overlap(a, b):
    i = j = 0
    total = 0.0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        total += max(0.0, e - s)
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def analyse(trace):
    steps = [e for e in trace if e.get("ph") == "X" and e.get("name") == "kstep" and e.get("cat") == "user_annotation"]
    kernels = [e for e in trace if e.get("ph") == "X" and e.get("cat") == "kernel"]
    found = []
    for st in steps:
        lo, hi = st["ts"], st["ts"] + st["dur"]
        ks = [k for k in kernels if lo <= k["ts"] <= hi]
        if not ks:
            continue
        nccl = [k for k in ks if "nccl" in k["name"].lower()]
        comp = [k for k in ks if "nccl" not in k["name"].lower()]
        t0 = min(k["ts"] for k in ks)
        t1 = max(k["ts"] + k["dur"] for k in ks)
        cu = union([(k["ts"], k["ts"] + k["dur"]) for k in comp])
        nu = union([(k["ts"], k["ts"] + k["dur"]) for k in nccl])
        byname = {}
        for k in comp:
            byname[k["name"][:70]] = byname.get(k["name"][:70], 0) + k["dur"]
        last_comp_before_tail = max((k["ts"] + k["dur"] for k in comp), default=t0)
        found.append({
            "span_ms": (t1 - t0) / 1e3, "compute_busy_ms": length(cu) / 1e3,
            "compute_kernel_sum_ms": sum(k["dur"] for k in comp) / 1e3,
            "nccl_busy_ms": length(nu) / 1e3, "nccl_overlapped_ms": overlap(cu, nu) / 1e3,
            "nccl_exposed_ms": (length(nu) - overlap(cu, nu)) / 1e3,
            "idle_ms": (t1 - t0 - length(union([(k["ts"], k["ts"] + k["dur"]) for k in ks]))) / 1e3,
            "kernels": len(comp), "nccl": [(round((k["ts"] - t0) / 1e3, 3), round(k["dur"] / 1e3, 3), k["name"][:40])
                                            for k in nccl],
            "compute_gaps_ms": sorted(((round((b[0] - a[1]) / 1e3, 3), round((a[1] - t0) / 1e3, 3))
                                       for a, b in zip(cu, cu[1:])), reverse=True)[:8],
            "top_compute": sorted(((round(v / 1e3, 3), n) for n, v in byname.items()), reverse=True)[:25],
        })
    return found


results = {}
runs = {}
for i, backend in enumerate(backends):
    for group_name, group in (("world", None), ("solo", solo)):
        _own_recompile_budget(2 * i + (group_name == "solo"))
        run = Run(model, how, backend, group=group, **kw)
        for _ in range(4):
            run.step()
        runs[f"{backend}/{group_name}"] = run
for r in range(2):
    for name, run in runs.items():
        torch.cuda.synchronize()
        dist.barrier()
        gc.collect()
        steps, hosts = [], []
        for _ in range(8):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            run.step()
            t1 = time.perf_counter()
            torch.cuda.synchronize()
            steps.append(time.perf_counter() - t0)
            hosts.append(t1 - t0)
        res = results.setdefault(name, {"step_ms": [], "host_ms": []})
        res["step_ms"].append(1e3 * statistics.median(steps))
        res["host_ms"].append(1e3 * statistics.median(hosts))
        if r == 1:
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU,
                                                    torch.profiler.ProfilerActivity.CUDA]) as prof:
                for _ in range(3):
                    with torch.profiler.record_function("kstep"):
                        run.step()
                        torch.cuda.synchronize()
            path = os.path.join(tempfile.mkdtemp(), "t.json")
            prof.export_chrome_trace(path)
            with open(path) as f:
                trace = json.load(f)
            trace = trace["traceEvents"] if isinstance(trace, dict) else trace
            res["profile"] = analyse(trace)[1:]
gathered = [None] * world
dist.all_gather_object(gathered, results)
if rank == 0:
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"prof_{model}_{how}_w{world}.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "ranks": gathered}, f, indent=1)
    for rk, res in enumerate(gathered):
        for name, r in res.items():
            p = r["profile"][-1]
            print(rk, name, "step", [round(x, 1) for x in r["step_ms"]], "host", [round(x, 1) for x in r["host_ms"]],
                  {k: round(v, 2) for k, v in p.items() if isinstance(v, float)}, "nccl n", len(p["nccl"]), flush=True)
dist.destroy_process_group()
