# Expanded (stride-0) inputs of many shapes, fresh at each call unless said otherwise (so copied by their distinct
# elements), inference and training, static and dynamic=True. Every output, mutated input and gradient, kept to
# the end, compared with eager. usage: s6_expanded.py [case-substring]
import sys, torch
from harness import *
only = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else ""
torch.manual_seed(0)
W = torch.randn(8, 8)
def run(name, f, make, calls=8, dyn=None, train=False, params=(), keep_inputs=True):
    if only not in name: return
    setup(); torch.manual_seed(1)
    g, kept, bad, held = compiled(f, dynamic=dyn), [], 0, []
    for t in range(calls):
        a1 = make(t)
        if keep_inputs: held.append(a1)
        a2 = [a.detach().clone().requires_grad_() if isinstance(a, torch.Tensor) and a.is_leaf and a.requires_grad and not isinstance(a, torch.nn.Parameter) else a for a in a1]
        snap = [a.detach().clone() if isinstance(a, torch.Tensor) else a for a in a1]
        params_ = params(t) if callable(params) else params
        for p in params_: p.grad = None
        out = g(*a1)
        outs = out if isinstance(out, tuple) else (out,)
        after1 = [a.detach().clone() if isinstance(a, torch.Tensor) else a for a in a1]
        # eager on the same values (a1's inputs restored to their values before the call)
        for a, s in zip(a1, snap):
            if isinstance(a, torch.Tensor) and 0 not in a.stride(): a.data.copy_(s)
        gb = False
        if train:
            sum(o.float().sum() for o in outs).backward(); pg = [p.grad.clone() for p in params_]
            ig = [a.grad.clone() for a in a1 if isinstance(a, torch.Tensor) and a.is_leaf and a.requires_grad and not isinstance(a, torch.nn.Parameter)]
            for p in params_: p.grad = None
        ref = f(*(a2 if train else a1))
        refs = ref if isinstance(ref, tuple) else (ref,)
        if train:
            sum(r.float().sum() for r in refs).backward(); rg = [p.grad.clone() for p in params_]
            rig = [a.grad.clone() for a in a2 if isinstance(a, torch.Tensor) and a.is_leaf and a.requires_grad and not isinstance(a, torch.nn.Parameter)]
            gb = any(not torch.allclose(x, y, atol=1e-4) for x, y in zip(pg + ig, rg + rig))
        after2 = [a.detach().clone() if isinstance(a, torch.Tensor) else a for a in a1]
        mb = any(isinstance(x, torch.Tensor) and not torch.allclose(x, y, atol=1e-5) for x, y in zip(after1, after2))
        ob = any(not torch.allclose(o.detach(), r.detach(), atol=1e-4) for o, r in zip(outs, refs))
        if ob or gb or mb:
            bad += 1; print(f"  {name}: call {t} WRONG", "outputs" if ob else "", "grads" if gb else "", "mutated inputs" if mb else "")
        kept.append(([o.detach() for o in outs], [r.detach() for r in refs]))
    later = sum(not all(torch.allclose(o, r, atol=1e-4) for o, r in zip(os_, rs)) for os_, rs in kept)
    print(f"{name:48s} wrong {bad}/{calls}, kept wrong {later}", stats())

