# Which inputs lowering marks as read beyond their elements (Artifact.read_in_storage), for ordinary view ops on
# dense, gapped, transposed and offset inputs, static and dynamic=True; and the ops' as_strided nodes after AOT.
# usage: s2_false_positives.py
import torch, torch.nn.functional as F
from harness import *
from kiln.runtime import cuda_graphs
seen = []
_graphing = cuda_graphs.graphing
def graphing(mutated, example_inputs, name, computes_on=(), saved_from=None, placed=(), read_in_storage=()):
    seen.append((name, tuple(read_in_storage)))
    return _graphing(mutated, example_inputs, name, computes_on, saved_from, placed, read_in_storage)
cuda_graphs.graphing = graphing
import kiln.capture; kiln.capture.cuda_graphs.graphing = graphing
ops = {
    "unfold": lambda x: x.unfold(1, 3, 2) * 2,
    "unfold dim0": lambda x: x.unfold(0, 2, 1).sum(-1),
    "diagonal": lambda x: x.diagonal() + 1,
    "diagonal off1": lambda x: x.diagonal(1) + 1,
    "diagonal off-2": lambda x: x.diagonal(-2) + 1,
    "narrow": lambda x: x.narrow(1, 2, 3) * 2,
    "transpose": lambda x: x.t() * 2,
    "permute+reshape": lambda x: x.t().reshape(-1) * 2,
    "im2col": lambda x: F.unfold(x[None, None], 3) * 2,
    "flip": lambda x: x.flip(0) * 2,
    "roll": lambda x: x.roll(1, 0) * 2,
    "pad": lambda x: F.pad(x, (1, 1)) * 2,
    "diag_embed": lambda x: torch.diag_embed(x[0]) * 2,
    "stride trick own elements": lambda x: x.as_strided((3, 3), (x.stride(0), x.stride(1)), x.storage_offset()) * 2,
    "expand+unfold": lambda x: x[:1].expand(6, 8).unfold(1, 2, 2) * 2,
    "diagonal of slice": lambda x: x[:, 1:].diagonal() * 2,
    "unfold of slice": lambda x: x[:, 1:].unfold(1, 2, 1) * 2,
}
inputs = {"dense": lambda: torch.randn(6, 8), "gapped": lambda: torch.randn(6, 12)[:, 2:10],
          "transposed": lambda: torch.randn(8, 6).t(), "offset": lambda: torch.randn(8, 8)[2:]}
for dyn in (False, True):
    for oname, f in ops.items():
        row = []
        for iname, mk in inputs.items():
            setup(); seen.clear()
            g = compiled(f, dynamic=dyn)
            try:
                for _ in range(3):
                    x = mk(); close(g(x), f(x))
                row.append(f"{iname}:{[s[1] for s in seen]}")
            except Exception as e:
                row.append(f"{iname}:ERR {type(e).__name__} {str(e)[:80]}")
        print(f"dyn={dyn} {oname:26s}", " ".join(row))
