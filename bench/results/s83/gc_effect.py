"""Session 83: in a process that froze objects at startup (as the GPU hosts' Python does), the collector's full passes
and their seconds inside a model's first compiled call, and where each started. Run with the old and new tree alternately:
KILN_CACHE_DIR=$(mktemp -d) PYTHONPATH=.:/tmp/timmlib python3 bench/results/s83/gc_effect.py MODEL [--train]"""
import gc, sys, time, json
gc.freeze()   # (what the GPU host's Python starts with: a few hundred objects frozen)
import torch, kiln
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
model, train = sys.argv[1], "--train" in sys.argv
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
_compile(tiny, "kiln")(torch.ones(2, 3)); torch._dynamo.reset()
w = workload(model)
m, x = w.make_module("cpu", torch.float32, "quick", train), w.make_inputs("cpu", torch.float32, "quick")
_make_step(m, x, train)()
passes, t0, where = [], {}, []
def cb(phase, info):
    if info["generation"] != 2: return
    if phase == "start":
        t0["t"] = time.perf_counter()
        import traceback
        where.append([f"{f.filename.split('/')[-1]}:{f.name}" for f in traceback.extract_stack()[:-1] if "kiln" in f.filename or "aot_autograd" in f.filename or "convert_frame" in f.filename][-4:])
    else: passes.append(time.perf_counter() - t0["t"])
step = _make_step(kiln.compile(m), x, train)
gc.collect(); gc.callbacks.append(cb)
s = time.perf_counter(); step(); first = time.perf_counter() - s
gc.callbacks.remove(cb)
print(json.dumps({"model": model, "train": train, "first_s": round(first, 2), "full_passes": len(passes), "full_pass_s": round(sum(passes), 3), "where": where}))
