"""A sum over a short strided dim (a broadcast bias's gradient over the batch), kiln against Inductor: us a call
(CUDA events over 200 calls, median of alternating rounds) and the share of the bytes' floor at 4 TB/s
(session 72, issue 16; codegen/triton.INTERLEAVED_TILE).
    PYTHONPATH=. python3 bench/results/s72/batch_sum.py"""
import statistics

import torch

import kiln

SHAPES = [(8, 8, 512, 512), (8, 12, 512, 512), (4, 16, 256, 256), (16, 3, 64, 49, 49), (32, 2048)]


def bias_gradient(grad):
    return grad.sum(0)


for shape in SHAPES:
    torch._dynamo.reset()
    grad = torch.randn(shape, device="cuda")
    fns = {"inductor": torch.compile(bias_gradient), "kiln": kiln.compile(bias_gradient)}
    expected = grad.double().sum(0)
    errors = {k: float((f(grad).double() - expected).abs().max()) for k, f in fns.items()}
    times = {k: [] for k in fns}
    for _ in range(7):
        for k, f in fns.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(200):
                f(grad)
            end.record()
            torch.cuda.synchronize()
            times[k].append(start.elapsed_time(end) * 1000 / 200)
    floor = grad.numel() * 4 * (1 + 1 / shape[0]) / 4e12 * 1e6
    print(f"{str(shape):22s} floor {floor:6.1f} us; " + "; ".join(
        f"{k} {statistics.median(t[1:]):7.1f} us (err {errors[k]:.1e})" for k, t in times.items()), flush=True)
