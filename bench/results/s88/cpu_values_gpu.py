"""Issue 19 on a real GPU: graphs whose CPU scalars GPU ops read, or which return a CPU value beside GPU work,
compiled by kiln (strict: a graph that would run eagerly raises) and checked against eager. One JSON line a case.
    PYTHONPATH=. python3 bench/results/s88/cpu_values_gpu.py OUT.json"""
import json
import math
import sys

import torch

import kiln


def scaled_by_cpu_scalars(x):
    root = torch.scalar_tensor(7, dtype=torch.float64).sqrt()
    return x * (1 / root), x.double() / root, torch.scalar_tensor(3.0) + 1


def returns_a_cpu_value(x):
    return (x.sin() * 2).sum(0), torch.tensor(3.0) + 1


def given_a_cpu_scalar(x, s):
    return x * (s * 2).sqrt()


def scaled_by_a_size(x):
    return (x @ x.T) * (1 / math.sqrt(x.shape[-1]))


CASES = [("scaled_by_cpu_scalars", scaled_by_cpu_scalars, lambda: (torch.randn(64, 64, device="cuda"),), False),
         ("returns_a_cpu_value", returns_a_cpu_value, lambda: (torch.randn(64, 64, device="cuda"),), False),
         ("given_a_cpu_scalar", given_a_cpu_scalar,
          lambda: (torch.randn(64, 64, device="cuda"), torch.tensor(3.0, dtype=torch.float64)), False),
         ("scaled_by_a_size_dynamic", scaled_by_a_size, lambda: (torch.randn(48, 64, device="cuda"),), True)]

rows = []
for name, fn, make, dynamic in CASES:
    row = {"case": name}
    try:
        torch._dynamo.reset()
        compiled = torch.compile(fn, backend="kiln", dynamic=dynamic, options={"strict": True})
        for shape_step in range(2):
            args = make()
            if dynamic and shape_step:
                args = (torch.randn(40, 72, device="cuda"),)
            want, got = fn(*args), compiled(*args)
            want = want if isinstance(want, tuple) else (want,)
            got = got if isinstance(got, tuple) else (got,)
            row[f"call{shape_step}"] = [
                {"device": str(g.device), "want_device": str(w.device), "dtype_ok": g.dtype == w.dtype,
                 "max_err": float((g.double() - w.double()).abs().max())} for g, w in zip(got, want)]
        row["ok"] = all(o["device"] == o["want_device"] and o["dtype_ok"] and o["max_err"] < 1e-4
                        for k in ("call0", "call1") for o in row[k])
    except Exception as e:   # noqa: BLE001 - a row per case, whatever it raised
        row["error"] = f"{type(e).__name__}: {e}"[:2000]
        row["ok"] = False
    rows.append(row)
    print(json.dumps(row), flush=True)
json.dump(rows, open(sys.argv[1], "w"), indent=1)
