"""Session 82: what a CUDA graph returning a CPU scalar did before this session's one_device (which let a Triton
kernel touching only CPU tensors through): run with the old check, in strict mode, then compare with eager."""
import json
import torch

import kiln
from kiln import ir
from kiln.codegen import triton as triton_codegen


def old_one_device(kernel, args, graph):
    devices = {n: graph.buffer(n).layout.device.type for n in args if n != ir.INDEX_FLAGS}
    if "cuda" in devices.values() and "cpu" in devices.values():
        raise NotImplementedError(f"{kernel} reads CPU tensors beside CUDA ones")


triton_codegen.one_device = old_one_device


def returned_cpu_scalar(x):
    return x + 1, torch.tensor(3.0) + 1


x = torch.randn(64, device="cuda")
try:
    got = kiln.compile(returned_cpu_scalar, options={"strict": True})(x)
    torch.cuda.synchronize()
    print(json.dumps(dict(outcome="ran", values=[float(got[1])], devices=[str(g.device) for g in got],
                          equal=[bool(torch.equal(g, w)) for g, w in zip(got, returned_cpu_scalar(x))])))
except Exception as e:
    print(json.dumps(dict(outcome="raised", error=f"{type(e).__name__}: {str(e)[:300]}")))
