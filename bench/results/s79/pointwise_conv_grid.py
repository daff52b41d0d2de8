"""session 79: a frozen 1x1 convolution (stride 1, channels-last) on the 2-core CPU, us a call: MKL's addmm of its
pixels' rows, oneDNN's packed linear over the same rows, and oneDNN's packed convolution; without an activation.
Rounds alternate the variants.
    PYTHONPATH=. python3 bench/results/s79/pointwise_conv_grid.py"""
import time, torch
torch.manual_seed(0)


def timed(f, n):
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n * 1e6


for rows in (8, 32, 128, 512, 2048):
    for k, n in ((64, 256), (128, 512), (256, 1024), (512, 2048), (2048, 512)):
        if rows * n > 1 << 21:
            continue
        x = torch.randn(rows, k); w = torch.randn(k, n) * 0.1; b = torch.randn(n)
        wl = torch.ops.mkldnn._reorder_linear_weight(w.t().contiguous(), rows)
        x4 = x.view(1, rows, 1, k).permute(0, 3, 1, 2)   # [1, k, rows, 1] channels-last
        wc = torch.ops.mkldnn._reorder_convolution_weight(w.t().contiguous().view(n, k, 1, 1), [0, 0], [1, 1], [1, 1], 1, list(x4.shape))
        variants = {
            "addmm": lambda: torch.addmm(b, x, w),
            "linear": lambda: torch.ops.mkldnn._linear_pointwise(x, wl, b, "none", [], None),
            "conv": lambda: torch.ops.mkldnn._convolution_pointwise(x4, wc, b, [0, 0], [1, 1], [1, 1], 1, "none", [], None),
        }
        calls = max(20, int(2e5 / (rows * n / 1000 + 20)))
        best = {v: float("inf") for v in variants}
        for _ in range(5):
            for v, f in variants.items():
                timed(f, 5)
                best[v] = min(best[v], timed(f, calls))
        print(f"rows {rows:5d} k {k:4d} n {n:5d} ({k * n // 1024:4d}k): " + "  ".join(f"{v} {t:7.1f}" for v, t in best.items()) +
              f"   addmm/linear {best['addmm'] / best['linear']:.2f} conv/linear {best['conv'] / best['linear']:.2f}", flush=True)
