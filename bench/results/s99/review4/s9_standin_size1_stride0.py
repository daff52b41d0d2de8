# The CPU stand-in (tests/test_modes.py ReplayingRecorder) skips putting back any input with a 0 stride, also one
# whose stride-0 dimension has size 1 (v.expand(1, 8): no element shared), which a graph may write: mutated inputs
# read in place then take the recording's run's writes and the first replay's. A stand-in artefact (a CUDA capture
# writes nothing), shown against a dense (1, 8) input.
import torch
from harness import *
def f(x):
    x.add_(1)
    return x * 2
for label, make in [("(1, 8) strides (0, 1)", lambda: torch.zeros(8).expand(1, 8)), ("(1, 8) strides (8, 1)", lambda: torch.zeros(1, 8))]:
    setup(); g = compiled(f)
    a, b = make(), make()
    assert a.stride() == b.stride()
    res = []
    for t in range(4):
        o, r = g(a), f(b)
        res.append(torch.equal(o, r) and torch.equal(a, b))
    print(f"{label}: calls right {res}, input after 4 calls {a[0, 0].item()} (eager {b[0, 0].item()})", stats())
