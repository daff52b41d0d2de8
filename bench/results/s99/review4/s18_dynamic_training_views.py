# dynamic=True training steps through unfold (step 2) and diagonal of a layer's activations and of the fresh input,
# 30 steps at one shape (10, 12) (fresh inputs kept alive, so each at a new place): recordings on the commit and the
# parent, and graphs that log "without a CUDA graph". Gradients compared with eager.   usage: s18_dynamic_training_views.py
import copy, logging, torch
from harness import *
warned = []
class H(logging.Handler):
    def emit(self, r):
        if "without a CUDA graph" in r.getMessage(): warned.append(r.getMessage().split(" runs")[0].split(": ")[-1])
logging.getLogger("kiln.cudagraphs").addHandler(H())
class M(torch.nn.Module):
    def __init__(s, kind):
        super().__init__(); s.lin = torch.nn.Linear(12, 12); s.kind = kind
    def forward(s, x):
        if s.kind == "unfold of the input":
            return (s.lin(x) * x.unfold(1, 3, 2).sum(-1).repeat(1, 3)[:, :12]).tanh()
        if s.kind == "diagonal of the input":
            return s.lin(x).tanh() * x.diagonal().sum()
        y = s.lin(x)
        return (y.unfold(1, 3, 2).sum(-1)).tanh() if s.kind == "unfold of an activation" else y.diagonal().tanh()
for kind in ("unfold of the input", "diagonal of the input", "unfold of an activation", "diagonal of an activation"):
    setup(); warned.clear(); torch.manual_seed(0)
    m = M(kind); ref = copy.deepcopy(m); g = compiled(m, dynamic=True); kept = []
    for step in range(30):
        x = torch.randn(10, 12); kept.append(x)
        for p in [*m.parameters(), *ref.parameters()]: p.grad = None
        g(x).sum().backward(); ref(x).sum().backward()
        for p, q in zip(m.parameters(), ref.parameters()): close(p.grad, q.grad)
    print(f"{kind:26s} 30 steps:", stats(), "without a CUDA graph:", warned)
