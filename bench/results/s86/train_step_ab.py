"""Session 86: one cold training step (forward and backward) of a suite model at the GPU size, batch 1, on the CPU,
with kiln; AB=old keeps every op decomposed in AOTAutograd's trace (decompositions.LOWERED_THROUGH_DECOMPOSITION
empty), AB=new as the code is. Prints the first step's seconds, the backend's, kiln's stage seconds, the kernels and
the bytes the forward saves for the backward.
KILN_CACHE_DIR=$(mktemp -d) AB=new PYTHONPATH=. python3 bench/results/s86/train_step_ab.py MODEL"""
import json
import os
import sys
import time

import torch

import kiln
import kiln.decompositions
from kiln.tools.bench import _compile
from kiln.tools.workloads import workload

if os.environ.get("AB") == "old":
    kiln.decompositions.LOWERED_THROUGH_DECOMPOSITION = []
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
_compile(tiny, "kiln")(torch.ones(2, 3, requires_grad=True)).sum().backward()
torch._dynamo.reset()
kiln.reset_stats()
from torch._dynamo.utils import compilation_time_metrics
compilation_time_metrics.clear()
w = workload(sys.argv[1])
m, x = w.make_module("cpu", torch.float32, "gpu", True), w.make_inputs("cpu", torch.float32, "gpu")
x = [v[:1] if isinstance(v, torch.Tensor) and v.dim() > 0 else v for v in x]
saved = []
hooks = torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t.numel() * t.element_size()) or t, lambda t: t)
compiled = _compile(m, "kiln")
start = time.perf_counter()
with hooks:
    loss = compiled(*x)
(loss if loss.dim() == 0 else loss.sum()).backward()
first = time.perf_counter() - start
stats = kiln.stats()
print(json.dumps(dict(ab=os.environ.get("AB", "new"), first=round(first, 3),
                      backend=round(sum(compilation_time_metrics.get("OutputGraph.call_user_compiler", [])), 3),
                      saved_mb=round(sum(saved) / 2**20, 2),
                      **{k: (round(v, 3) if isinstance(v, float) else v) for k, v in stats.items()
                         if k.startswith("seconds") or k.startswith("kernels")})))
