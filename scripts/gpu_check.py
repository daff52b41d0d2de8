"""kiln on a GPU: correctness on CUDA, then the issue's benchmark against Inductor, in one process.

    PYTHONPATH=. python3 scripts/gpu_check.py --out DIR [--skip-bench] [--only NAME,...] [--rounds N]

Writes DIR/gpu_check.json and DIR/gpu_check.md (device, versions, date, command) and prints the table.
"""
import argparse
import datetime
import json
import os
import sys
import time
import types

import torch
import torch.nn.functional as F

import kiln
from kiln.tools import workloads as W


def rel_err(out, ref):
    out, ref = out.double(), ref.double()
    if torch.isnan(out).any() != torch.isnan(ref).any():
        return float("inf")
    return ((out - ref).norm() / ref.norm().clamp_min(1e-12)).item()


# ---------------------------------------------------------------- correctness on CUDA

def checks():
    dev = "cuda"
    yield "sincos fp32 1000003", lambda x: x.sin() ** 2 + x.cos() ** 2, [torch.randn(1000003, device=dev)]
    for dt in (torch.float16, torch.bfloat16, torch.float32):
        x = torch.randn(1031, 997, device=dev, dtype=dt)
        yield f"softmax {dt} 1031x997", lambda x: torch.softmax(x, -1), [x]
        yield f"manual softmax {dt} 257x8192", W.manual_softmax, [torch.randn(257, 8192, device=dev, dtype=dt)]
        yield f"log_softmax {dt} 33x20000 (looped)", lambda x: F.log_softmax(x, -1), \
            [torch.randn(33, 20000, device=dev, dtype=dt)]
        w, b = torch.randn(997, device=dev, dtype=dt), torch.randn(997, device=dev, dtype=dt)
        yield f"layer_norm {dt} 1031x997", lambda x, w, b: F.layer_norm(x, (997,), w, b), [x, w, b]
        yield f"gelu(x+b) {dt}", lambda x, b: F.gelu(x + b), [x, b]
        yield f"var/std {dt}", lambda x: (x.var(0), x.std(1)), [x + 100]
        yield f"argmax/amin {dt}", lambda x: (x.argmax(1), x.amin(0)), [x]
        yield f"transpose add {dt}", lambda x: x.t() * 2 + 1, [x]
    yield "embedding+sum", lambda w, i: F.embedding(i, w).sum(1), \
        [torch.randn(5000, 129, device=dev), torch.randint(0, 5000, (64, 77), device=dev)]
    yield "cat/pad", lambda x, y: F.pad(torch.cat([x, y], 1), (1, 3)), \
        [torch.randn(300, 33, device=dev), torch.randn(300, 7, device=dev)]
    yield "int ops", lambda a, b: (a // b, a % b, a.sum(0)), \
        [torch.randint(-99, 99, (1001,), device=dev), torch.randint(1, 9, (1001,), device=dev)]
    yield "full reduction 3M", lambda x: (x.sum(), x.amax()), [torch.randn(3000017, device=dev)]
    # repeated targets combine through atomics; a plain store gets distinct targets (repeats race, as in eager)
    yield "scatters (atomics)", lambda x, i, j, u: (
        x.index_put((i,), x[:4096] * 2, accumulate=True), x.index_put((u,), x[:4096]), x.index_add(0, i, x[:4096]),
        x.scatter_add(0, j, x[:, :7]), x.scatter_reduce(0, j, x[:, :7], "amax", include_self=False),
        x.scatter_reduce(0, j, x[:, :7], "mean")), \
        [torch.randn(10007, 64, device=dev), torch.randint(0, 10007, (4096,), device=dev),
         torch.randint(0, 10007, (10007, 7), device=dev), torch.randperm(10007, device=dev)[:4096]]
    S = torch.special
    yield "special functions (libdevice)", lambda x: (
        torch.erfinv(x / 5), torch.i0(x), S.i1(x), S.bessel_j0(x), S.bessel_j1(x), S.bessel_y0(x), S.bessel_y1(x),
        S.erfcx(x), S.ndtri(x / 5), torch.nextafter(x, -x)), [torch.rand(100003, device=dev) * 4 + 0.1]


def run_checks(results, only=()):
    for name, fn, args in checks():
        if only and not any(o in name for o in only):
            continue
        torch._dynamo.reset()
        try:
            out = kiln.compile(fn, options={"strict": True})(*args)
            ref = fn(*[a.double() if a.is_floating_point() else a for a in args])
            eager = fn(*args)
            outs, refs, eagers = (out, ref, eager) if isinstance(out, tuple) else ((out,), (ref,), (eager,))
            low = any(a.dtype in (torch.float16, torch.bfloat16) for a in args)
            err = max(rel_err(o, r) for o, r in zip(outs, refs))
            ok = err < (2e-2 if low else 1e-4) and all(o.dtype == e.dtype and o.shape == e.shape
                                                       for o, e in zip(outs, eagers))
        except Exception as e:  # a check that raises is a failed check, not a crashed script
            ok, err = False, f"{type(e).__name__}: {str(e)[:200]}"
        results.append({"check": name, "ok": bool(ok), "rel_err": err})
        print(f"{'PASS' if ok else 'FAIL'} {name}: {err}", flush=True)
    for train in (False, True) if not only else ():   # the design-document models, eval then training
        for wl in ("self_attention", "mha_mask", "resnet_block", "resnet_block_cl", "mlp", "gpt2_block"):
            torch._dynamo.reset()
            w = W.WORKLOADS[wl]
            try:
                m = w.make_module("cuda", torch.float32, "tiny", train=train)
                xs = w.make_inputs("cuda", torch.float32, "tiny")
                ref = m(*xs)
                out = kiln.compile(m, options={"strict": True})(*xs)
                err = rel_err(out, ref)
                ok = err < 1e-3
            except Exception as e:
                ok, err = False, f"{type(e).__name__}: {str(e)[:200]}"
            name = f"{wl} {'train' if train else 'eval'} fp32"
            results.append({"check": name, "ok": bool(ok), "rel_err": err})
            print(f"{'PASS' if ok else 'FAIL'} {name}: {err}", flush=True)


# ---------------------------------------------------------------- benchmark

def copy_bandwidth():
    from triton.testing import do_bench
    x = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    y = torch.empty_like(x)
    ms = do_bench(lambda: y.copy_(x), warmup=50, rep=300, return_mode="median")
    return 2 * x.numel() / ms / 1e9   # TB/s, bytes read plus bytes written


def bench_cases():
    """(name, fn or module, inputs, train, counts bytes) with the issue's sizes."""
    dev = "cuda"
    bf = torch.bfloat16
    yield "sin2+cos2 fp32 64M", W.SinCos(), [torch.randn(64 << 20, device=dev)], False, True
    yield "manual softmax bf16 8192x8192", W.Softmax(), [torch.randn(8192, 8192, device=dev, dtype=bf)], False, True
    ln = W.LayerNorm(8192).to(dev, bf)
    yield "layer_norm bf16 8192x8192", ln, [torch.randn(8192, 8192, device=dev, dtype=bf)], False, True
    gb = W.GeluBias(8192).to(dev, bf)
    yield "gelu(x+b) bf16 8192x8192", gb, [torch.randn(8192, 8192, device=dev, dtype=bf)], False, True
    sa = W.SelfAttention(4096).to(dev)
    yield "self-attention fp32 4x1024x4096", sa, [torch.randn(4, 1024, 4096, device=dev)], False, False
    for train in (False, True):
        g = W.WORKLOADS["gpt2_block"]
        m = g.make_module(dev, bf, "gpu", train=train)
        yield f"gpt2 block bf16 16x1024x768 {'train' if train else 'infer'}", m, g.make_inputs(dev, bf, "gpu"), \
            train, False
    r = W.WORKLOADS["resnet_block"]
    yield "resnet block eval fp32", r.make_module(dev, torch.float32, "gpu"), r.make_inputs(dev, torch.float32, "gpu"), \
        False, False
    rc = W.WORKLOADS["resnet_block_cl"]
    yield "resnet block train channels_last fp32", rc.make_module(dev, torch.float32, "gpu", train=True), \
        rc.make_inputs(dev, torch.float32, "gpu"), True, False


def timed(fn, inputs, train):
    from triton.testing import do_bench

    def step():
        out = fn(*inputs)
        if train:
            out.backward()
        return out
    step()
    step()
    return do_bench(step, warmup=100, rep=500, return_mode="median")


def io_bytes(inputs, out):
    return sum(t.numel() * t.element_size() for t in list(inputs) + [out])


def run_bench(rows, ceiling, only, rounds=3):
    """Each backend timed in `rounds` alternating rounds (recompiled each round, from warm caches); the best
    round's median counts, so that a drift of the machine during one backend's turn does not decide a ratio."""
    for name, fn, inputs, train, counts_bytes in bench_cases():
        if only and not any(o in name for o in only):
            continue
        row = {"workload": name}
        for round_ in range(rounds):
            for backend in ("eager", "inductor", "kiln"):
                if row.get(f"{backend}_error"):
                    continue
                torch._dynamo.reset()
                compiled = fn if backend == "eager" else (
                    torch.compile(fn, backend="inductor") if backend == "inductor" else kiln.compile(fn))
                try:
                    t0 = time.perf_counter()
                    out = compiled(*inputs)
                    if round_ == 0:
                        row[f"{backend}_first_call_s"] = time.perf_counter() - t0
                    ms = timed(compiled, inputs, train)
                    row[f"{backend}_rounds_ms"] = row.get(f"{backend}_rounds_ms", []) + [ms]
                    row[f"{backend}_ms"] = min(row[f"{backend}_rounds_ms"])
                except Exception as e:
                    row[f"{backend}_ms"] = None
                    row[f"{backend}_error"] = f"{type(e).__name__}: {str(e)[:300]}"
                if backend == "kiln":
                    row["kiln_stats"] = kiln.stats()
        if counts_bytes and row.get("kiln_ms"):
            nbytes = io_bytes(inputs, out) + sum(p.numel() * p.element_size() for p in getattr(fn, "parameters",
                                                                                              lambda: [])())
            row["bytes"] = nbytes
            for b in ("inductor", "kiln"):
                if row.get(f"{b}_ms"):
                    row[f"{b}_gbs"] = nbytes / row[f"{b}_ms"] / 1e6
                    row[f"{b}_pct_copy"] = 100 * row[f"{b}_gbs"] / (ceiling * 1e3)
        if row.get("kiln_ms") and row.get("inductor_ms"):
            row["kiln_vs_inductor"] = row["inductor_ms"] / row["kiln_ms"]
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "kiln_stats"}), flush=True)


