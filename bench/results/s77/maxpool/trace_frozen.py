# session 77: kiln frozen with trace_profile (each kernel's one-shot time in the trace's kernels.json):
#   PYTHONPATH=.:$TIMMLIB python3 bench/results/s77/maxpool/trace_frozen.py timm_resnet
import torch, kiln, copy, sys, glob, os
from kiln.tools.workloads import workload
w = workload(sys.argv[1])
m = w.make_module("cpu", torch.float32, "quick", False).eval(); x = w.make_inputs("cpu", torch.float32, "quick")
f = kiln.compile(copy.deepcopy(m), options={"freezing": True, "trace": "/tmp/w77/tr", "trace_profile": True})
with torch.no_grad():
    f(*x)
