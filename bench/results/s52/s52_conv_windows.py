"""Session 52: small convolutions on the CPU, oneDNN (channels-last, as kiln called it) against
kiln.runtime.conv_as_matmul (their windows copied into a matrix, then a product), forward and backward, per call,
in eager; each result checked against oneDNN's.
    PYTHONPATH=. python3 bench/results/s52/s52_conv_windows.py
"""
import statistics
import time

import torch
import torch.nn.functional as F

from kiln.runtime.conv_as_matmul import convolution_as_matmul, convolution_backward_as_matmul


def us(fn, n=200):
    for _ in range(20):
        fn()
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(times)


CASES = [  # batch, in channels, h = w, out channels, window, stride, padding
    (2, 3, 32, 32, 16, 7, 2, 3), (2, 16, 8, 8, 16, 3, 1, 1), (2, 16, 8, 8, 32, 3, 2, 1), (2, 32, 4, 4, 32, 3, 1, 1),
    (2, 3, 32, 32, 64, 8, 8, 0), (2, 3, 32, 32, 16, 2, 2, 0), (2, 16, 16, 16, 32, 2, 2, 0),
    (2, 16, 32, 32, 16, 3, 1, 1), (2, 32, 16, 16, 32, 3, 1, 1), (2, 64, 16, 16, 64, 3, 1, 1)]
torch.manual_seed(0)
for n, c, h, w, k, window, s, p in CASES:
    x = torch.randn(n, c, h, w).contiguous(memory_format=torch.channels_last)
    weight = torch.randn(k, c, window, window).contiguous(memory_format=torch.channels_last)
    bias = torch.randn(k)
    args = ([s, s], [p, p], [1, 1])
    out = F.conv2d(x, weight, bias, *args)
    torch.testing.assert_close(convolution_as_matmul(x, weight, bias, *args), out, atol=1e-3, rtol=1e-3)
    grad = torch.randn_like(out).contiguous(memory_format=torch.channels_last)
    mask = [True, True, True]
    for a, b in zip(convolution_backward_as_matmul(grad, x, weight, *args, mask),
                    torch.ops.aten.convolution_backward(grad, x, weight, [k], *args, False, [0, 0], 1, mask)):
        torch.testing.assert_close(a, b, atol=1e-2, rtol=1e-3)
    macs = out.numel() * c * window * window
    times = [us(lambda: F.conv2d(x, weight, bias, *args)), us(lambda: convolution_as_matmul(x, weight, bias, *args)),
             us(lambda: torch.ops.aten.convolution_backward(grad, x, weight, [k], *args, False, [0, 0], 1, mask)),
             us(lambda: convolution_backward_as_matmul(grad, x, weight, *args, mask))]
    print(f"{(n, c, h, w)} -> {k}, {window}x{window} stride {s} padding {p}, {macs} multiply-adds: forward oneDNN "
          f"{times[0]:.1f} us, product {times[1]:.1f}; backward oneDNN {times[2]:.1f}, products {times[3]:.1f}",
          flush=True)