def launch_overhead():
    """Host time per call of a graph of 50 tiny ops on an 8x8 tensor, where launching costs more than the work
    (kiln fuses the chain into one kernel; `kernels` counts kiln's)."""
    from triton.testing import do_bench

    def chain(x):
        for i in range(50):
            x = (x * 1.0001 + 0.5).sum(0, keepdim=True).expand(8, 8) if i % 2 else x.sin() + i
        return x
    x = torch.randn(8, 8, device="cuda")
    compiled, before = {}, kiln.stats()["kernels_generated"]
    for backend in ("inductor", "kiln"):   # each its own copy of the code: Dynamo caches per code object
        own = types.FunctionType(chain.__code__.replace(), chain.__globals__)
        compiled[backend] = torch.compile(own, backend="inductor") if backend == "inductor" else kiln.compile(own)
        compiled[backend](x)
    torch.cuda.synchronize()
    out, n = {}, 200
    for _ in range(5):   # alternating rounds, best of five: host timings pick up the odd pause
        for backend, f in compiled.items():
            t0 = time.perf_counter()
            for _ in range(n):
                f(x)
            torch.cuda.synchronize()
            us = (time.perf_counter() - t0) / n * 1e6
            out[f"{backend}_us_per_call"] = min(us, out.get(f"{backend}_us_per_call", us))
    for backend, f in compiled.items():
        out[f"{backend}_device_ms"] = do_bench(lambda: f(x), return_mode="median")
    out["kernels"] = kiln.stats()["kernels_generated"] - before
    return out


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.environ.get("OUT", "gpu_out"))
    p.add_argument("--skip-bench", action="store_true")
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds per workload (best round counts)")
    p.add_argument("--skip-checks", action="store_true")
    p.add_argument("--only", default="", help="comma-separated workloads to benchmark")
    p.add_argument("--checks", default="", help="comma-separated substrings: run only the checks they name")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    import triton
    meta = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
            "python": sys.version.split()[0], "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "command": "PYTHONPATH=. python3 scripts/gpu_check.py " + " ".join(argv or sys.argv[1:])}
    print(meta, flush=True)
    checks_out, rows = [], []
    if not args.skip_checks:
        run_checks(checks_out, [c for c in args.checks.split(",") if c])
    ceiling = copy_bandwidth()
    meta["copy_tb_s"] = ceiling
    print(f"copy ceiling {ceiling:.2f} TB/s", flush=True)
    overhead = {}
    if not args.skip_bench:
        run_bench(rows, ceiling, [o for o in args.only.split(",") if o], args.rounds)
        overhead = launch_overhead()
        print("launch overhead", overhead, flush=True)
    with open(os.path.join(args.out, "gpu_check.json"), "w") as f:
        json.dump({"meta": meta, "checks": checks_out, "bench": rows, "launch_overhead": overhead}, f, indent=1,
                  default=str)
    with open(os.path.join(args.out, "gpu_check.md"), "w") as f:
        f.write(markdown(meta, checks_out, rows, overhead))
    print(markdown(meta, checks_out, rows, overhead))
    return 0 if all(c["ok"] for c in checks_out) else 1


