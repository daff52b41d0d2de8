import torch, copy, gc, weakref, sys
from harness import *
from common_layers import M
setup()
torch.manual_seed(0)
m = M(4); ref = copy.deepcopy(m); g = compiled(m)
for _ in range(4):
    x = torch.randn(8, 16)
    g(x).sum().backward()
gc.collect()
calls = [o for o in gc.get_objects() if type(o) is cuda_graphs.GraphedCall]
for c in sorted(calls, key=lambda c: c.name):
    for k, ps in c.recordings.items():
        print(c.name, "placed", sorted(c.placed), "copied", c.copied.get(k), [(sorted(r.placed), r.in_place, r.number, r.gone(), r.last) for r in ps])
print({id(p.untyped_storage()) for p in m.parameters()} and [p.data_ptr() for p in m.layers[0].parameters()])
