"""session 78: a frozen 1x1 convolution on the 2-core CPU, quick sizes, float32, channels-last input: as kiln runs
it today (an addmm of the pixels' channels with the weight: MKL's sgemm, as kiln's C++ calls it) against oneDNN's
call with the weight packed once (kiln.runtime.prepacked.PackedConvolution). Median of 7 rounds of 200 calls, us.
    PYTHONPATH=. python3 bench/results/s78/conv1x1_packed_micro.py
"""
import statistics, time, torch
from kiln.runtime.prepacked import PackedConvolution
torch.manual_seed(0)
# (batch, in channels, h, w, out channels): ConvNeXt-atto's MLPs at 64x64 (stages 16..2 pixels, C -> 4C -> C),
# RegNet's and MobileNetV2's and ResNet's 1x1 convolutions at the quick size
SHAPES = [(2, 40, 16, 16, 160), (2, 160, 16, 16, 40), (2, 80, 8, 8, 320), (2, 320, 8, 8, 80),
          (2, 160, 4, 4, 640), (2, 640, 4, 4, 160), (2, 320, 2, 2, 1280), (2, 1280, 2, 2, 320),
          (2, 16, 16, 16, 16), (2, 32, 8, 8, 192), (2, 64, 32, 32, 64), (2, 24, 16, 16, 144), (2, 144, 16, 16, 24),
          (2, 256, 4, 4, 1024)]


def timed(fn):
    for _ in range(20): fn()
    rounds = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(200): fn()
        rounds.append((time.perf_counter() - t) / 200 * 1e6)
    return statistics.median(rounds)


with torch.no_grad():
    for n, c, h, w, k in SHAPES:
        x = torch.randn(n, c, h, w).contiguous(memory_format=torch.channels_last)
        weight, bias = torch.randn(k, c, 1, 1), torch.randn(k)
        rows, wt = x.permute(0, 2, 3, 1).reshape(-1, c), weight.reshape(k, c).t()
        out = torch.empty(n * h * w, k)
        packed = PackedConvolution(weight, [1, 1], [0, 0], [1, 1], 1, [n, c, h, w])
        mm = timed(lambda: torch.addmm(bias, rows, wt, out=out))
        pk = timed(lambda: packed(x, bias))
        print(f"{n}x{c}x{h}x{w} -> {k}: addmm {mm:6.1f}  packed {pk:6.1f}  ratio {mm / pk:4.2f}", flush=True)
