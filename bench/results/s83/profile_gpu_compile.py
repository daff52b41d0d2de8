"""Session 83: cProfile of kiln's first call of one suite model (issue 23), in a process like
scripts/gpu_compile_time.py's child: fresh cache dirs (set by the caller), a tiny module compiled first (imports,
worker pools, the GPU driver), then the model's first call profiled. Writes OUT.prof and prints kiln.stats() and the
per-stage seconds; a text summary (cumulative, kiln's and torch's functions) is OUT.txt.
PYTHONPATH=. python3 bench/results/s83/profile_gpu_compile.py MODEL OUT [--train] [--device cuda]"""
import cProfile
import io
import json
import pstats
import sys
import time

import torch

import kiln
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload

model, out = sys.argv[1:3]
train = "--train" in sys.argv
device = "cpu" if "--cpu" in sys.argv else "cuda"
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).to(device)
_compile(tiny, "kiln")(torch.ones(2, 3, device=device))
torch._dynamo.reset()
dtype = torch.float32 if train or device == "cpu" else torch.bfloat16
w = workload(model)
module = w.make_module(device, dtype, "gpu" if device == "cuda" else "quick", train)
inputs = w.make_inputs(device, dtype, "gpu" if device == "cuda" else "quick")
_make_step(module, inputs, train)()
kiln.reset_stats()
step = _make_step(kiln.compile(module), inputs, train)
prof = cProfile.Profile()
torch.cuda.synchronize() if device == "cuda" else None
start = time.perf_counter()
prof.enable()
step()
torch.cuda.synchronize() if device == "cuda" else None
prof.disable()
first = time.perf_counter() - start
start = time.perf_counter()
step()
torch.cuda.synchronize() if device == "cuda" else None
steady = time.perf_counter() - start
prof.dump_stats(out + ".prof")
s = io.StringIO()
st = pstats.Stats(prof, stream=s).sort_stats("cumulative")
st.print_stats(120)
st.sort_stats("tottime").print_stats(60)
with open(out + ".txt", "w") as f:
    f.write(s.getvalue())
print(json.dumps({"model": model, "train": train, "first_s_profiled": first, "steady_s": steady,
                  **kiln.stats()}), flush=True)
