"""Where the host time of a FSDP2 step goes, world N against one rank alone, per backend (session 36, issue 22).

torchrun --nproc-per-node N .devrun/s36_fsdp_prof.py OUT [model] [how] [backends]
"""
import cProfile
import gc
import json
import os
import pstats
import statistics
import sys
import time

for _var, _value in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"), ("NVSHMEM_DISABLE_NVLS", "1")):
    os.environ[_var] = _value

import torch
import torch.distributed as dist

import kiln
from kiln.tools.bench import _own_recompile_budget
from kiln.tools.distributed import Run

out = sys.argv[1]
model = sys.argv[2] if len(sys.argv) > 2 else "gpt2"
how = sys.argv[3] if len(sys.argv) > 3 else "fsdp2"
backends = (sys.argv[4] if len(sys.argv) > 4 else "eager,kiln,inductor").split(",")
cuda = torch.cuda.is_available()
local = int(os.environ.get("LOCAL_RANK", 0))
device = f"cuda:{local}" if cuda else "cpu"
if cuda:
    torch.cuda.set_device(local)
dist.init_process_group("nccl" if cuda else "gloo", **({"device_id": torch.device(device)} if cuda else {}))
rank, world = dist.get_rank(), dist.get_world_size()
solo = dist.new_subgroups(1)[0] if world > 1 else None
size = "gpu" if cuda else "tiny"
kw = dict(device=device, size=size, autocast=torch.bfloat16 if cuda else None, lr=1e-6)


def sync():
    if cuda:
        torch.cuda.synchronize()


def area(path):
    for key, name in (("/kiln/", "kiln"), ("fsdp", "fsdp"), ("_dynamo", "dynamo"), ("_functorch", "aot"),
                      ("autograd", "autograd"), ("distributed", "distributed"), ("triton", "triton"),
                      ("/optim/", "optim"), ("/nn/", "nn"), ("transformers", "hf"), ("timm", "timm")):
        if key in path:
            return name
    return "builtin" if path == "~" else "other"


results = {}
runs = {}
for i, backend in enumerate(backends):
    for group_name, group in (("world", None), ("solo", solo)):
        if group_name == "solo" and solo is None:
            continue
        _own_recompile_budget(2 * i + (group_name == "solo"))
        run = Run(model, how, backend, group=group, **kw)
        for _ in range(4):
            run.step()
        runs[f"{backend}/{group_name}"] = run
for r in range(3):
    for name, run in runs.items():
        sync()
        dist.barrier()
        gc.collect()
        before = dict(kiln.capture.STATS)
        steps, hosts = [], []
        for _ in range(8):
            sync()
            t0 = time.perf_counter()
            run.step()
            t1 = time.perf_counter()
            sync()
            t2 = time.perf_counter()
            steps.append(t2 - t0)
            hosts.append(t1 - t0)
        prof = cProfile.Profile()
        sync()
        prof.enable()
        for _ in range(4):
            run.step()
        sync()
        prof.disable()
        st = pstats.Stats(prof)
        areas = {}
        top = []
        for (path, line, func), (cc, nc, tt, ct, callers) in st.stats.items():
            a = area(path)
            areas[a] = areas.get(a, 0) + tt / 4
            top.append((tt / 4, nc / 4, f"{path.split('site-packages/')[-1]}:{line}:{func}"))
        top.sort(reverse=True)
        res = results.setdefault(name, {"step_ms": [], "host_ms": []})
        res["step_ms"].append(1e3 * statistics.median(steps))
        res["host_ms"].append(1e3 * statistics.median(hosts))
        res["areas_ms"] = {k: round(1e3 * v, 2) for k, v in sorted(areas.items(), key=lambda kv: -kv[1])}
        res["top"] = [(round(1e3 * t, 3), n, f) for t, n, f in top[:45]]
        res["stats_delta"] = {k: kiln.capture.STATS[k] - before.get(k, 0) for k in kiln.capture.STATS
                              if kiln.capture.STATS[k] != before.get(k, 0)}
gathered = [None] * world
dist.all_gather_object(gathered, results)
if rank == 0:
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"fsdp_prof_{model}_{how}_w{world}.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name() if cuda else "cpu", "torch": torch.__version__,
                   "ranks": gathered}, f, indent=1)
    for rk, res in enumerate(gathered):
        for name, r in res.items():
            print(rk, name, "step", [round(x, 1) for x in r["step_ms"]], "host", [round(x, 1) for x in r["host_ms"]],
                  r["areas_ms"], r["stats_delta"], flush=True)
dist.destroy_process_group()
