"""Session 83: is the collector's freeze in effect while kiln compiles on the GPU host? (A full pass of ~0.3 s ran
inside timm ViT's lowering there; frozen, a full pass takes ~4 ms on the CPU host.) Prints the freeze count and the
unfrozen objects at points of a first call, every gc.freeze/unfreeze call with its caller, and each full pass.
PYTHONPATH=. python3 bench/results/s83/gc_diagnosis.py MODEL [--cpu]"""
import gc
import json
import sys
import time
import traceback

calls = []
for name in ("freeze", "unfreeze"):
    original = getattr(gc, name)

    def wrapped(original=original, name=name):
        calls.append((name, gc.get_freeze_count(), [f"{f.filename.split('/')[-1]}:{f.lineno}:{f.name}"
                                                   for f in traceback.extract_stack()[-5:-1]]))
        return original()
    setattr(gc, name, wrapped)

import torch  # noqa: E402

import kiln  # noqa: E402
import kiln.capture as capture  # noqa: E402
from kiln.lowering.graph import GraphLowering  # noqa: E402
from kiln.tools.bench import _compile, _make_step  # noqa: E402
from kiln.tools.workloads import workload  # noqa: E402

device = "cpu" if "--cpu" in sys.argv else "cuda"
points = []


def point(where):
    points.append((where, gc.get_freeze_count(), len(gc.get_objects()), dict(capture._FROZEN), gc.isenabled(),
                   gc.get_threshold()))


full = []
gc.callbacks.append(lambda phase, info: full.append((phase, round(time.perf_counter(), 3))) if info["generation"] == 2
                    else None)
point("start")
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).to(device)
_compile(tiny, "kiln")(torch.ones(2, 3, device=device))
point("after the tiny training compile")
torch._dynamo.reset()
with torch.no_grad():
    _compile(tiny, "kiln")(torch.ones(2, 3, device=device))
torch._dynamo.reset()
point("after the tiny inference compile")
w = workload(sys.argv[1])
dtype = torch.bfloat16 if device == "cuda" else torch.float32
size = "gpu" if device == "cuda" else "quick"
module, inputs = w.make_module(device, dtype, size, False), w.make_inputs(device, dtype, size)
_make_step(module, inputs, False)()
point("after the eager call")
run, backend = GraphLowering.run, capture.kiln_backend


def run_noted(self):
    point("lowering")
    return run(self)


GraphLowering.run = run_noted
step = _make_step(kiln.compile(module), inputs, False)
started = time.perf_counter()
step()
point("after the first call")
print(json.dumps({"python": sys.version, "call_started": round(started, 3), "first_s": time.perf_counter() - started, "points": points, "calls": calls,
                  "full_passes": full}, indent=1))
