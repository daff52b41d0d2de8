"""Issue 19's tiny-op graph, by hand: would programmatic dependent launch (PDL, Hopper's griddepcontrol) shorten
a CUDA graph of small kernels? 26 Triton kernels in a chain (each: load a 64x64 fp32 tile, subtract its mean over
one dim, scale, store), captured in one CUDA graph; per-replay time with PDL off and on (launch_pdl=True, and the
kernel's first statement gdc_wait, so that it reads nothing before the kernel it depends on has finished). Also a
row-parallel variant (64 programs) and a 4096x4096 variant (to see the tail overlap on larger kernels).
Usage: s57_pdl_probe.py OUT.json"""
import json
import sys

import torch
import triton
import triton.language as tl

try:
    from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait
except ImportError:   # older Triton
    gdc_wait = gdc_launch_dependents = None


@triton.jit
def tile_step(x_ptr, out_ptr, DIM: tl.constexpr, PDL: tl.constexpr, EARLY: tl.constexpr):
    if PDL:
        gdc_wait()
        if EARLY:
            gdc_launch_dependents()
    r = tl.arange(0, 64)
    x = tl.load(x_ptr + r[:, None] * 64 + r[None, :])
    if DIM == 0:
        y = (x - (tl.sum(x, axis=0) / 64)[None, :]) * 1.01
    else:
        y = (x - (tl.sum(x, axis=1) / 64)[:, None]) * 1.01
    tl.store(out_ptr + r[:, None] * 64 + r[None, :], y)


@triton.jit
def row_step(x_ptr, out_ptr, N: tl.constexpr, BLOCK: tl.constexpr, PDL: tl.constexpr, EARLY: tl.constexpr):
    if PDL:
        gdc_wait()
        if EARLY:
            gdc_launch_dependents()
    row = tl.program_id(0)
    r = tl.arange(0, BLOCK)
    mask = r < N
    x = tl.load(x_ptr + row * N + r, mask=mask, other=0.0)
    y = (x - tl.sum(x, axis=0) / N) * 1.01
    tl.store(out_ptr + row * N + r, y, mask=mask)


def time_graph(launch_all, reps=2000):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            launch_all()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        launch_all()
    for _ in range(50):
        g.replay()
    torch.cuda.synchronize()
    best = None
    for _ in range(5):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps):
            g.replay()
        b.record()
        b.synchronize()
        us = a.elapsed_time(b) * 1e3 / reps
        best = us if best is None else min(best, us)
    return best


def time_stream(launch_all, reps=500):
    for _ in range(5):
        launch_all()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(reps):
        launch_all()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) * 1e3 / reps


def main():
    out = {"triton": triton.__version__, "torch": torch.__version__, "gdc": gdc_wait is not None,
           "device": torch.cuda.get_device_name()}
    x = torch.randn(64, 64, device="cuda")
    bufs = [x.clone(), torch.empty_like(x)]
    results = {}

    def chain(pdl, early, n=26):
        def run():
            for i in range(n):
                kw = {"launch_pdl": True} if pdl else {}
                tile_step[(1,)](bufs[i % 2], bufs[(i + 1) % 2], DIM=i % 2, PDL=pdl, EARLY=early, num_warps=4, **kw)
        return run
    ref = None
    for name, pdl, early in (("off", False, False), ("pdl_wait", True, False), ("pdl_wait_early", True, True)):
        try:
            bufs[0].copy_(x)
            chain(pdl, early)()
            torch.cuda.synchronize()
            value = bufs[0].clone()
            ref = value if ref is None else ref
            results[f"tile_{name}"] = {"graph_us": time_graph(chain(pdl, early)),
                                       "same_as_off": bool(torch.equal(value, ref))}
        except Exception as e:
            results[f"tile_{name}"] = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
        print(name, results[f"tile_{name}"], flush=True)
    for rows, n, block in ((64, 64, 64), (4096, 4096, 4096)):
        xb = torch.randn(rows, n, device="cuda")
        rb = [xb.clone(), torch.empty_like(xb)]

        def rchain(pdl, early):
            def run():
                for i in range(26):
                    kw = {"launch_pdl": True} if pdl else {}
                    row_step[(rows,)](rb[i % 2], rb[(i + 1) % 2], N=n, BLOCK=block, PDL=pdl, EARLY=early,
                                      num_warps=4 if block <= 1024 else 8, **kw)
            return run
        for name, pdl, early in (("off", False, False), ("pdl_wait", True, False), ("pdl_wait_early", True, True)):
            key = f"rows{rows}x{n}_{name}"
            try:
                results[key] = {"graph_us": time_graph(rchain(pdl, early), reps=200 if n > 64 else 2000),
                                "stream_us": time_stream(rchain(pdl, early), reps=50 if n > 64 else 500)}
            except Exception as e:
                results[key] = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
            print(key, results[key], flush=True)
    out["results"] = results
    json.dump(out, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()
