"""Build time and GPU time of a 5x5 depthwise convolution's kernel as kiln generates it (25 unrolled masked taps)
against two looped forms (bench/results/s93/dw_kernels.py), on the GPU: each kernel's first build (Triton's cache
off), its median time over do_bench rounds, and its largest difference from torch's convolution (fp32 reference).
Prediction (bench/NOTES.md 123): builds 3-5x faster looped (0.5-0.7 s against 2.4 on the 2-core CPU, for sm_90);
GPU time within 10% for the rows loop, unknown for the whole loop. Each at tiles of 32, 16 and 8 pixels by 32
channels (8, 4 and 2 elements a thread).

    PYTHONPATH=. python3 bench/results/s93/dw_loop_probe.py OUT.json
"""
import json
import os
import sys
import time

import torch
import triton
from triton.testing import do_bench

os.environ["TRITON_ALWAYS_COMPILE"] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dw_kernels  # noqa: E402


def main():
    torch.manual_seed(0)
    x = torch.randn(32, 144, 56, 56, device="cuda").to(torch.bfloat16).contiguous(memory_format=torch.channels_last)
    w = torch.randn(144, 1, 5, 5, device="cuda").to(torch.bfloat16)
    ref = torch.nn.functional.conv2d(x.float(), w.float(), stride=2, padding=2, groups=144)
    taps = w.permute(2, 3, 0, 1).contiguous()   # tap-major, channels innermost (as kiln's realize_strided)
    N, R = 32 * 28 * 28, 144
    rows = {}
    # (session 94) the tile too: fewer elements a thread build faster (kiln's fit_build_budget judges the unrolled
    # kernel's ~200 lines at 8 elements a thread within its 0.4 s budget, where it took 1-2 s to build)
    for name in [n for n in dir(dw_kernels) if n.startswith(("kernel_", "dw_"))]:
        fn = getattr(dw_kernels, name)
        for XB, RB in [(32, 32), (16, 32), (8, 32)]:
            grid = (triton.cdiv(N, XB) * triton.cdiv(R, RB),)
            out = torch.empty(32, 144, 28, 28, device="cuda", dtype=torch.bfloat16).contiguous(
                memory_format=torch.channels_last)
            started = time.perf_counter()
            fn[grid](x, taps, out, N, R, XBLOCK=XB, RBLOCK=RB, num_warps=4)
            torch.cuda.synchronize()
            first = time.perf_counter() - started
            us = [1e3 * do_bench(lambda: fn[grid](x, taps, out, N, R, XBLOCK=XB, RBLOCK=RB, num_warps=4),
                                 warmup=25, rep=200, return_mode="median") for _ in range(3)]
            key = f"{name[:40]} {XB}x{RB}"
            rows[key] = {"first_call_s": first, "us": us, "max_abs_diff": float((out.float() - ref).abs().max())}
            print(key, rows[key], flush=True)
    cudnn = [1e3 * do_bench(lambda: torch.nn.functional.conv2d(x, w, stride=2, padding=2, groups=144), warmup=25,
                            rep=200, return_mode="median") for _ in range(3)]
    rows["cudnn"] = {"us": cudnn}
    print("cudnn", cudnn)
    with open(sys.argv[1], "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "triton": triton.__version__, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
