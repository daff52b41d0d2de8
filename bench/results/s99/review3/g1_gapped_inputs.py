# Inputs with gaps / strided / offset / expanded / aliasing, each at a fresh place per call (so copied), every
# result and every mutated base compared with eager, results kept across later calls.   usage: g1_gapped_inputs.py
import sys, torch
from harness import *
w = torch.randn(4, 4)

def check(name, f, make, calls=8, mutates=False):
    setup(); torch.manual_seed(0)
    g, kept = compiled(f), []
    for t in range(calls):
        args = make()
        ref_args = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        # eager on views of clones of the bases, so the reference sees the same layouts
        bases = [a._base if isinstance(a, torch.Tensor) and a._base is not None else a for a in args]
        cb = {id(b): b.clone() for b in bases if isinstance(b, torch.Tensor)}
        ref_args = [torch.as_strided(cb[id(b)], a.shape, a.stride(), a.storage_offset()) if isinstance(a, torch.Tensor)
                    else a for a, b in zip(args, bases)]
        out, ref = g(*args), f(*ref_args)
        out = out if isinstance(out, tuple) else (out,); ref = ref if isinstance(ref, tuple) else (ref,)
        for o, r in zip(out, ref): close(o, r)
        for b in bases:
            if isinstance(b, torch.Tensor): close(b, cb[id(b)])   # mutations written back, gaps untouched
        kept.append((out, ref))
    for out, ref in kept:
        for o, r in zip(out, ref): close(o, r)
    print(f"{name:34s} ok", stats())

gapped = lambda: (torch.randn(8, 8)[:, :4],)
check("gapped", lambda x: torch.tanh(x @ w) + x, gapped)
check("gapped+offset step2", lambda x: torch.tanh(x @ w[:2, :2]) * 2, lambda: (torch.randn(9, 9)[1:, 2:6:2],))
check("transposed", lambda x: torch.tanh(x @ w) + 1, lambda: (torch.randn(4, 8).t(),))
check("transposed gapped", lambda x: torch.tanh(x @ w) + 1, lambda: (torch.randn(6, 8)[:4].t(),))
def mut(x):
    x.mul_(2).add_(1); return x.sum(1)
check("mutated gapped", mut, gapped)
check("mutated transposed gapped", mut, lambda: (torch.randn(6, 8)[:4].t(),))
def mut_ret(x):
    x.add_(1); return x, x * 3
check("mutated gapped returned", mut_ret, gapped)
check("view of gapped returned", lambda x: (x.t(), x[1:3] * 2, x + 1), gapped)
check("expanded", lambda x: torch.tanh(x @ w) + x, lambda: (torch.randn(1, 4).expand(8, 4),))
check("expanded via stride0 col", lambda x: x * 2 + 1, lambda: (torch.randn(8, 1).expand(8, 4),))
def two(a, b):
    return a * 2 + b
def two_slices():
    base = torch.randn(8, 8); return base[:, :4], base[:, 2:6]
check("two overlapping slices", two, two_slices)
def two_mut(a, b):
    a.add_(1); return b * 2
check("two overlapping slices, a mutated", two_mut, two_slices)
def two_disjoint():
    base = torch.randn(8, 8); return base[:, :4], base[:, 4:]
def disj_mut(a, b):
    b.mul_(3); return a + 1
check("two disjoint slices, b mutated", disj_mut, two_disjoint)
def interleaved():
    base = torch.randn(8, 8); return base[:, ::2], base[:, 1::2]
def inter_mut(a, b):
    a.add_(b); b.mul_(2); return a.sum()
check("interleaved slices, both mutated", inter_mut, interleaved)
print("done")
