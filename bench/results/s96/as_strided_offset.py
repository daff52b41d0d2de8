# session 96: a graph input read through as_strided at an explicit storage offset, called at another offset than
# traced: max error per backend (aot_eager and eager right; kiln and Inductor 4.0). PYTHONPATH=. python3 THIS
import torch, sys
class A(torch.nn.Module):
    def __init__(s, w):
        super().__init__(); s.w = torch.nn.Parameter(w)
    def forward(s, x):
        return x + s.w.as_strided((6, 6), (1, 1), 2)
def f(w, x):
    return x + w.as_strided((6, 6), (1, 1), 2)
base = torch.arange(40.0)
x = torch.zeros(6, 6)
for backend in ["aot_eager", "eager", "inductor", "kiln"]:
    if backend == "kiln": import kiln
    for what in ("module", "input"):
        torch._dynamo.reset()
        run = torch.compile((lambda m, x: m(x)) if what == "module" else f, backend=backend)
        errs = []
        with torch.no_grad():
            for off in (0, 4):
                w = base[off:off + 16]
                a = A(w) if what == "module" else w
                ref = a(x) if what == "module" else f(w, x)
                errs.append((run(a, x) - ref).abs().max().item())
        print(backend, what, errs)
