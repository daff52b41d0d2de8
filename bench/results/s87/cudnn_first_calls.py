"""What a layout's first calls cost cuDNN (session 87, issue 23): EfficientNet-B0's eager fp32 training step at the
GPU size, in a fresh process, first in NCHW then channels-last (or the other order with --cl-first): each layout's
first step less its steady step (median of 3). A compiled graph that stores convolutions' operands channels-last
pays the second layout's first calls in its own first call, where aot_eager's eager convolutions reuse the NCHW
plans of the bench's eager step.
    PYTHONPATH=. python3 bench/results/s87/cudnn_first_calls.py [--cl-first] [--model efficientnet]"""
import json
import statistics
import sys
import time

import torch

from kiln.tools.bench import _make_step
from kiln.tools.workloads import workload

model = sys.argv[sys.argv.index("--model") + 1] if "--model" in sys.argv else "efficientnet"
w = workload(model)
module = w.make_module("cuda", torch.float32, "gpu", True)
inputs = w.make_inputs("cuda", torch.float32, "gpu")


def timed(step):
    torch.cuda.synchronize()
    t = time.perf_counter()
    step()
    torch.cuda.synchronize()
    return time.perf_counter() - t


torch.ones(1, device="cuda") + 1   # (the context)
orders = ["channels_last", "contiguous"] if "--cl-first" in sys.argv else ["contiguous", "channels_last"]
row = {"model": model, "cudnn": torch.backends.cudnn.version(), "benchmark": torch.backends.cudnn.benchmark}
for fmt in orders:
    mf = getattr(torch, "channels_last" if fmt == "channels_last" else "contiguous_format")
    module = module.to(memory_format=mf)
    xs = [x.contiguous(memory_format=mf) if x.dim() == 4 else x for x in inputs]
    step = _make_step(module, xs, True)
    first = timed(step)
    steady = statistics.median(timed(step) for _ in range(3))
    row[fmt] = {"first_s": first, "steady_s": steady, "first_less_steady_s": first - steady}
print("ROW " + json.dumps(row))
