"""Session 85: where AOTAutograd's part of a cold first call goes with kiln's decompositions, against aot_eager's:
the training step's forward at the GPU size, batch 1, on the CPU (as s83/backend_split.py --train-gpu-size),
under cProfile; prints the top functions by cumulative and by own time.
KILN_CACHE_DIR=$(mktemp -d) PYTHONPATH=. python3 bench/results/s85/aot_profile.py MODEL BACKEND [N]"""
import cProfile
import pstats
import sys

import torch

from kiln.tools.bench import _compile
from kiln.tools.workloads import workload

model, backend = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 40
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
_compile(tiny, backend)(torch.ones(2, 3))
torch._dynamo.reset()
w = workload(model)
m, x = w.make_module("cpu", torch.float32, "gpu", True), w.make_inputs("cpu", torch.float32, "gpu")
x = [v[:1] if isinstance(v, torch.Tensor) and v.dim() > 0 else v for v in x] if isinstance(x, (list, tuple)) else x
compiled = _compile(m, backend)
p = cProfile.Profile()
p.enable()
compiled(*x) if isinstance(x, (list, tuple)) else compiled(x)
p.disable()
s = pstats.Stats(p)
s.sort_stats("cumulative").print_stats(n)
s.sort_stats("tottime").print_stats(25)