def markdown(meta, checks_out, rows, overhead):
    fmt = lambda v, spec: "-" if v is None else format(v, spec)  # noqa: E731
    lines = [f"# kiln on {meta['device']}", "",
             f"torch {meta['torch']}, Triton {meta['triton']}, Python {meta['python']}, {meta['date']}",
             f"command: `{meta['command']}`", f"copy ceiling: {meta['copy_tb_s']:.2f} TB/s (read + write)", "",
             f"checks: {sum(c['ok'] for c in checks_out)}/{len(checks_out)} passed", ""]
    lines += [f"- FAIL {c['check']}: {c['rel_err']}" for c in checks_out if not c["ok"]]
    lines += ["", "| workload | eager ms | Inductor ms | kiln ms | kiln/Inductor | kiln GB/s | % of copy |",
              "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['workload']} | {fmt(r.get('eager_ms'), '.3f')} | {fmt(r.get('inductor_ms'), '.3f')} | "
                     f"{fmt(r.get('kiln_ms'), '.3f')} | {fmt(r.get('kiln_vs_inductor'), '.2f')} | "
                     f"{fmt(r.get('kiln_gbs'), '.0f')} | {fmt(r.get('kiln_pct_copy'), '.0f')} |")
    if overhead:
        lines += ["", f"launch overhead (50-op graph): kiln {overhead['kiln_us_per_call']:.0f} us/call, "
                      f"Inductor {overhead['inductor_us_per_call']:.0f} us/call"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
