# One address, one shape, two layouts: base[:, :4] (strides (8, 1)) and base's first 32 elements as (8, 4) (strides
# (4, 1)), alternating, under dynamic=True and dynamic=False; the input stays at the warm-up's address (read in place).
import torch
from harness import *
w = torch.randn(4, 4)
def f(x): return torch.tanh(x @ w) + x
for dyn in (False, True):
    setup(); torch.manual_seed(0)
    base = torch.randn(8, 8)
    g, bad = compiled(f, dynamic=dyn), 0
    with torch.no_grad():
        for t in range(10):
            base.normal_()
            x = base[:, :4] if t % 2 else torch.as_strided(base, (8, 4), (4, 1))
            ok = torch.allclose(g(x), f(x), rtol=1.3e-6, atol=1e-5); bad += not ok
            if not ok: print("  wrong at call", t)
    print(f"dynamic={dyn}: wrong {bad}/10", stats())
