"""What the default bounds check on indices read from memory costs: kiln with and without it, in one process,
in alternating rounds, on gather/embedding workloads.

    PYTHONPATH=. python3 scripts/index_check_cost.py [--device cuda] [--rounds 5]
"""
import argparse
import statistics
import time
import types

import torch
import torch.nn.functional as F

import kiln
from kiln.lowering import indexing, pooling, reductions, sorting
from kiln.ir import ops


def workloads(device, dtype):
    vocab, hidden, tokens = 50257, 768, (8, 512)
    w = torch.randn(vocab, hidden, device=device, dtype=dtype)
    ids = torch.randint(0, vocab, tokens, device=device)
    x = torch.randn(4096, 1024, device=device, dtype=dtype)
    rows = torch.randint(0, 4096, (4096, 1024), device=device)
    return {
        "embedding+add (GPT-2 wte, 8x512 tokens)": (lambda w, i: F.embedding(i, w) * 2 + 1, (w, ids)),
        "gather along dim 0 (4096x1024)": (lambda x, i: x.gather(0, i) + 1, (x, rows)),
        "index_put accumulate (4096x1024)": (lambda x, i: x.index_put((i[:, 0],), x, accumulate=True), (x, rows)),
    }


def timer(device):
    if device == "cuda":
        from triton.testing import do_bench
        return lambda f: do_bench(f, warmup=25, rep=100, return_mode="median")

    def cpu(f):
        times = []
        for _ in range(15):
            t = time.perf_counter()
            f()
            times.append((time.perf_counter() - t) * 1e3)
        return statistics.median(times)
    return cpu


def compiled(fn, args, checked):
    """fn compiled (now: the patch holds only while it compiles) with or without the check, under a code object
    of its own, so that Dynamo's cache keeps both."""
    fn = types.FunctionType(fn.__code__.replace(co_name=f"{fn.__name__}_{checked}"), fn.__globals__)
    users = [m for m in (indexing, pooling, reductions, sorting) if getattr(m, "indirect", None) is indexing.indirect]
    original = indexing.indirect
    if not checked:
        for m in users:   # each op module binds the name on import
            m.indirect = lambda value, size, wrap=False: ops.indirect_indexing(value, size, check=False, wrap=wrap)
    try:
        f = kiln.compile(fn, options={"strict": True})
        f(*args)
        return f
    finally:
        for m in users:
            m.indirect = original


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    time_of = timer(a.device)
    print(f"| workload | kiln checked ms | kiln unchecked ms | checked / unchecked |  ({a.device}, {a.dtype})")
    print("|---|---|---|---|")
    for name, (fn, args) in workloads(a.device, getattr(torch, a.dtype)).items():
        fs = {checked: compiled(fn, args, checked) for checked in (True, False)}
        fs = {c: (lambda f=f: f(*args)) for c, f in fs.items()}
        times = {True: [], False: []}
        for _ in range(a.rounds):
            for checked in (True, False):
                times[checked].append(time_of(fs[checked]))
        t1, t0 = statistics.median(times[True]), statistics.median(times[False])
        print(f"| {name} | {t1:.3f} | {t0:.3f} | {t1 / t0:.3f} |", flush=True)


if __name__ == "__main__":
    main()
