"""Which attention ops the suite's decoder models reach a backend with on this machine's transformers, and whether
a mask is passed (a materialized causal mask would keep SDPA from its causal kernels). Traced with a backend that
only prints AOTAutograd's graphs. Usage: s56_attention_ops.py MODEL [--train] [--device cuda]"""
import sys

import torch
import transformers
from torch._functorch.aot_autograd import aot_module_simplified

from kiln.tools.workloads import workload

name, train = sys.argv[1], "--train" in sys.argv
device = "cuda" if torch.cuda.is_available() else "cpu"
dtype = torch.float32 if train or device == "cpu" else torch.bfloat16
size = "gpu" if device == "cuda" else "quick"
w = workload(name)
module, inputs = w.make_module(device, dtype, size, train), w.make_inputs(device, dtype, size)
print(name, "train" if train else "inference", dtype, "transformers", transformers.__version__)


def backend(gm, example):
    def show(g, _):
        for n in g.graph.nodes:
            if "attention" in str(n.target):
                args = [a.meta["val"].shape if hasattr(a, "meta") and "val" in a.meta else a for a in n.args]
                kwargs = {k: tuple(a.meta["val"].shape) if hasattr(a, "meta") and "val" in a.meta else a
                          for k, a in n.kwargs.items()}
                print("  ", str(n.target).split(".")[-2], [tuple(a) if isinstance(a, torch.Size) else a for a in args],
                      kwargs)
        return g
    return aot_module_simplified(gm, example, fw_compiler=show, bw_compiler=show)


out = torch.compile(module, backend=backend)(*inputs)
if train:
    out.backward()
