"""Session 51: the bytes a training forward hands its backward (the forward graph's outputs) and the backward's
outputs, for a suite model at its GPU size on the CPU under bf16 autocast (AOTAutograd with compilers that print).
    PYTHONPATH=. python3 bench/results/s51/s51_fwbytes.py distilbert
"""
import torch, sys
from torch._functorch.aot_autograd import aot_module_simplified
from kiln.tools.workloads import workload
name = sys.argv[1]
w = workload(name)
m = w.make_module("cpu", torch.float32, "gpu", True)
inp = w.make_inputs("cpu", torch.float32, "gpu")
def report(kind):
    def comp(gm, ex):
        outs = gm.graph.find_nodes(op="output")[0].args[0]
        sizes = [(o.meta["val"].nbytes if isinstance(o, torch.fx.Node) and isinstance(o.meta.get("val"), torch.Tensor) else 0) for o in outs]
        ins = sum(x.nbytes for x in ex if isinstance(x, torch.Tensor))
        print(kind, "outputs", len(outs), "MB", round(sum(sizes)/2**20), "inputs MB", round(ins/2**20), flush=True)
        return gm
    return comp
def backend(gm, ex):
    return aot_module_simplified(gm, ex, fw_compiler=report("fw"), bw_compiler=report("bw"))
c = torch.compile(m, backend=backend)
with torch.autocast("cpu", dtype=torch.bfloat16):
    loss = c(*inp)
loss.backward()
