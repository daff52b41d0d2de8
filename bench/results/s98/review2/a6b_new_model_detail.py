import torch, gc, sys
from harness import *
from common_layers import M, train
setup()
torch.manual_seed(0)
def show(tag):
    gc.collect()
    calls = [o for o in gc.get_objects() if type(o) is cuda_graphs.GraphedCall]
    for c in sorted(calls, key=lambda c: c.name):
        for k, ps in c.recordings.items():
            ps = ps if isinstance(ps, list) else [ps]
            print(tag, c.name, k, "positions", len(ps), "gone", sum(getattr(r, "gone", lambda: 0)() for r in ps), "memory bytes",
                  sum(m.untyped_storage().nbytes() for r in ps for m in r.memory))
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 6
m = M(4); g = train(m, steps)
show("first")
del m, g; gc.collect()
m2 = M(4); g2 = train(m2, steps)
show("second")

gc.collect()
old = [o for o in gc.get_objects() if type(o) is cuda_graphs.GraphedCall and o.name[1] in '012']
print("old model's graphs alive:", len(old), "their recordings' memory:", sum(m.untyped_storage().nbytes() for c in old for ps in c.recordings.values() for r in (ps if isinstance(ps, list) else [ps]) for m in r.memory), "stand-in pool bytes carved:", R.pool[1])
