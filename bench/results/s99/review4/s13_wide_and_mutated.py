# Wide gapped inputs (h[:, -1] of a fresh h: span > 2x elements and > 1 MiB, read in place): mutated by the graph,
# returned, expanded too, in training, dynamic=True across the 1 MiB line; and inputs read beyond their elements
# that the graph also mutates (after the read). Every result, mutated input and gradient compared with eager, results
# kept to the end.   usage: s13_wide_and_mutated.py
import torch
from harness import *
from kiln.runtime import cuda_graphs
W = torch.randn(256, 256) / 16
def run(name, f, make, calls=8, dyn=None, train=False, params=()):
    setup(); torch.manual_seed(1)
    g, kept, bad, held = compiled(f, dynamic=dyn), [], 0, []
    for t in range(calls):
        a1, a2 = make(t), None
        held.append(a1)
        a2 = [torch.empty(0).set_(a.untyped_storage().clone() if not a.requires_grad else a.detach().untyped_storage().clone(), a.storage_offset(), a.shape, a.stride()) for a in a1]
        if train: a2 = [b.requires_grad_() for b in a2]; a1 = [a.requires_grad_() if a.is_leaf else a for a in a1]
        for p in params: p.grad = None
        out = g(*a1); outs = out if isinstance(out, tuple) else (out,)
        gb = False
        if train:
            sum(o.sum() for o in outs).backward(); pg = [p.grad.clone() for p in params] + [a.grad.clone() for a in a1]
            for p in params: p.grad = None
        ref = f(*a2); refs = ref if isinstance(ref, tuple) else (ref,)
        if train:
            sum(r.sum() for r in refs).backward(); rg = [p.grad.clone() for p in params] + [a.grad.clone() for a in a2]
            gb = any(not torch.allclose(x, y, atol=1e-4) for x, y in zip(pg, rg))
        ob = any(not torch.allclose(o.detach(), r.detach(), atol=1e-4) for o, r in zip(outs, refs))
        mb = any(not torch.allclose(torch.empty(0).set_(a.detach().untyped_storage()), torch.empty(0).set_(b.detach().untyped_storage()), atol=1e-5) for a, b in zip(a1, a2))
        if ob or gb or mb: bad += 1; print(f"  {name}: call {t} WRONG", "outputs" if ob else "", "grads" if gb else "", "storages" if mb else "")
        kept.append(([o.detach() for o in outs], [r.detach() for r in refs]))
    later = sum(not all(torch.allclose(o, r, atol=1e-4) for o, r in zip(a, b)) for a, b in kept)
    print(f"{name:46s} wrong {bad}/{calls}, kept wrong {later}", stats())

wide = lambda t: (torch.randn(4, 512, 256)[:, -1],)
assert not getattr(cuda_graphs, "copyable", lambda t: False)(wide(0)[0])
run("wide", lambda x: torch.tanh(x @ W), wide)
def mut(x):
    x.mul_(2)
    return x @ W
run("wide, mutated by the graph", mut, wide)
run("wide, returned and a view of it", lambda x: (x, x[1:], x @ W), wide)
run("wide + expanded", lambda x: torch.tanh(x @ W), lambda t: (torch.randn(4, 512, 256)[:, -1][None].expand(3, 4, 256),))
run("wide, training (input grads)", lambda x: torch.tanh(x @ W), lambda t: (torch.randn(4, 512, 256)[:, -1],), train=True)
run("wide over 1 MiB only at some sizes, dynamic", lambda x: torch.tanh(x @ W), lambda t: (torch.randn(1 + 3 * (t % 2), 512, 256)[:, -1],), dyn=True, calls=10)
def readmut(x):
    y = x.as_strided((4, 4), (4, 1), 0) + 1
    x.mul_(2)
    return y
run("read before its first element, then mutated", readmut, lambda t: (torch.randn(10, 4)[2:],))
def readmut2(x, m):
    y = x.as_strided((4, 4), (4, 1), 0) * m
    x.add_(m[:, :1].sum())
    return y
run("read before, mutated, with an expanded input", readmut2, lambda t: (torch.randn(10, 4)[2:], torch.randn(4).expand(4, 4)))
