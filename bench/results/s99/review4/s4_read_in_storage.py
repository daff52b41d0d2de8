# Inputs read by an as_strided beyond their elements (gaps, before, after), at a new place at each call unless
# said otherwise: inference, returned as a view, mutated by the graph, expanded, a parameter, training (input and
# weight gradients), dynamic=True. Every output and gradient, kept to the end, compared with eager.
# usage: s4_read_in_storage.py [case-substring]
import sys, torch
from harness import *
only = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else ""
w = torch.randn(4, 4)
def run(name, f, make, calls=8, dyn=None, train=False, params=()):
    if only not in name: return
    setup(); torch.manual_seed(0)
    g, kept, bad = compiled(f, dynamic=dyn), [], 0
    for t in range(calls):
        a1 = make(t); a2 = [a.detach().clone() if isinstance(a, torch.Tensor) else a for a in a1]
        # a2: eager's own copies with the same storage around them
        a2 = []
        for a in a1:
            if isinstance(a, torch.Tensor) and not isinstance(a, torch.nn.Parameter):
                s = a.detach().untyped_storage(); c = torch.empty(0, dtype=a.dtype).set_(s.clone(), a.storage_offset(), a.shape, a.stride())
                a2.append(c.requires_grad_(a.requires_grad))
            else: a2.append(a)
        for p in params: p.grad = None
        out = g(*a1)
        pg = [p.grad for p in params]
        for p in params: p.grad = None
        ref = f(*a2)
        outs, refs = (out if isinstance(out, tuple) else (out,)), (ref if isinstance(ref, tuple) else (ref,))
        if train:
            sum(o.sum() for o in outs).backward(); pg = [p.grad.clone() for p in params]; for_p = [p.grad for p in params]
            for p in params: p.grad = None
            sum(r.sum() for r in refs).backward(); rg = [p.grad.clone() for p in params]
            grads_bad = any(not torch.allclose(a, b, atol=1e-5) for a, b in zip(pg, rg))
            ig = [(x.grad, y.grad) for x, y in zip(a1, a2) if isinstance(x, torch.Tensor) and x.requires_grad]
            grads_bad |= any(not torch.allclose(a, b, atol=1e-5) for a, b in ig)
        else: grads_bad = False
        ok = all(torch.allclose(o.detach(), r.detach(), atol=1e-5) for o, r in zip(outs, refs)) and not grads_bad
        # mutated inputs: compare the storages
        ok &= all(torch.equal(x.detach().untyped_storage().byte() if False else x.detach(), y.detach()) for x, y in zip(a1, a2) if isinstance(x, torch.Tensor) and not x.requires_grad)
        if not ok:
            bad += 1; print(f"  {name}: call {t} WRONG" + (" (grads)" if grads_bad else ""))
        kept.append(([o.detach() for o in outs], [r.detach() for r in refs]))
    later = sum(not all(torch.allclose(o, r, atol=1e-5) for o, r in zip(os_, rs)) for os_, rs in kept)
    print(f"{name:44s} wrong {bad}/{calls}, kept wrong {later}", stats())

B1 = torch.randn(10, 4)[2:]
gap = lambda t: torch.randn(8, 8)[:, :4]
before = lambda t: torch.randn(10, 4)[2:]
after = lambda t: torch.randn(10, 4)[:8]
run("gaps", lambda x: x.as_strided((8, 8), (8, 1), 0) * 2, lambda t: (gap(t),))
run("before", lambda x: x.as_strided((4, 4), (4, 1), 0) + 1, lambda t: (before(t),))
run("after end", lambda x: x.as_strided((10, 4), (4, 1), 0) + 1, lambda t: (after(t),))
run("before, returned as a view", lambda x: (x.as_strided((4, 4), (4, 1), 0), x * 2), lambda t: (before(t),))
run("before, returned view, same input each call", lambda x: (x.as_strided((4, 4), (4, 1), 0), x * 2), lambda t: (B1,))
run("after, returned as a view", lambda x: (x.as_strided((10, 4), (4, 1), 0), x + 1), lambda t: (after(t),))
def mut(x):
    x.mul_(2)
    return x.as_strided((4, 4), (4, 1), 0) + 1
run("before, input mutated by the graph", mut, lambda t: (before(t),))
def mut2(x, y):
    y.add_(1)
    return x.as_strided((4, 4), (4, 1), 0) * y[:4]
run("before + another input mutated", mut2, lambda t: (before(t), torch.randn(8, 4)))
run("expanded, read beyond", lambda x: x.as_strided((4, 4), (4, 1), 0) * 2, lambda t: (torch.randn(16)[:4].expand(3, 4),))
run("expanded at offset, read before", lambda x: x.as_strided((4, 4), (4, 1), 0) * 2, lambda t: (torch.randn(20)[4:8].expand(3, 4),))
run("gaps, dynamic", lambda x: x.as_strided((x.shape[0], 8), (8, 1), 0) * 2, lambda t: (torch.randn(8 + t % 2, 8)[:, :4],), dyn=True)
run("before, dynamic", lambda x: x.as_strided((4, 4), (4, 1), 0) + x.sum(), lambda t: (torch.randn(10 + t % 2, 4)[2:],), dyn=True)
run("before, same input each call", lambda x: x.as_strided((4, 4), (4, 1), 0) + 1, lambda t: (B1,))
P = torch.nn.Parameter(torch.randn(10, 4)[2:])
Q = torch.nn.Parameter(torch.randn(4, 4))
class M(torch.nn.Module):
    def __init__(s): super().__init__(); s.p = P
    def forward(s, x): return s.p.as_strided((4, 4), (4, 1), 0) @ x
m = M()
run("parameter read before, inference", lambda x: m(x), lambda t: (torch.randn(4, 4),))
with torch.no_grad():
    run("parameter read before, no_grad", lambda x: m(x), lambda t: (torch.randn(4, 4),))
run("parameter read before, training", lambda x: m(x), lambda t: (torch.randn(4, 4),), train=True, params=[P])
run("input read before, weight grad", lambda x: (x.as_strided((4, 4), (4, 1), 0) @ Q).tanh(), lambda t: (before(t),), train=True, params=[Q])
run("input (grad) read before", lambda x: (x.as_strided((4, 4), (4, 1), 0) @ Q).tanh() + x.sum(), lambda t: (torch.randn(10, 4)[2:].requires_grad_(),), train=True, params=[Q])
run("gapped input read in gaps, weight grad", lambda x: (x.as_strided((8, 8), (8, 1), 0) @ torch.cat([Q, Q])).tanh(), lambda t: (gap(t),), train=True, params=[Q])
run("gaps, dynamic, weight grad", lambda x: (x.as_strided((x.shape[0], 8), (8, 1), 0) @ torch.cat([Q, Q])).tanh(), lambda t: (torch.randn(8 + t % 2, 8)[:, :4],), dyn=True, train=True, params=[Q])
