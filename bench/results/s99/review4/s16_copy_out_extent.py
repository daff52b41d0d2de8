# Outputs copied out (Recording.copy_out: a result kept from one call to the next) are copied from their first byte
# to their last: the copy's storage holds no more than the output's span. An output that is a view into a value
# the graph computes whole (y = (x * 2)[2:], stored as eager stores it, at offset 8 of t's storage) loses the
# storage around it; code that reads there (an as_strided at offset 0, eager or the next compiled graph) reads
# other values. Per call: whether y was copied out, and whether y.as_strided((4, 4), (4, 1), 0) matches eager's.
# usage: s16_copy_out_extent.py
import torch, kiln
from harness import *
def g1(x):
    t = x * 2
    return t[2:]
for mode in ("default", "reduce-overhead"):
    for keep in (False, True):
        setup(); res = []; kept = []
        g = kiln.compile(g1, mode=mode, options={"graph_cache": False})
        with torch.no_grad():
            for t in range(6):
                x = torch.randn(10, 4); kept.append(x)
                y = g(x)
                if keep: kept.append(y)
                ref = g1(x)
                ok = torch.equal(y.as_strided((4, 4), (4, 1), 0), ref.as_strided((4, 4), (4, 1), 0))
                res.append(f"{'ok' if ok else 'WRONG'}(off {y.storage_offset()}, {y.untyped_storage().nbytes()} B)")
                assert torch.equal(y, ref)   # y's own elements are right
        print(f"{mode:15s} results kept={keep}: {' '.join(res)}", stats())