def f1(x, m): return torch.tanh(x @ W) * m + x
row = lambda t: (torch.randn(8, 8), torch.randn(8).expand(8, 8))
run("row mask", f1, row)
run("row mask, inputs not kept", f1, row, keep_inputs=False)
run("scalar expanded (0,0)", f1, lambda t: (torch.randn(8, 8), torch.randn(()).expand(8, 8)))
run("4-d mask (B,1,1,S)->(B,H,S,S)", lambda x, m: torch.softmax(x + m, -1), lambda t: (torch.randn(2, 3, 8, 8), torch.randn(2, 1, 1, 8).expand(2, 3, 8, 8)))
run("stride 0 in two dims, middle dense", lambda x, m: x * m, lambda t: (torch.randn(4, 5, 6), torch.randn(5)[None, :, None].expand(4, 5, 6)))
run("expanded + gapped", lambda x, m: x * m, lambda t: (torch.randn(3, 8, 4), torch.randn(8, 8)[:, :4][None].expand(3, 8, 4)))
run("expanded + stepped (::2)", lambda x, m: x * m, lambda t: (torch.randn(3, 8, 4), torch.randn(8, 8)[:, ::2][None].expand(3, 8, 4)))
run("expanded, odd strides in size-1 dims", lambda x, m: x * m.squeeze(1), lambda t: (torch.randn(4, 8), torch.as_strided(torch.randn(20), (4, 1, 8), (0, 777, 1), 3)))
run("expanded 0-element (5,0)", lambda x, m: (x.sum() + m.sum(), m * 2), lambda t: (torch.randn(3), torch.randn(0).expand(5, 0)))
run("expanded 0-element (2,3,0)", lambda x, m: (x * 2, m + 1), lambda t: (torch.randn(3), torch.randn(3, 0)[None].expand(2, 3, 0)))
V = torch.randn(8)
run("same base, mutated between calls", f1, lambda t: (torch.randn(8, 8), V.add_(1).expand(8, 8)))
V2 = [torch.randn(8), torch.randn(8)]
run("two bases alternating, mutated", f1, lambda t: (torch.randn(8, 8), V2[t % 2].mul_(1.1).expand(8, 8)))
def alias(v, m):
    v.add_(1)
    return m * 2 + v
run("expanded aliasing another input, which is mutated", alias, lambda t: ((v := torch.randn(8)), v.expand(4, 8)))
def alias2(v, m): return m * 2 + v
run("expanded aliasing another input", alias2, lambda t: ((v := torch.randn(8)), v.expand(4, 8)))
def mutx(x, m):
    x.add_(m)
    return x * 2
run("dense input mutated by an expanded one", mutx, lambda t: (torch.randn(8, 8), torch.randn(8).expand(8, 8)))
run("returns the expanded input and a view", lambda x, m: (m, m[1:], x + m), row)
run("returns an expand of a computed value", lambda x, m: ((x.sum(0) * m[0]).expand(8, 8), x * 2), row)
P = torch.nn.Parameter(torch.randn(8))
run("expanded parameter passed in, training", lambda x, m: (torch.tanh(x @ W) * m).sum(1), lambda t: (torch.randn(8, 8), P.expand(8, 8)), train=True, params=[P])
L = torch.nn.Linear(8, 8)
run("mask through a linear, training (weight grads)", lambda x, m: (torch.tanh(L(x)) * m + x) * 0.5, row, train=True, params=list(L.parameters()))
LEAVES = [torch.randn(8, requires_grad=True) for _ in range(12)]
run("mask requires grad (a fresh leaf each call), training", lambda x, m: (torch.tanh(L(x)) * m + x) * 0.5, lambda t: (torch.randn(8, 8), LEAVES[t].expand(8, 8)), train=True, params=lambda t: list(L.parameters()) + [LEAVES[t]])
run("dynamic: row mask, batch changes", f1, lambda t: (torch.randn(8 + t % 3, 8), torch.randn(8).expand(8 + t % 3, 8)), calls=12, dyn=True)
run("dynamic: 4-d mask, B and S change", lambda x, m: torch.softmax(x + m, -1), lambda t: (torch.randn(2 + t % 2, 3, 5 + t % 3, 5 + t % 3), torch.randn(2 + t % 2, 1, 1, 5 + t % 3).expand(2 + t % 2, 3, 5 + t % 3, 5 + t % 3)), calls=12, dyn=True)
run("dynamic: training, mask batch changes", lambda x, m: (torch.tanh(L(x)) * m + x) * 0.5, lambda t: (torch.randn(8 + t % 3, 8), torch.randn(8).expand(8 + t % 3, 8)), calls=12, dyn=True, train=True, params=list(L.parameters()))
