"""Hand-written Triton depthwise 3x3 convolutions (bf16, channels-last, stride 1, padding 1) over one shape, timed
(do_bench, cold L2) beside cuDNN and a copy, to find what bounds kiln's generated depthwise kernels:
  PYTHONPATH=. python3 bench/results/s42/s42_dw_hand.py N,C,H OUT.json"""
import json, sys
import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def dw_flat(x_ptr, w_ptr, y_ptr, P, C, H: tl.constexpr, W: tl.constexpr, TAPS: tl.constexpr,
            XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    """kiln's shape: a tile of XBLOCK flattened positions x RBLOCK channels, taps unrolled, masks per tap."""
    rblocks = tl.cdiv(C, RBLOCK)
    pid = tl.program_id(0)
    x0 = ((pid // rblocks) * XBLOCK + tl.arange(0, XBLOCK))[:, None]
    r0 = ((pid % rblocks) * RBLOCK + tl.arange(0, RBLOCK))[None, :]
    rmask = r0 < C
    w = x0 % W
    h = (x0 // W) % H
    acc = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for kh in tl.static_range(3):
        for kw in tl.static_range(3):
            if TAPS == 9 or (kh == 1 and kw == 1):
                hh = h + kh - 1
                ww = w + kw - 1
                inside = (hh >= 0) & (hh < H) & (ww >= 0) & (ww < W)
                v = tl.load(x_ptr + r0 + C * (x0 + (kh - 1) * W + (kw - 1)), mask=rmask & inside, other=0).to(tl.float32)
                wt = tl.load(w_ptr + r0 + C * (kh * 3 + kw), mask=rmask, other=0, eviction_policy="evict_last").to(tl.float32)
                acc += v * wt
    tl.store(y_ptr + r0 + C * x0, acc.to(tl.bfloat16), mask=rmask & (x0 < P))


@triton.jit
def dw_rows(x_ptr, w_ptr, y_ptr, C, H: tl.constexpr, W: tl.constexpr, BW: tl.constexpr, RBLOCK: tl.constexpr):
    """A program per (image row, column block, channel block): no divisions per element; 3 input rows."""
    rblocks = tl.cdiv(C, RBLOCK)
    wblocks = tl.cdiv(W, BW)
    pid = tl.program_id(0)
    rb = pid % rblocks
    wb = (pid // rblocks) % wblocks
    nh = pid // (rblocks * wblocks)
    h = nh % H
    w = (wb * BW + tl.arange(0, BW))[:, None]
    r0 = (rb * RBLOCK + tl.arange(0, RBLOCK))[None, :]
    rmask = r0 < C
    acc = tl.zeros([BW, RBLOCK], tl.float32)
    for kh in tl.static_range(3):
        hh = h + kh - 1 + tl.zeros([BW, 1], tl.int32)
        row_ok = (hh >= 0) & (hh < H)
        for kw in tl.static_range(3):
            ww = w + kw - 1
            inside = row_ok & (ww >= 0) & (ww < W)
            v = tl.load(x_ptr + r0 + C * ((nh + kh - 1) * W + ww), mask=rmask & inside, other=0).to(tl.float32)
            wt = tl.load(w_ptr + r0 + C * (kh * 3 + kw), mask=rmask, other=0, eviction_policy="evict_last").to(tl.float32)
            acc += v * wt
    tl.store(y_ptr + r0 + C * (nh * W + w), acc.to(tl.bfloat16), mask=rmask & (w < W))


n, c, h = map(int, sys.argv[1].split(","))
x = torch.randn(n, c, h, h, device="cuda", dtype=torch.bfloat16).to(memory_format=torch.channels_last)
wt = torch.randn(c, 1, 3, 3, device="cuda", dtype=torch.bfloat16)
w_tapmajor = wt.permute(2, 3, 1, 0).contiguous()   # [3, 3, 1, C]
ref = torch.nn.functional.conv2d(x.float(), wt.float(), None, 1, 1, 1, c)
y = torch.empty_like(x)
res = {"shape": sys.argv[1]}
res["cudnn"] = do_bench(lambda: torch.nn.functional.conv2d(x, wt, None, 1, 1, 1, c), warmup=50, rep=300) * 1000
res["copy"] = do_bench(lambda: y.copy_(x), warmup=50, rep=300) * 1000
P = n * h * h
for taps in (1, 9):
    for xb, rb, warps in [(32, 32, 4), (64, 32, 4), (16, 64, 4), (64, 64, 8), (128, 32, 8), (32, 128, 8), (8, 128, 4)]:
        grid = (triton.cdiv(P, xb) * triton.cdiv(c, rb),)
        f = lambda: dw_flat[grid](x, w_tapmajor, y, P, c, h, h, taps, xb, rb, num_warps=warps)
        f()
        if taps == 9:
            torch.testing.assert_close(y.float(), ref, atol=0.1, rtol=0.05)
        res[f"flat taps{taps} {xb}x{rb} w{warps}"] = do_bench(f, warmup=50, rep=300) * 1000
for bw, rb, warps in [(16, 32, 4), (32, 32, 4), (64, 32, 4), (16, 64, 4), (32, 64, 8), (64, 64, 8), (8, 128, 4),
                      (16, 128, 8)]:
    grid = (n * h * triton.cdiv(h, bw) * triton.cdiv(c, rb),)
    f = lambda: dw_rows[grid](x, w_tapmajor, y, c, h, h, bw, rb, num_warps=warps)
    f()
    torch.testing.assert_close(y.float(), ref, atol=0.1, rtol=0.05)
    res[f"rows {bw}x{rb} w{warps}"] = do_bench(f, warmup=50, rep=300) * 1000
res = {k: round(v, 2) if isinstance(v, float) else v for k, v in res.items()}
print(json.dumps(res, indent=1))
json.dump(res, open(sys.argv[2], "w"), indent=1)
