"""What cuDNN's first calls cost per convolution kind and layout (session 88, issue 23): EfficientNet-B0's distinct
convolutions at the GPU size (fp32 training), each run as forward and backward (convolution_backward, input and
weight gradients) in a fresh process, first in one layout then in the other; per call the first time less the
steady time (median of 5), and the steady time. Summed by kind (depthwise, 1x1, other) and layout. One JSON row.
    PYTHONPATH=. python3 bench/results/s88/cudnn_conv_kinds.py [--cl-first] [--model efficientnet]"""
import collections
import json
import statistics
import sys
import time

import torch

from kiln.tools.workloads import workload

model = sys.argv[sys.argv.index("--model") + 1] if "--model" in sys.argv else "efficientnet"
device = "cuda" if torch.cuda.is_available() else "cpu"
w = workload(model)
module = w.make_module("meta", torch.float32, "gpu", True)
inputs = [torch.empty_like(x, device="meta") for x in w.make_inputs("cpu", torch.float32, "gpu")]
configs = {}


def record(conv, args, out):
    x, padding = args[0], conv.padding
    if isinstance(padding, str):   # "valid", or "same" (odd kernels: symmetric)
        padding = tuple(0 if padding == "valid" else d * (k - 1) // 2
                        for k, d in zip(conv.kernel_size, conv.dilation))
    key = (tuple(x.shape), tuple(conv.weight.shape), conv.stride, padding, conv.dilation, conv.groups,
           conv.bias is not None)
    configs[key] = configs.get(key, 0) + 1


for m in module.modules():
    if isinstance(m, torch.nn.Conv2d):
        m.register_forward_hook(record)
module(*inputs)


def kind(key):
    x, wt, groups = key[0], key[1], key[5]
    return "depthwise" if groups == x[1] and groups > 1 else "1x1" if wt[2:] == (1, 1) else "other"


def timed(fn):
    torch.cuda.synchronize() if device == "cuda" else None
    t = time.perf_counter()
    fn()
    torch.cuda.synchronize() if device == "cuda" else None
    return time.perf_counter() - t


torch.nn.functional.conv2d(torch.ones(1, 3, 8, 8, device=device), torch.ones(4, 3, 3, 3, device=device))  # start
orders = ["channels_last", "contiguous"] if "--cl-first" in sys.argv else ["contiguous", "channels_last"]
rows = []
for fmt in orders:
    mf = torch.channels_last if fmt == "channels_last" else torch.contiguous_format
    for key, uses in configs.items():
        xs, ws, stride, padding, dilation, groups, bias = key
        x = torch.randn(xs, device=device).contiguous(memory_format=mf)
        wt = torch.randn(ws, device=device).contiguous(memory_format=mf)
        b = torch.randn(ws[0], device=device) if bias else None
        y = torch.convolution(x, wt, b, stride, padding, dilation, False, [0, 0], groups)
        g = torch.randn_like(y)
        fwd = lambda: torch.convolution(x, wt, b, stride, padding, dilation, False, [0, 0], groups)  # noqa: E731
        bwd = lambda: torch.ops.aten.convolution_backward(  # noqa: E731
            g, x, wt, [ws[0]] if bias else None, stride, padding, dilation, False, [0, 0], groups,
            [True, True, bias])
        row = {"layout": fmt, "kind": kind(key), "x": xs, "w": ws, "stride": stride, "groups": groups, "uses": uses,
               "out_channels_last": y.is_contiguous(memory_format=torch.channels_last)}
        for name, fn in (("fwd", fwd), ("bwd", bwd)):
            first = timed(fn)
            steady = statistics.median(timed(fn) for _ in range(5))
            row[name] = {"first_less_steady_s": first - steady, "steady_ms": steady * 1e3}
        rows.append(row)
summary = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
for r in rows:
    s = summary[f'{r["layout"]} {r["kind"]}']
    s[0] += 1
    s[1] += r["fwd"]["first_less_steady_s"]
    s[2] += r["bwd"]["first_less_steady_s"]
    s[3] += r["fwd"]["steady_ms"] * r["uses"]
    s[4] += r["bwd"]["steady_ms"] * r["uses"]
print("SUMMARY layout kind: configs, fwd first-steady s, bwd first-steady s, fwd steady ms x uses, bwd steady ms x uses")
for k, v in summary.items():
    print("SUMMARY", k, v[0], *(round(x, 3) for x in v[1:]))
print("ROWS " + json.dumps({"model": model, "orders": orders, "cudnn": torch.backends.cudnn.version(),
                            "rows": rows}))
