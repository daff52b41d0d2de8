"""session 78: a frozen linear on the 2-core CPU, float32: addmm (MKL's sgemm, packing the weight at every call)
against MKL's packed sgemm (mkl._mkl_linear, the weight packed once) and oneDNN's (mkldnn._linear_pointwise), with
the weight cold as in a graph (a 64 MiB buffer written between calls) and warm. Median of 5 rounds of 50 calls, us.
    PYTHONPATH=. python3 bench/results/s78/linear_packed_micro.py
"""
import statistics, time, torch
torch.manual_seed(0)
flush = torch.empty(16 << 20)


def timed(fn, cold):
    for _ in range(5): fn()
    rounds = []
    for _ in range(5):
        total = 0.0
        for _ in range(50):
            if cold: flush.fill_(1.0)
            t = time.perf_counter(); fn(); total += time.perf_counter() - t
        rounds.append(total / 50 * 1e6)
    return statistics.median(rounds)


with torch.no_grad():
    # (rows, in, out): conv nets' classifier heads at batch 2, and transformer projections at the quick sizes
    for m, k, n in ((2, 320, 1000), (2, 512, 1000), (2, 1280, 1000), (2, 768, 1000), (8, 512, 512), (32, 256, 1024),
                    (128, 768, 768), (128, 768, 3072), (128, 3072, 768), (256, 512, 512), (2, 2048, 1000)):
        x, w, b = torch.randn(m, k), torch.randn(n, k), torch.randn(n)
        wt = w.t()
        mkl_w = torch.ops.mkl._mkl_reorder_linear_weight(w, m)
        dnn_w = torch.ops.mkldnn._reorder_linear_weight(w, m)
        row = []
        for cold in (True, False):
            a = timed(lambda: torch.addmm(b, x, wt), cold)
            p = timed(lambda: torch.ops.mkl._mkl_linear(x, mkl_w, w, b, m), cold)
            d = timed(lambda: torch.ops.mkldnn._linear_pointwise(x, dnn_w, b, "none", [], ""), cold)
            row.append(f"{'cold' if cold else 'warm'}: addmm {a:6.1f} mkl {p:6.1f} onednn {d:6.1f}")
        print(f"M={m:4d} K={k:4d} N={n:4d} ({k * n * 4 >> 10:5d} KiB)  " + "   ".join(row), flush=True)
