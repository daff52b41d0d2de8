"""Each batch norm of a suite model in training mode, compiled alone on the input eager gives it, against fp64:
the variance, the normalized output, and the gradients of the input, weight and bias for a random upstream
gradient. A batch norm's variance sets where a following ReLU cuts; an error there flips a few of its elements
and moves every gradient upstream (timm MobileNetV3's training step).

    PYTHONPATH=. python3 scripts/norm_accuracy.py timm_mobilenetv3 --device cuda --size gpu --backends kiln,inductor
"""
import argparse
import json

import torch
import torch.nn.functional as F
from torch import nn

from kiln.tools import accuracy
from kiln.tools.bench import _compile
from kiln.tools.workloads import workload


def norm(x, weight, bias):
    return torch.var(x, (0, 2, 3), correction=0), F.batch_norm(x, None, None, weight, bias, training=True)


def norm_step(fn, x, weight, bias, upstream):
    """var, the norm's output, and the gradients of x, weight and bias for the upstream gradient."""
    x, weight, bias = (t.detach().requires_grad_() for t in (x, weight, bias))
    var, out = fn(x, weight, bias)
    out.backward(upstream)
    return [var.detach(), out.detach(), x.grad, weight.grad, bias.grad]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--device", default="cpu")
    p.add_argument("--size", default="quick")
    p.add_argument("--backends", default="kiln")
    p.add_argument("--top", type=int, default=8)
    a = p.parse_args()
    w = workload(a.model)
    module = w.make_module(a.device, torch.float32, a.size, True)
    caught = []
    for name, m in module.named_modules():
        if isinstance(m, nn.BatchNorm2d):
            m.register_forward_pre_hook(lambda m, args, name=name: caught.append((name, m, args[0].detach().clone())))
    with torch.no_grad(), accuracy.exact_float32():
        module(*w.make_inputs(a.device, torch.float32, a.size))
    compiled = {b: _compile(norm, b) for b in a.backends.split(",")}
    g = torch.Generator(a.device).manual_seed(0)
    rows = []
    with accuracy.exact_float32():
        for name, m, x in caught:
            args = [x, m.weight.detach(), m.bias.detach(), torch.randn(x.shape, generator=g, device=x.device)]
            fp64, eager = norm_step(norm, *[t.double() for t in args]), norm_step(norm, *args)
            row = {"norm": name, "shape": list(x.shape)}
            for backend, f in compiled.items():
                result = norm_step(f, *args)
                row[backend] = [round(accuracy.rmse(r64, r) / max(accuracy.rmse(r64, e), 1e-30), 2)
                                for r64, e, r in zip(fp64, eager, result)]
            rows.append(row)
    print("ratio to eager's RMSE from fp64 of: var, output, grad x, grad weight, grad bias")
    first = a.backends.split(",")[0]
    for row in sorted(rows, key=lambda r: -max(r[first]))[:a.top]:
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
