"""Random 5x5 depthwise convolutions (the window-row loop of bench/NOTES.md 125) through kiln's Triton kernels,
against eager and a float64 reference by the suite's rule: random sizes, strides, paddings (whole rows in the
padding too), dilations, layouts, biases, and a consumer (batch norm + SiLU, a spatial mean, a residual), float32
(the interpreter's bf16 casts truncate). Under dynamic=True for a fraction of them.

    KILN_TARGET=triton TRITON_INTERPRET=1 OMP_NUM_THREADS=1 PYTHONPATH=. python3 bench/results/s95/dw_random.py N SEED
"""
import random
import sys

import torch
import torch.nn.functional as F

import kiln
from kiln.tools.accuracy import accuracy_error


def case(rng):
    c, h, w = rng.choice([1, 3, 8, 24]), rng.randint(1, 13), rng.randint(1, 13)
    stride, dilation = rng.choice([1, 2, 3]), rng.choice([1, 1, 2])
    padding = rng.choice([0, 1, 2, 4, 6])
    if (h + 2 * padding - dilation * 4 - 1) < 0 or (w + 2 * padding - dilation * 4 - 1) < 0:
        padding = 2 * dilation + 3
    consumer, bias = rng.choice(["none", "bn_silu", "mean", "residual"]), rng.random() < 0.5
    x = torch.randn(rng.randint(1, 3), c, h, w)
    if rng.random() < 0.6:
        x = x.to(memory_format=torch.channels_last)
    args = [x, torch.randn(c, 1, 5, 5), torch.randn(c), torch.rand(c) + 0.5] + ([torch.randn(c)] if bias else [])

    def fn(x, weight, mean, var, b=None):
        y = F.conv2d(x, weight, b, stride, padding, dilation, groups=c)
        if consumer == "bn_silu":
            return F.silu(F.batch_norm(y, mean, var, None, None, False))
        if consumer == "mean":
            return y * y.mean((2, 3), keepdim=True).sigmoid()
        if consumer == "residual" and y.shape == x.shape:
            return y + x
        return y
    return fn, args, dict(c=c, h=h, w=w, stride=stride, padding=padding, dilation=dilation, consumer=consumer,
                          bias=bias, channels_last=x.is_contiguous(memory_format=torch.channels_last))


def main():
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    rng, failures, kilns = random.Random(seed), 0, 0
    for i in range(n):
        fn, args, desc = case(rng)
        dynamic = rng.random() < 0.25
        torch._dynamo.reset()
        with torch.no_grad():
            calls = kiln.stats().get("extern_calls", 0)
            try:
                out = kiln.compile(fn, dynamic=dynamic, options={"strict": True})(*args)
                desc["convolution"] = "kiln's" if kiln.stats().get("extern_calls", 0) == calls else "library"
                error = accuracy_error(out, fn(*args), fn(*[a.double() for a in args]))
            except Exception as e:   # (strict: a kiln failure raises)
                error = f"raised {type(e).__name__}: {str(e)[:300]}"
        failures += bool(error)
        kilns += desc.get("convolution") == "kiln's"
        print(i, "ok" if not error else error, desc, "dynamic" if dynamic else "", flush=True)
    print(f"{n} cases, {failures} failed, {kilns} convolutions kiln's")


if __name__ == "__main__":
    main()
