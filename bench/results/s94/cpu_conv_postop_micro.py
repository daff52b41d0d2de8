# session 94: one packed oneDNN 3x3 convolution (channels-last, batch 2) on the 2-core CPU: no post-op, ReLU
# post-op, the residual added in place (Inductor's frozen form), and conv then add_ and relu_ apart; us a call.
#   python3 bench/results/s94/cpu_conv_postop_micro.py
import torch, time, statistics
torch.manual_seed(0)
def bench(f, n=200, rounds=7):
    for _ in range(20): f()
    ts = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n): f()
        ts.append((time.perf_counter() - t) / n * 1e6)
    return statistics.median(ts)
for C, H in [(64, 16), (256, 4), (128, 8)]:
    x = torch.randn(2, C, H, H).contiguous(memory_format=torch.channels_last)
    w = torch.randn(C, C, 3, 3); b = torch.randn(C)
    wp = torch.ops.mkldnn._reorder_convolution_weight(w, [1, 1], [1, 1], [1, 1], 1, list(x.shape))
    other = torch.randn(2, C, H, H).contiguous(memory_format=torch.channels_last)
    ops = torch.ops.mkldnn
    r = {}
    for rep in range(2):
        r.setdefault("none", []).append(bench(lambda: ops._convolution_pointwise(x, wp, b, [1, 1], [1, 1], [1, 1], 1, "none", [], "")))
        r.setdefault("relu", []).append(bench(lambda: ops._convolution_pointwise(x, wp, b, [1, 1], [1, 1], [1, 1], 1, "relu", [], "")))
        r.setdefault("add_inplace", []).append(bench(lambda: ops._convolution_pointwise_(other, x, wp, b, [1, 1], [1, 1], [1, 1], 1, "add", 1.0, None, [], None)))
        r.setdefault("add_relu_inplace", []).append(bench(lambda: ops._convolution_pointwise_(other, x, wp, b, [1, 1], [1, 1], [1, 1], 1, "add", 1.0, "relu", [], None)))
        r.setdefault("none_plus_kiln_like_add", []).append(bench(lambda: torch.relu_(ops._convolution_pointwise(x, wp, b, [1, 1], [1, 1], [1, 1], 1, "none", [], "").add_(other))))
        r.setdefault("eager", []).append(bench(lambda: torch.nn.functional.conv2d(x, w, b, padding=1)))
    print(C, H, {k: [round(v, 1) for v in vs] for k, vs in r.items()})
