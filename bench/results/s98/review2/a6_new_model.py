# frame-layer model trained, deleted, a new one of the same class compiled: old recordings/params freed?
import torch, gc, weakref
from harness import *
from common_layers import M, train
setup()
torch.manual_seed(0)
m = M(4); g = train(m, 6)
w = [weakref.ref(p) for p in m.parameters()]
pool = cuda_graphs.POOLS[torch.device("cpu")]
print("entries before", len(pool.entries), stats())
del m, g; gc.collect()
print("params alive after del:", sum(r() is not None for r in w))
m2 = M(4); g2 = train(m2, 6)
gc.collect()
print("entries after second", len(pool.entries), stats())
live = [e for _, e in pool.entries if e.replayed()]
print("live entries", len(live), "owners", len({id(e.owner()) for e in live}))
del m2, g2; gc.collect(); torch._dynamo.reset(); gc.collect()
pool.prune()
print("after reset: entries", len(pool.entries), "live", sum(e.replayed() for _, e in pool.entries))
