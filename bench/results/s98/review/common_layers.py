"""Frame layers (a graph break per layer, as HF Whisper's and BART's layers are frames of their own) and the
training loop the reproducers share."""
import copy
import torch
from harness import close, compiled, stats
from kiln.runtime import cuda_graphs


class Layer(torch.nn.Module):
    def __init__(s, w=16, bias=True):
        super().__init__(); s.lin = torch.nn.Linear(w, w, bias=bias)
    def forward(s, x):
        y = torch.tanh(s.lin(x)) + x
        torch._dynamo.graph_break()
        return y * 0.5


class M(torch.nn.Module):
    def __init__(s, n=4, w=16):
        super().__init__(); s.layers = torch.nn.ModuleList(Layer(w) for _ in range(n))
    def forward(s, x):
        for l in s.layers: x = l(x)
        return x


def train_step(g, m, ref, x):
    """One step of the compiled g (over m) and of ref, eager, from gradients set to None; the gradients compared."""
    for p in [*m.parameters(), *ref.parameters()]: p.grad = None
    g(x).sum().backward(); ref(x).sum().backward()
    for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)


def train(m, steps, make_input=lambda: torch.randn(8, 16), window=None):
    """The compiled m trained steps times against an eager copy; with window, per window of steps: the compiled
    graphs' calls, recordings and replays of an existing recording (one replayed after the call that recorded it)
    per step. Returns the compiled m."""
    calls, call = [0], cuda_graphs.GraphedCall.__call__
    def counting(self, args):
        calls[0] += 1
        return call(self, args)
    cuda_graphs.GraphedCall.__call__ = counting
    ref, g, last = copy.deepcopy(m), compiled(m), (0, 0, 0)
    for step in range(steps):
        train_step(g, m, ref, make_input())
        now = (stats()["recordings"], stats()["replays"], calls[0])
        if window and step % window == window - 1:
            rec, rep, c = (a - b for a, b in zip(now, last))
            print(f"steps {step - window + 1}-{step}: per step: calls {c / window:.1f}, recordings {rec / window:.1f}, "
                  f"replays of an existing recording {(rep - rec) / window:.1f}")
            last = now
    cuda_graphs.GraphedCall.__call__ = call
    return g
