"""Top CUDA kernels of kiln and Inductor for one workload, side by side (torch.profiler).

    PYTHONPATH=. python3 scripts/gpu_profile.py gpt2_block [--train] [--dtype bfloat16] [--trace DIR] [--timeline]
        [--size gpu] [--batch N] [--top N] [--host]

--host also lists the Python functions that take the host's time (cProfile of 20 steps).
--trace also writes kiln's trace of the workload (kernels, wrapper, per-kernel times) to DIR.
--timeline also prints one step's GPU launches in order: the median duration of each and of the idle gap
before it, and the step's span from the first start to the last end (20 steps back to back).
"""
import argparse
import dataclasses
import json
import statistics
import tempfile
import time

import torch
from torch.profiler import ProfilerActivity, profile

import kiln
from kiln.tools import workloads as W


def main():
    p = argparse.ArgumentParser()
    p.add_argument("workload")
    p.add_argument("--train", action="store_true")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--size", default="gpu")
    p.add_argument("--batch", type=int, help="the size preset at this batch")
    p.add_argument("--trace", help="write kiln's trace, with per-kernel times, to this folder")
    p.add_argument("--timeline", action="store_true", help="print one step's launches in order, with gaps")
    p.add_argument("--host", action="store_true", help="also list the Python functions of 20 steps' host time")
    p.add_argument("--top", type=int, default=14, help="how many of the top kernels to list")
    a = p.parse_args()
    dtype = getattr(torch, a.dtype)
    w = W.workload(a.workload)
    if a.batch:
        w = dataclasses.replace(w, sizes={**w.sizes, a.size: dict(w.sizes[a.size], batch=a.batch)})
    m = w.make_module("cuda", dtype, a.size, train=a.train)
    xs = w.make_inputs("cuda", dtype, a.size)
    for name in ("inductor", "kiln"):
        torch._dynamo.reset()
        f = torch.compile(m, backend="inductor") if name == "inductor" else kiln.compile(
            m, options={"trace": a.trace, "trace_profile": True} if a.trace else None)

        def step():
            with torch.enable_grad() if a.train else torch.no_grad():   # (inference as the suite times it)
                out = f(*xs)
            if a.train and not getattr(m, "steps_itself", False):   # (a training step runs its own backward)
                out.backward()
        for _ in range(3):
            step()
        torch.cuda.synchronize()
        # host time per step: the CPU enqueues ten steps ahead of the GPU, then waits for them (median of 5)
        hosts, walls = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(10):
                step()
            hosts.append((time.perf_counter() - t0) / 10)
            torch.cuda.synchronize()
            walls.append((time.perf_counter() - t0) / 10)
        print(f"===== {name}: host {statistics.median(hosts) * 1e3:.3f} ms per step, wall "
              f"{statistics.median(walls) * 1e3:.3f} ms (10 steps, then a sync; median of 5)")
        if a.host:
            host_profile(step)
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                step()
            torch.cuda.synchronize()
        print(f"===== {name} {a.workload} {'train' if a.train else 'infer'}: top CUDA kernels, us per step")
        events = [e for e in prof.key_averages() if e.device_type == torch.autograd.DeviceType.CUDA]
        print(f"{sum(e.count for e in events) / 5:.0f} GPU kernels and copies per step, "
              f"{sum(e.device_time_total for e in events) / 5 / 1e3:.3f} ms of GPU time")
        for e in sorted(events, key=lambda e: -e.device_time_total)[:a.top]:
            print(f"{e.device_time_total / 5:10.1f}  x{e.count // 5:<3} {e.key[:90]}")
        if a.timeline:
            timeline(name, step)


def host_profile(step, steps=20):
    """The functions that take the host's time in a step (cProfile, own time first), for the wrapper's cost."""
    import cProfile
    import io
    import pstats
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(steps):
        step()
    prof.disable()
    torch.cuda.synchronize()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(25)
    print("\n".join(line for line in text.getvalue().splitlines() if line.strip())[:6000])


def timeline(name, step, steps=20):
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        prof.export_chrome_trace(f.name)
        events = json.load(open(f.name))["traceEvents"]
    launches = sorted((e for e in events if e.get("cat") in ("kernel", "gpu_memset", "gpu_memcpy")),
                      key=lambda e: e["ts"])
    n = len(launches) // steps
    runs = [launches[i * n:(i + 1) * n] for i in range(3, steps - 2)]   # the first and last steps overlap others
    span = statistics.median(r[-1]["ts"] + r[-1]["dur"] - r[0]["ts"] for r in runs)
    print(f"===== {name}: one step's GPU timeline, {n} launches, span {span:.1f} us (median of {len(runs)})")
    print("   gap us    dur us  launch")
    for i in range(n):
        gap = statistics.median(r[i]["ts"] - r[i - 1]["ts"] - r[i - 1]["dur"] for r in runs) if i else 0.0
        print(f"  {gap:7.1f} {statistics.median(r[i]['dur'] for r in runs):9.1f}  {runs[0][i]['name'][:90]}")


if __name__ == "__main__":
    main()
