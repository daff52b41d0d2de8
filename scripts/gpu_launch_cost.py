"""Host time of one Triton launch, piece by piece, and a compiled graph's host time a call, kiln beside Inductor
(issue 16: the conv nets' training steps are bound by launches):

    PYTHONPATH=. python3 scripts/gpu_launch_cost.py --out DIR

Pieces (median microseconds a call over batches of back-to-back calls of one small add kernel): kiln's Launcher
through its C launcher and through Triton's binary launcher (KILN_TRITON_LAUNCHER's path), the C launch alone,
the specialization key, the current stream, Triton's binary launcher and its JIT, an ATen add(out=) and an
empty_strided for scale. Graphs: a chain of 12 reductions and pointwise ops compiled by each backend, timed from
the call to its return while a sleeping kernel holds the GPU (so the host's work alone is timed), with the
launches of a call counted by torch.profiler. Writes DIR/launch_cost.json.
"""
import argparse
import json
import os
import tempfile
import time

import torch
import triton
import triton.language as tl

from kiln.runtime import triton_launch
from kiln.runtime.triton_launch import Launcher, get_raw_stream


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)


def per_call_us(fn, calls=200, batches=30):
    times = []
    for _ in range(batches):
        torch.cuda.synchronize()
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - started) / calls * 1e6)
    return round(sorted(times)[batches // 2], 2)


def pieces():
    triton_launch.load_c_launcher(tempfile.mkdtemp())
    x, y = torch.randn(1024, device="cuda"), torch.randn(1024, device="cuda")
    out = torch.empty_like(x)
    args = (x, y, out, 1024, 1024)
    launch = Launcher(add, 4)
    launch(1, *args)   # (built through the JIT: the variants are made)
    r = {"c_launcher_loaded": launch.fast is not None}
    r["launcher_c_us"] = per_call_us(lambda: launch(1, *args))
    if launch.fast is not None:
        variant, stream = launch.fast[0], get_raw_stream(launch.fast[1])
        r["c_launch_alone_us"] = per_call_us(lambda: triton_launch.launch_variant(variant, 1, stream, args))
    out.zero_()
    launch(1, *args)
    r["c_launch_correct"] = bool(torch.equal(out, x + y))
    launch.fast, launch.variants = None, {}
    r["launcher_triton_us"] = per_call_us(lambda: launch(1, *args))
    compiled, stream = launch.compiled[launch.specialization(args)], get_raw_stream(0)
    r["specialization_us"] = per_call_us(lambda: launch.specialization(args))
    r["current_stream_us"] = per_call_us(lambda: get_raw_stream(0))
    r["triton_binary_launcher_us"] = per_call_us(lambda: compiled.run(
        1, 1, 1, stream, compiled.function, compiled.packed_metadata, None, None, None, *args))
    r["triton_jit_us"] = per_call_us(lambda: add[(1,)](x, y, out, 1024, BLOCK=1024))
    r["aten_add_out_us"] = per_call_us(lambda: torch.add(x, y, out=out))
    r["empty_strided_us"] = per_call_us(lambda: torch.empty_strided((1024,), (1,), device="cuda"))
    return r


def chain(x):
    for i in range(12):
        x = torch.sin(x / x.sum(i % 2, keepdim=True)) * 2
    return x


def graphs():
    from torch.profiler import ProfilerActivity, profile
    import kiln  # noqa: F401 (registers the backend)
    rows = {}
    for backend in ("inductor", "kiln"):
        torch._dynamo.reset()
        f = torch.compile(chain, backend=backend)
        a = torch.randn(256, 256, device="cuda")
        for _ in range(3):
            f(a)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as p:
            f(a)
            torch.cuda.synchronize()
        launches = sum(1 for e in p.events() if e.device_type == torch.autograd.DeviceType.CUDA)
        times = []
        for _ in range(41):
            torch.cuda.synchronize()
            torch.cuda._sleep(20_000_000)   # the GPU busy: the call returns when the host's work is done
            started = time.perf_counter()
            f(a)
            times.append((time.perf_counter() - started) * 1e6)
        torch.cuda.synchronize()
        host = sorted(times)[20]
        rows[backend] = {"launches": launches, "host_us_a_call": round(host, 1),
                         "host_us_a_launch": round(host / max(launches, 1), 2)}
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    result = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
              "pieces": pieces(), "graphs": graphs()}
    print(json.dumps(result, indent=1))
    with open(os.path.join(a.out, "launch_cost.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
