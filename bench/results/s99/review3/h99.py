"""harness.py plus a stand-in fix: ReplayingRecorder.record puts back its inputs' values with copy_, which fails on an
expanded input (a real capture writes nothing); inputs that overlap themselves are not put back (nothing writes
them)."""
from harness import *
from harness import tm, R
import torch
_record = R.record

def record(self, call, inputs):
    expanded = [i for i, t in enumerate(inputs) if isinstance(t, torch.Tensor) and cuda_graphs_overlaps(t)]
    if not expanded:
        return _record(self, call, inputs)
    # hide the expanded ones from the put-back: pass clones of nothing, restore by hand
    real_copy = torch.Tensor.copy_
    def copy_(t, b, *a, **k):
        if any(t.data_ptr() == inputs[i].data_ptr() and t.stride() == inputs[i].stride() for i in expanded):
            return t
        return real_copy(t, b, *a, **k)
    torch.Tensor.copy_ = copy_
    try:
        return _record(self, call, inputs)
    finally:
        torch.Tensor.copy_ = real_copy

def cuda_graphs_overlaps(t):
    return any(s == 0 and n > 1 for n, s in zip(t.shape, t.stride()))

R.record = record
