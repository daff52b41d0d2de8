"""Top CUDA kernels of kiln and Inductor for one workload, side by side (torch.profiler).

    PYTHONPATH=. python3 scripts/gpu_profile.py gpt2_block [--train] [--dtype bfloat16] [--trace DIR]

--trace also writes kiln's trace of the workload (kernels, wrapper, per-kernel times) to DIR.
"""
import argparse
import statistics
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
    p.add_argument("--trace", help="write kiln's trace, with per-kernel times, to this folder")
    a = p.parse_args()
    dtype = getattr(torch, a.dtype)
    w = W.WORKLOADS[a.workload]
    m = w.make_module("cuda", dtype, a.size, train=a.train)
    xs = w.make_inputs("cuda", dtype, a.size)
    for name in ("inductor", "kiln"):
        torch._dynamo.reset()
        f = torch.compile(m, backend="inductor") if name == "inductor" else kiln.compile(
            m, options={"trace": a.trace, "trace_profile": True} if a.trace else None)

        def step():
            out = f(*xs)
            if a.train:
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
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                step()
            torch.cuda.synchronize()
        print(f"===== {name} {a.workload} {'train' if a.train else 'infer'}: top CUDA kernels, us per step")
        events = [e for e in prof.key_averages() if e.device_type == torch.autograd.DeviceType.CUDA]
        print(f"{sum(e.count for e in events) / 5:.0f} GPU kernels and copies per step, "
              f"{sum(e.device_time_total for e in events) / 5 / 1e3:.3f} ms of GPU time")
        for e in sorted(events, key=lambda e: -e.device_time_total)[:14]:
            print(f"{e.device_time_total / 5:10.1f}  x{e.count // 5:<3} {e.key[:90]}")


if __name__ == "__main__":
    main()
