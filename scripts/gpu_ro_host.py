"""Where a reduce-overhead call spends its host time, kiln against Inductor (bf16 inference, one process).

    PYTHONPATH=. python3 scripts/gpu_ro_host.py --out DIR [--rows llama:1,gpt2:2] [--calls 300] [--train]

For each row: both compiled in reduce-overhead and warmed up (recorded, replayed), and kiln once more as
"kiln_pycheck", its recordings checking the addresses of the inputs read in place in Python (as on a CPU build
of torch). (Session 49's calls 5 and 6 also ran "kiln_copy", against a version that handed out the graph's memory,
since reverted: bench/NOTES.md 71.) Then, per variant, the
wall time of `calls` calls queued back to back (host-bound calls: the host's time per call), the GPU time of
one replay (CUDA events around a synchronized call), and a cProfile of 100 calls (top functions by own time and
by cumulative time) written to DIR/<model>_b<batch>_<backend>.prof.txt with --profiles; and the GPU's side of 20 calls queued
back to back (torch.profiler): kernels and copies per call, their summed time, the span from the first GPU
activity to the last over the calls' count (what the stream spends a call on), and the largest kernels by name.
Writes ro_host.json under DIR."""
import argparse
import cProfile
import dataclasses
import io
import json
import os
import pstats
import tempfile
import time

for var in ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):
    os.environ[var] = tempfile.mkdtemp(prefix=var.lower())

import torch  # noqa: E402

import kiln  # noqa: E402
from kiln.tools.workloads import workload  # noqa: E402


def compiled(module, backend):
    if backend.startswith("kiln"):
        return kiln.compile(module, mode="reduce-overhead", dynamic=False)
    return torch.compile(module, mode="reduce-overhead", dynamic=False)


def gpu_side(step, calls=20):
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        for _ in range(calls):
            step()
        torch.cuda.synchronize()
    events = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    events.sort(key=lambda e: e.time_range.start)
    if not events:
        return {"gpu_events": 0}
    first, last = events[0].time_range.start, max(e.time_range.end for e in events)
    busy, by_name = 0.0, {}
    for e in events:
        d = e.time_range.end - e.time_range.start
        busy += d
        by_name[e.name] = by_name.get(e.name, 0.0) + d
    top = sorted(by_name.items(), key=lambda kv: -kv[1])[:25]
    return {"gpu_events_per_call": len(events) / calls, "gpu_busy_us_per_call": busy / calls,
            "gpu_span_us_per_call": (last - first) / calls,
            "top": [[name[:90], t / calls] for name, t in top]}


def row(name, batch, calls, out, profiles, train):
    """train: an fp32 training step (forward and backward recorded) instead of bf16 inference"""
    from kiln.tools.bench import _make_step
    w = workload(name)
    w = dataclasses.replace(w, sizes={**w.sizes, "small_batch": dict(w.sizes["gpu"], batch=batch)})
    dtype = torch.float32 if train else torch.bfloat16
    module = w.make_module("cuda", dtype, "small_batch", train)
    inputs = w.make_inputs("cuda", dtype, "small_batch")
    result = {"model": name, "batch": batch, "train": train}
    steps = {}
    from kiln.runtime import cuda_graphs
    check = cuda_graphs.addresses_equal_in_cpp
    for backend in ("kiln", "kiln_pycheck", "inductor"):
        torch._dynamo.reset()
        step = _make_step(compiled(module, backend), inputs, train)
        if backend == "kiln_pycheck":   # (its recordings are made in the warm-up calls)
            cuda_graphs.addresses_equal_in_cpp = cuda_graphs.addresses_equal
        for _ in range(5):
            step()
        cuda_graphs.addresses_equal_in_cpp = check
        torch.cuda.synchronize()
        steps[backend] = step
    for backend, step in list(steps.items()) * 2:   # alternating: the second round's figures are kept
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            step()
        queued = time.perf_counter() - start
        torch.cuda.synchronize()
        total = time.perf_counter() - start
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        gpu = []
        for _ in range(20):
            torch.cuda.synchronize()
            e0.record()
            step()
            e1.record()
            torch.cuda.synchronize()
            gpu.append(e0.elapsed_time(e1))
        result[f"{backend}_queue_us_per_call"] = queued / calls * 1e6
        result[f"{backend}_wall_us_per_call"] = total / calls * 1e6
        result[f"{backend}_gpu_us_median"] = sorted(gpu)[len(gpu) // 2] * 1e3
    for backend, step in steps.items():
        try:
            result[f"{backend}_gpu_side"] = gpu_side(step)
        except Exception as e:   # noqa: BLE001 (a row, never a crash)
            result[f"{backend}_gpu_side"] = f"{type(e).__name__}: {e}"[:300]
        if not profiles:
            continue
        profile = cProfile.Profile()
        torch.cuda.synchronize()
        profile.enable()
        for _ in range(100):
            step()
        profile.disable()
        torch.cuda.synchronize()
        text = io.StringIO()
        stats = pstats.Stats(profile, stream=text)
        stats.sort_stats("tottime").print_stats(45)
        stats.sort_stats("cumulative").print_stats(60)
        with open(os.path.join(out, f"{name}_b{batch}_{backend}.prof.txt"), "w") as f:
            f.write(text.getvalue())
    for backend in ("kiln", "kiln_pycheck"):
        result[f"{backend}_vs_inductor_wall"] = result["inductor_wall_us_per_call"] / result[f"{backend}_wall_us_per_call"]
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--rows", default="llama:1,gpt2:2")
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--profiles", action="store_true", help="also cProfile 100 calls of each variant")
    p.add_argument("--train", action="store_true", help="fp32 training steps instead of bf16 inference")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for spec in args.rows.split(","):
        name, batch = spec.split(":")
        rows.append(row(name, int(batch), args.calls, args.out, args.profiles, args.train))
        print(json.dumps(rows[-1]), flush=True)
        with open(os.path.join(args.out, "ro_host.json"), "w") as f:
            json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(), "rows": rows,
                       "c_check": hasattr(torch._C, "_tensors_data_ptrs_at_indices_equal")}, f, indent=1)


if __name__ == "__main__":
    main()
