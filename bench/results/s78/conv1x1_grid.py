"""session 78: the grid behind the choice between a frozen 1x1 convolution's product (MKL's sgemm through addmm,
which packs both operands at every call) and oneDNN's call with the weight packed once, on the 2-core CPU:
rows M = batch x pixels, K in, N out channels; addmm / packed time (us, median of 5 rounds of 100 calls).
    PYTHONPATH=. python3 bench/results/s78/conv1x1_grid.py
"""
import statistics, time, torch
from kiln.runtime.prepacked import PackedConvolution
torch.manual_seed(0)


def timed(fn):
    for _ in range(10): fn()
    rounds = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(100): fn()
        rounds.append((time.perf_counter() - t) / 100 * 1e6)
    return statistics.median(rounds)


with torch.no_grad():
    for hw in (1, 2, 4, 8, 16):
        for k, n in ((64, 256), (256, 64), (128, 512), (512, 128), (256, 1024), (1024, 256), (512, 2048), (2048, 512)):
            x = torch.randn(2, k, hw, hw).contiguous(memory_format=torch.channels_last)
            weight, bias = torch.randn(n, k, 1, 1), torch.randn(n)
            rows, wt = x.permute(0, 2, 3, 1).reshape(-1, k), weight.reshape(n, k).t()
            out = torch.empty(rows.shape[0], n)
            packed = PackedConvolution(weight, [1, 1], [0, 0], [1, 1], 1, list(x.shape))
            mm, pk = timed(lambda: torch.addmm(bias, rows, wt, out=out)), timed(lambda: packed(x, bias))
            print(f"M={rows.shape[0]:4d} K={k:4d} N={n:4d} weight {k * n * 4 / 1024:6.0f} KiB: addmm {mm:7.1f} "
                  f"packed {pk:7.1f}  addmm/packed {mm / pk:4.2f}", flush=True)
