"""Which of kiln's decompositions lay their results out otherwise than the op's meta kernel (the layout Dynamo traced
the user's views against): OpInfo samples with their tensors transposed, run through the decomposition on real
tensors and through the op under fake tensors. PYTHONPATH=. python3 bench/results/s81/decomposition_strides.py"""
import warnings

import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.testing._internal.common_methods_invocations import op_db

from kiln.decompositions import _table

warnings.filterwarnings("ignore")
by_name = {}
for op, fn in _table().items():
    by_name.setdefault(op.overloadpacket.__name__, []).append((op, fn))


def transposed(t):
    if isinstance(t, torch.Tensor) and t.dim() >= 2 and t.is_floating_point():
        return t.transpose(0, 1).contiguous().transpose(0, 1)
    return t


def tensors(out):
    return [out] if isinstance(out, torch.Tensor) else \
        [o for o in out if isinstance(o, torch.Tensor)] if isinstance(out, (tuple, list)) else []


found = {}
for info in op_db:
    name = info.name.split(".")[-1]
    if name not in by_name:
        continue
    try:
        samples = list(info.sample_inputs("cpu", torch.float32))[:12]
    except Exception:  # noqa: BLE001
        continue
    for s in samples:
        args = [transposed(a) for a in [s.input, *s.args]]
        for op, fn in by_name[name]:
            try:
                got = tensors(fn(*args, **s.kwargs))
                mode = FakeTensorMode()
                with mode:
                    want = tensors(op(*[mode.from_tensor(a) if isinstance(a, torch.Tensor) else a for a in args],
                                      **s.kwargs))
            except Exception:  # noqa: BLE001
                continue
            for w, g in zip(want, got):
                if w.shape == g.shape and w.numel() > 1 and \
                        any(a != b for a, b, n in zip(w.stride(), g.stride(), w.shape) if n > 1):
                    found.setdefault(str(op), (list(w.shape), "meta", w.stride(), "decomposition", g.stride()))
for op, row in sorted(found.items()):
    print(op, *row)
print(len(found), "ops")
