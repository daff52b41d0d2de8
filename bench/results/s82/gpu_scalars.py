"""Session 82, on a GPU, one JSON line per check:
- float_scalar: the wrapper's float scalars (math.sqrt(d) / 3 of a size under dynamic=True) reach Triton kernels as
  float64, so a float64 result built from one matches eager bit for bit (it kept float32's digits);
- cpu_scalars: 0-dim CPU tensors computed for GPU ops (x * (1 / math.sqrt(d)) under dynamic=True, which
  AOTAutograd turns into scalar_tensor(d) -> sqrt -> reciprocal on the CPU; torch.tensor(2.0) with no device read
  twice) are computed on the GPU, strict mode (the graph ran eagerly: a Triton kernel cannot read CPU memory);
- given_cpu_scalar: a CPU scalar the graph is given, read only by GPU ops, is copied to the GPU as the graph starts
  (strict mode; the graph ran eagerly);
- returned_cpu_scalar: a graph returning a CPU scalar runs eagerly, with correct results, not a crash."""
import json
import logging
import math

import torch

import kiln


def check(name, fn, args_list, **kwargs):
    torch._dynamo.reset()
    compiled = kiln.compile(fn, **kwargs)
    rows = []
    for args in args_list:
        got, want = compiled(*args), fn(*args)
        # (a float32 sum's order of additions is the compiler's: judged within float32's rounding of its terms;
        # float64 scalars and elementwise results bit for bit)
        rows.append(dict(equal=[bool(torch.allclose(g, w, rtol=1e-6, atol=1e-5) if g.dim() == 0 and
                                     g.dtype == torch.float32 else torch.equal(g, w)) for g, w in zip(got, want)],
                         devices=[str(g.device) for g in got],
                         max_abs=[float((g.double().cpu() - w.double().cpu()).abs().max()) for g, w in zip(got, want)]))
    print(json.dumps(dict(check=name, ok=all(all(r["equal"]) for r in rows), rows=rows)), flush=True)


def float_scalar(x, d):
    return x * 2, torch.scalar_tensor(math.sqrt(d) / 3, dtype=torch.float64, device=x.device)


def cpu_scalars(x, d):
    return x * (1 / math.sqrt(d)), x.double() * (1 / math.sqrt(d)), x.half() / math.sqrt(d)


def constant_read_twice(x):
    c = torch.tensor(2.5)
    return x * c, (x + c).sum()


def given_cpu_scalar(x, s):
    return x * s, (x / s.sqrt()).sum()


def returned_cpu_scalar(x):
    return x + 1, torch.tensor(3.0) + 1


sizes = ((7, 16), (10, 24), (13, 5), (33, 7))
check("float_scalar", float_scalar, [(torch.randn(3, n, device="cuda"), d) for n, d in sizes],
      dynamic=True, options={"strict": True})
check("cpu_scalars", cpu_scalars, [(torch.randn(3, n, device="cuda"), d) for n, d in sizes],
      dynamic=True, options={"strict": True})
check("constant_read_twice", constant_read_twice, [(torch.randn(64, 64, device="cuda"),)], options={"strict": True})
check("given_cpu_scalar", given_cpu_scalar, [(torch.randn(64, 64, device="cuda"), torch.tensor(v)) for v in (2.5, 3.0)],
      options={"strict": True})
logging.basicConfig(level=logging.WARNING)
check("returned_cpu_scalar", returned_cpu_scalar, [(torch.randn(64, device="cuda"),)])
