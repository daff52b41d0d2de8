# Randomized: 5 frame layers (a graph break per layer), each returning its output and a view of its input; each call
# takes a fresh dense, gapped, transposed or offset input, or a slice of an earlier call's output (handed out by a
# recording, possibly still held); results are held for a random number of calls and checked against eager at every
# call while held. Inference, then training (gradients checked, losses and outputs held at random).
# usage: g9_random_holds.py [seed] [calls]
import sys, copy, random, torch
from harness import *
seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 150
class L(torch.nn.Module):
    def __init__(s): super().__init__(); s.lin = torch.nn.Linear(16, 16)
    def forward(s, x):
        y = torch.tanh(s.lin(x)) + x
        v = x[:, :8]
        torch._dynamo.graph_break()
        return y * 0.5, v
class M(torch.nn.Module):
    def __init__(s): super().__init__(); s.ls = torch.nn.ModuleList(L() for _ in range(5))
    def forward(s, x):
        outs = []
        for l in s.ls:
            x, v = l(x); outs += [x, v]
        return outs
def make(rng, held):
    kind = rng.randrange(5)
    if kind == 0: return torch.randn(8, 16)
    if kind == 1: return torch.randn(8, 40)[:, 5:21]
    if kind == 2: return torch.randn(16, 8).t()
    if kind == 3: return torch.randn(9, 16)[1:]
    if held:   # an earlier output (its eager twin is compared), sliced with gaps
        outs, refs, _ = rng.choice(held)
        i = rng.randrange(0, len(outs), 2)
        return (outs[i], refs[i])
    return torch.randn(8, 16)
for training in (False, True):
    setup(); torch.manual_seed(seed); rng = random.Random(seed)
    m = M(); ref = copy.deepcopy(m); g = compiled(m)
    held = []   # (outputs, eager outputs, until call)
    for t in range(calls):
        x = make(rng, held)
        x, rx = x if isinstance(x, tuple) else (x, x.clone())
        if training:
            for p in [*m.parameters(), *ref.parameters()]: p.grad = None
            x, rx = x.detach(), rx.detach()
            outs, refs = g(x), ref(rx)
            sum(o.sum() for o in outs[::2]).backward(); sum(o.sum() for o in refs[::2]).backward()
            for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
            outs, refs = [o.detach() for o in outs], [o.detach() for o in refs]
        else:
            with torch.no_grad():
                outs, refs = g(x), ref(rx)
        for o, r in zip(outs, refs): close(o, r)
        held = [h for h in held if h[2] > t]
        if rng.random() < 0.5:
            held.append((outs, refs, t + rng.choice([1, 2, 3, 10, 40])))
        for os_, rs, _ in held:
            for o, r in zip(os_, rs): close(o, r)
    print("training" if training else "inference", "ok", stats())
