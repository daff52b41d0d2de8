"""Why a host-bound DDP/FSDP2 step loses more to a second rank with kiln than with Inductor (session 47, issue 22).

torchrun --nproc-per-node 2 bench/results/s47/s47_ddp_probe.py OUT [--pin] [--models gpt2] [--wrappings ddp,fsdp2]
Per wrapping and backend, the model trains over both ranks ("world") and over a one-rank group ("solo"). Then:
- syncs: one step of each run under torch.cuda.set_sync_debug_mode("warn"), with the Python stack of each
  synchronizing call (a host that waits for its GPU mid-step also waits for the other rank's collectives);
- timed rounds, the runs alternating, every step recorded (host seconds until step() returns, then the step's
  seconds with the GPU synchronized), with the garbage collector's passes (count and seconds per generation).
--pin binds each rank to its own share of the CPUs (kiln.tools.distributed.pin_to_share), its threads too.
Rank 0 writes OUT/probe{_pin}.json with every rank's figures.
"""
import argparse
import gc
import json
import os
import statistics
import time
import traceback
import warnings

for _var, _value in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"), ("NVSHMEM_DISABLE_NVLS", "1")):
    os.environ[_var] = _value

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

from kiln.tools.bench import _own_recompile_budget  # noqa: E402
from kiln.tools.distributed import Run, pin_to_share  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--pin", action="store_true")
p.add_argument("--models", default="gpt2")
p.add_argument("--wrappings", default="ddp,fsdp2")
p.add_argument("--backends", default="kiln,inductor")
p.add_argument("--rounds", type=int, default=8)
p.add_argument("--calls", type=int, default=10)
a = p.parse_args()
local, nlocal = int(os.environ["LOCAL_RANK"]), int(os.environ["LOCAL_WORLD_SIZE"])
if a.pin:
    pin_to_share(local, nlocal)
cuda = torch.cuda.is_available()   # (without CUDA: gloo on CPU processes at the tiny size, to try the script)
device = f"cuda:{local}" if cuda else "cpu"
if cuda:
    torch.cuda.set_device(local)
dist.init_process_group("nccl" if cuda else "gloo", **({"device_id": torch.device(device)} if cuda else {}))
rank = dist.get_rank()
solo = dist.new_subgroups(1)[0]
kw = dict(device=device, size="gpu", autocast=torch.bfloat16, lr=1e-6) if cuda else dict(device=device, size="tiny")


def synchronize():
    if cuda:
        torch.cuda.synchronize()

gc_time = {0: 0.0, 1: 0.0, 2: 0.0}
gc_count = {0: 0, 1: 0, 2: 0}
_gc_start = [0.0]


def on_gc(phase, info):
    if phase == "start":
        _gc_start[0] = time.perf_counter()
    else:
        gc_time[info["generation"]] += time.perf_counter() - _gc_start[0]
        gc_count[info["generation"]] += 1


gc.callbacks.append(on_gc)


def sync_calls(run):
    """The synchronizing CUDA calls of one step: (count, [distinct short stacks])."""
    seen = []
    old = warnings.showwarning

    def record(message, *args, **kwargs):
        stack = [f"{f.filename.split('site-packages/')[-1]}:{f.lineno}:{f.name}"
                 for f in traceback.extract_stack()[:-2]][-8:]
        seen.append([str(message)[:120], stack])
    warnings.showwarning = record
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = record
            if cuda:
                torch.cuda.set_sync_debug_mode("warn")
            try:
                run.step()
            finally:
                if cuda:
                    torch.cuda.set_sync_debug_mode("default")
    finally:
        warnings.showwarning = old
    distinct = []
    for s in seen:
        if s not in distinct:
            distinct.append(s)
    return len(seen), distinct[:6]


results = {"rank": rank, "pin": a.pin, "cpus": sorted(os.sched_getaffinity(0)), "threads": torch.get_num_threads(),
           "rows": {}}
turn = 0
for name in a.models.split(","):
    for how in a.wrappings.split(","):
        runs = {}
        for backend in a.backends.split(","):
            for where, group in (("world", None), ("solo", solo)):
                _own_recompile_budget(turn)
                turn += 1
                start = time.perf_counter()
                run = Run(name, how, backend, group=group, **kw)
                for _ in range(3):
                    run.step()
                synchronize()
                runs[f"{backend}/{where}"] = run
                results["rows"][f"{name}/{how}/{backend}/{where}"] = {"compile_and_warm_s": time.perf_counter() - start}
        for key, run in runs.items():
            dist.barrier()
            n, stacks = sync_calls(run)
            synchronize()
            results["rows"][f"{name}/{how}/{key}"].update(syncs=n, sync_stacks=stacks)
        steps = {k: [] for k in runs}
        hosts = {k: [] for k in runs}
        gcs = {k: {"count": [0, 0, 0], "s": [0.0, 0.0, 0.0]} for k in runs}
        order = list(runs)
        for r in range(a.rounds):
            for key in (order if r % 2 == 0 else order[::-1]):
                run = runs[key]
                dist.barrier()
                synchronize()
                c0, t0 = dict(gc_count), dict(gc_time)
                for _ in range(a.calls):
                    synchronize()
                    start = time.perf_counter()
                    run.step()
                    host = time.perf_counter() - start
                    synchronize()
                    steps[key].append(time.perf_counter() - start)
                    hosts[key].append(host)
                for g in range(3):
                    gcs[key]["count"][g] += gc_count[g] - c0[g]
                    gcs[key]["s"][g] += gc_time[g] - t0[g]
        for key in runs:
            s = sorted(steps[key])
            results["rows"][f"{name}/{how}/{key}"].update(
                step_ms_median=1e3 * statistics.median(s), step_ms_p10=1e3 * s[len(s) // 10],
                step_ms_p90=1e3 * s[9 * len(s) // 10], host_ms_median=1e3 * statistics.median(hosts[key]),
                round_medians_ms=[1e3 * statistics.median(steps[key][i:i + a.calls])
                                  for i in range(0, len(s), a.calls)],
                gc=gcs[key], steps_ms=[round(1e3 * x, 2) for x in steps[key]],
                hosts_ms=[round(1e3 * x, 2) for x in hosts[key]])
        del runs
        torch._dynamo.reset()
        gc.collect()
        if cuda:
            torch.cuda.empty_cache()
        if rank == 0:
            print(f"{name} {how} done", flush=True)

gathered = [None] * dist.get_world_size()
dist.all_gather_object(gathered, results)
if rank == 0:
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, f"probe{'_pin' if a.pin else ''}.json"), "w") as f:
        json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name() if cuda else "cpu", "ranks": gathered}, f, indent=1)
    for key in gathered[0]["rows"]:
        cells = []
        for g in gathered:
            row = g["rows"][key]
            cells.append(f"r{g['rank']} med {row.get('step_ms_median', 0):.1f} p10 {row.get('step_ms_p10', 0):.1f} "
                         f"p90 {row.get('step_ms_p90', 0):.1f} host {row.get('host_ms_median', 0):.1f} "
                         f"syncs {row.get('syncs')} gc {row.get('gc', {}).get('count')}")
        print(key, " | ".join(cells), flush=True)
dist.destroy_process_group()
