"""session 79: a frozen product followed by an erf GELU on the 2-core CPU, us a call: MKL's addmm then the GELU
(eager's kernel, as kiln's C++ GELU kernel runs at its speed), against oneDNN's packed linear and packed 1x1
convolution with the GELU as a post-op. Rounds alternate the variants.
    PYTHONPATH=. python3 bench/results/s79/gelu_postop_grid.py"""
import time, torch
F = torch.nn.functional
torch.manual_seed(0)


def timed(f, n):
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n * 1e6


for rows in (8, 32, 128, 512, 2048):
    for k, n in ((32, 128), (64, 256), (128, 512), (256, 1024), (512, 2048)):
        if rows * n > 1 << 21:
            continue
        x = torch.randn(rows, k); w = torch.randn(k, n) * 0.1; b = torch.randn(n)
        wl = torch.ops.mkldnn._reorder_linear_weight(w.t().contiguous(), rows)
        x4 = x.view(1, rows, 1, k).permute(0, 3, 1, 2)   # [1, k, rows, 1] channels-last
        wc = torch.ops.mkldnn._reorder_convolution_weight(w.t().contiguous().view(n, k, 1, 1), [0, 0], [1, 1], [1, 1], 1, list(x4.shape))
        variants = {
            "addmm+gelu": lambda: F.gelu(torch.addmm(b, x, w)),
            "linear+gelu": lambda: torch.ops.mkldnn._linear_pointwise(x, wl, b, "gelu", [], "none"),
            "conv+gelu": lambda: torch.ops.mkldnn._convolution_pointwise(x4, wc, b, [0, 0], [1, 1], [1, 1], 1, "gelu", [], "none"),
        }
        ref = F.gelu(torch.addmm(b, x, w))
        assert torch.allclose(variants["linear+gelu"](), ref, atol=1e-5)
        assert torch.allclose(variants["conv+gelu"]().permute(0, 2, 3, 1).reshape(rows, n), ref, atol=1e-5)
        calls = max(20, int(2e5 / (rows * n / 1000 + 20)))
        best = {v: float("inf") for v in variants}
        for _ in range(5):
            for v, f in variants.items():
                timed(f, 5)
                best[v] = min(best[v], timed(f, calls))
        print(f"rows {rows:5d} k {k:4d} n {n:5d}: " + "  ".join(f"{v} {t:7.1f}" for v, t in best.items()) +
              f"   addmm/linear {best['addmm+gelu'] / best['linear+gelu']:.2f} addmm/conv {best['addmm+gelu'] / best['conv+gelu']:.2f}", flush=True)
