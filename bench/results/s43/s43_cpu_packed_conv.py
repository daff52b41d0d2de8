"""What prepacking a convolution's weight for oneDNN would save on the 2-core CPU, per call, at the quick sizes of the
suite's conv nets: ATen's convolution (what kiln's wrapper calls, frozen or not) against oneDNN's pointwise
convolution with the weight reordered once (mkldnn._reorder_convolution_weight; Inductor's CPU freezing calls it).

    PYTHONPATH=. python3 bench/results/s43/s43_cpu_packed_conv.py"""
import time

import torch


def timed(fn, n=2000):
    for _ in range(100):
        fn()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


SHAPES = [   # (input sizes, out channels, kernel, stride, padding, groups), from ResNet and MobileNetV2 at quick sizes
    ((2, 16, 8, 8), 16, 3, 1, 1, 1), ((2, 3, 32, 32), 16, 7, 2, 3, 1), ((2, 8, 32, 32), 48, 1, 1, 0, 1),
    ((2, 48, 33, 33), 48, 3, 2, 0, 48), ((2, 144, 4, 4), 24, 1, 1, 0, 1), ((2, 240, 4, 4), 240, 3, 1, 1, 240)]
with torch.no_grad():
    for sizes, out, k, s, p, g in SHAPES:
        for layout in (torch.contiguous_format, torch.channels_last):
            x = torch.randn(sizes).to(memory_format=layout)
            w = torch.randn(out, sizes[1] // g, k, k).to(memory_format=layout)
            b = torch.randn(out)
            packed = torch.ops.mkldnn._reorder_convolution_weight(w, [p, p], [s, s], [1, 1], g, list(sizes))
            aten = timed(lambda: torch.ops.aten.convolution(x, w, b, [s, s], [p, p], [1, 1], False, [0, 0], g))
            pw = timed(lambda: torch.ops.mkldnn._convolution_pointwise(x, packed, b, [p, p], [s, s], [1, 1], g, "none",
                                                                       [], ""))
            same = torch.allclose(torch.ops.aten.convolution(x, w, b, [s, s], [p, p], [1, 1], False, [0, 0], g),
                                  torch.ops.mkldnn._convolution_pointwise(x, packed, b, [p, p], [s, s], [1, 1], g,
                                                                          "none", [], ""), atol=1e-4)
            print(f"{str(sizes):18} -> {out:4} k{k} s{s} g{g:<3} {'NHWC' if layout is torch.channels_last else 'NCHW'}:"
                  f" ATen {aten:6.1f} us, prepacked {pw:6.1f} us, same result {same}")
