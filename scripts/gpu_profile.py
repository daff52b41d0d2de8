"""Top CUDA kernels of kiln and Inductor for one workload, side by side (torch.profiler).

    PYTHONPATH=. python3 scripts/gpu_profile.py gpt2_block [--train [--amp]] [--dtype bfloat16] [--trace DIR]
        [--timeline] [--size gpu] [--batch N] [--top N] [--host] [--sync] [--backends inductor,kiln] [--freezing]

--amp runs the step under bf16 autocast (fp32 weights), as `gpu_models.py --train --amp` times it.
--host also lists the Python functions that take the host's time (cProfile of 20 steps), and the ops' own host time.
--sync also times the host with the GPU held busy (its own time, whether a step waits for the GPU, and where).
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
    p.add_argument("--amp", action="store_true", help="the step under bf16 autocast")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--size", default="gpu")
    p.add_argument("--batch", type=int, help="the size preset at this batch")
    p.add_argument("--trace", help="write kiln's trace, with per-kernel times, to this folder")
    p.add_argument("--timeline", action="store_true", help="print one step's launches in order, with gaps")
    p.add_argument("--host", action="store_true", help="also list the Python functions of 20 steps' host time")
    p.add_argument("--top", type=int, default=14, help="how many of the top kernels to list")
    p.add_argument("--sync", action="store_true", help="also time the host with the GPU held busy, and name the calls "
                   "that wait for the GPU")
    p.add_argument("--backends", default="inductor,kiln")
    p.add_argument("--freezing", action="store_true", help="inference with freezing on (kiln's option, Inductor's "
                   "config)")
    a = p.parse_args()
    if a.freezing:
        import torch._inductor.config as inductor_config   # (a script: kiln itself never names Inductor)
        inductor_config.freezing = True
    dtype = getattr(torch, a.dtype)
    w = W.workload(a.workload)
    if a.batch:
        w = dataclasses.replace(w, sizes={**w.sizes, a.size: dict(w.sizes[a.size], batch=a.batch)})
    m = w.make_module("cuda", dtype, a.size, train=a.train)
    xs = w.make_inputs("cuda", dtype, a.size)
    if a.sync:
        time_kiln_wrappers()
    for name in a.backends.split(","):
        torch._dynamo.reset()
        options = {"trace": a.trace, "trace_profile": True} if a.trace else {}
        if a.freezing:
            options["freezing"] = True
        f = torch.compile(m, backend="inductor") if name == "inductor" else kiln.compile(m, options=options or None)

        def step():
            with torch.enable_grad() if a.train else torch.no_grad(), \
                    torch.autocast("cuda", torch.bfloat16, enabled=a.amp):   # (inference as the suite times it)
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
        if a.sync:
            sync_report(step)
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


class HostSplit:
    """Times the compiled graphs' own calls, and within kiln's its kernel launches and library calls, by patching
    their classes while in use (each timed call costs a few hundred ns more)."""

    def __init__(self):
        import kiln.lowering.externs
        import kiln.runtime.triton_launch
        from torch._inductor.output_code import CompiledFxGraph
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner
        self.patched = [(CompiledFxGraph, "__call__", "inductor graphs"),
                        (CachingAutotuner, "run", "inductor launches"),
                        (kiln.runtime.triton_launch.Launcher, "__call__", "kiln launches"),
                        (kiln.lowering.externs.OpThen, "__call__", "kiln OpThen calls")]
        self.seconds, self.calls = {}, {}

    def __enter__(self):
        self.saved = [getattr(cls, attr) for cls, attr, _ in self.patched]
        for (cls, attr, key), fn in zip(self.patched, self.saved):
            self.seconds[key], self.calls[key] = 0.0, 0

            def timed(*args, _fn=fn, _key=key, **kwargs):
                t0 = time.perf_counter()
                try:
                    return _fn(*args, **kwargs)
                finally:
                    self.seconds[_key] += time.perf_counter() - t0
                    self.calls[_key] += 1
            setattr(cls, attr, timed)
        WRAPPER_SECONDS[:] = [0.0, 0]
        return self

    def __exit__(self, *exc):
        for (cls, attr, _), fn in zip(self.patched, self.saved):
            setattr(cls, attr, fn)
        self.seconds["kiln graphs"], self.calls["kiln graphs"] = WRAPPER_SECONDS
        for key in [k for k, n in self.calls.items() if n == 0]:
            del self.seconds[key], self.calls[key]


def time_kiln_wrappers():
    """Wraps each kiln graph's wrapper as it loads, timing its calls into WRAPPER_SECONDS (for --sync)."""
    import kiln.capture
    load = kiln.capture.load

    def timed_load(*args, **kwargs):
        compiled = load(*args, **kwargs)
        call = compiled.call

        def timed(*a):
            t0 = time.perf_counter()
            try:
                return call(*a)
            finally:
                WRAPPER_SECONDS[0] += time.perf_counter() - t0
                WRAPPER_SECONDS[1] += 1
        return dataclasses.replace(compiled, call=timed)
    kiln.capture.load = timed_load


WRAPPER_SECONDS = [0.0, 0]


def sync_report(step, steps=2):
    """The host's own time per step, with the GPU held busy by a sleeping kernel so that it never waits for the
    host: a step that waits for the GPU (a copy to the host, a synchronizing call) waits for the whole sleep,
    and torch's sync debug mode names where."""
    import traceback
    import warnings
    hosts, waited = [], False
    for _ in range(5):
        torch.cuda.synchronize()
        torch.cuda._sleep(int(2e9))   # about a second
        t0 = time.perf_counter()
        for _ in range(steps):   # (few: a full launch queue would make the host wait too)
            step()
        hosts.append((time.perf_counter() - t0) / steps)
        waited |= torch.cuda.current_stream().query()
    torch.cuda.synchronize()
    host = statistics.median(hosts)
    print(f"===== host {host * 1e3:.3f} ms per step with the GPU held busy (median of 5) "
          f"({'a step waited for the GPU' if waited else 'no step waited for the GPU'})")
    torch.cuda._sleep(int(2e9))
    with HostSplit() as split:
        for _ in range(steps):
            step()
    torch.cuda.synchronize()
    print("host split, ms per step: " + ", ".join(f"{k} {v / steps * 1e3:.3f} ({split.calls[k] // steps} calls)"
                                                  for k, v in split.seconds.items()))
    seen = {}

    def record(message, *rest):
        stack = "".join(traceback.format_stack(limit=10)[:-2])
        seen.setdefault(str(message) + stack, 0)
        seen[str(message) + stack] += 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = record
            torch.cuda.set_sync_debug_mode("warn")
            step()
    finally:
        torch.cuda.set_sync_debug_mode(0)
    print(f"{sum(seen.values())} synchronizing calls in a step")
    for text, n in list(seen.items())[:5]:
        print(f"--- x{n}: {text}")


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
    # the ops' own host time (the dispatcher, cuDNN's plan lookups, allocations), which cProfile sees only as
    # the builtin that calls them
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    print(f"===== host time by op, us per step (self time; {steps} steps)")
    events = sorted(prof.key_averages(), key=lambda e: -e.self_cpu_time_total)
    print(f"total {sum(e.self_cpu_time_total for e in events) / steps:.0f} us")
    for e in events[:30]:
        print(f"{e.self_cpu_time_total / steps:9.1f}  x{e.count // steps:<4} {e.key[:90]}")


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
