# session 38: a model's Triton kernel sources as the GPU would get them (libdevice ops), generated on the CPU.
# usage: KILN_TARGET=triton s38_sources.py MODEL OUTDIR [--train] [--gpu-pool: max-pool inputs inlined, as on the GPU]
import os, sys, json
import torch
import kiln.capture
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
arts = []
class Stop(Exception): pass
def grab(artifact, *a, **k):
    arts.append(artifact)
    raise Stop()
kiln.capture.load = grab
if "--gpu-pool" in sys.argv:
    import kiln.lowering.pooling as P; P.WINDOW_INPUT_STORED = set()
name, out, train = sys.argv[1], sys.argv[2], "--train" in sys.argv
w = workload(name)
dtype = torch.float32 if train else torch.bfloat16
module, inputs = w.make_module("cpu", dtype, "gpu", train), w.make_inputs("cpu", dtype, "gpu")
try:
    _make_step(_compile(module, "kiln"), inputs, train)()
except Exception as e:
    print("stopped:", type(e).__name__, str(e)[:200])
os.makedirs(out, exist_ok=True)
for a in arts:
    print(a.name, a.target, len(getattr(a, "kernels", {}) or {}))
    if a.target == "triton":
        open(os.path.join(out, a.name + ".py"), "w").write(a.kernel_source)
        json.dump({f: [text.count("\n"), warps, repr(warmups[:1])] for f, (text, warps, warmups) in a.kernels.items()},
                  open(os.path.join(out, a.name + ".json"), "w"), default=str)
