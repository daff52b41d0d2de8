"""Block size, warps and math library for the issue's two compute-heavy pointwise kernels, on the GPU.

    PYTHONPATH=. python3 scripts/gpu_tune_pointwise.py

Hand-written Triton versions of sin(x)^2 + cos(x)^2 (fp32, 64M) and gelu(x + b) (bf16, 8192^2), each
in several variants, timed against Inductor's compile of the same function, in one process.
"""
import itertools

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.testing import do_bench


@triton.jit
def sincos_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, LIB: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if LIB:
        s, c = libdevice.sin(x), libdevice.cos(x)
    else:
        s, c = tl.sin(x), tl.cos(x)
    tl.store(y_ptr + offs, s * s + c * c, mask=mask)


@triton.jit
def gelu_kernel(x_ptr, b_ptr, y_ptr, n, cols, BLOCK: tl.constexpr, LIB: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask).to(tl.float32) + tl.load(b_ptr + offs % cols, mask=mask).to(tl.float32)
    e = libdevice.erf(v * 0.7071067811865476) if LIB else tl.erf(v * 0.7071067811865476)
    tl.store(y_ptr + offs, (0.5 * v * (1.0 + e)).to(tl.bfloat16), mask=mask)


def main():
    x = torch.randn(64 << 20, device="cuda")
    y = torch.empty_like(x)
    ref = torch.sin(x) ** 2 + torch.cos(x) ** 2
    ind = torch.compile(lambda x: torch.sin(x) ** 2 + torch.cos(x) ** 2, backend="inductor")
    ind(x)
    print(f"sincos inductor {do_bench(lambda: ind(x), return_mode='median') * 1e3:.1f} us")
    for block, warps, lib in itertools.product((512, 1024, 2048, 4096), (2, 4, 8), (True, False)):
        run = lambda: sincos_kernel[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), block, lib,  # noqa: E731
                                                                    num_warps=warps)
        run()
        err = (y - ref).abs().max().item()
        print(f"sincos block {block} warps {warps} {'libdevice' if lib else 'tl'}: "
              f"{do_bench(run, return_mode='median') * 1e3:.1f} us, max err {err:.1e}")

    x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    fn = lambda x, b: torch.nn.functional.gelu(x + b)  # noqa: E731
    ref = fn(x.double(), b.double())
    ind = torch.compile(fn, backend="inductor")
    ind(x, b)
    print(f"gelu inductor {do_bench(lambda: ind(x, b), return_mode='median') * 1e3:.1f} us")
    for block, warps, lib in itertools.product((512, 1024, 2048, 4096), (2, 4, 8), (True, False)):
        run = lambda: gelu_kernel[(triton.cdiv(x.numel(), block),)](x, b, y, x.numel(), 8192, block, lib,  # noqa: E731
                                                                  num_warps=warps)
        run()
        err = (y.double() - ref).abs().max().item()
        print(f"gelu block {block} warps {warps} {'libdevice' if lib else 'tl'}: "
              f"{do_bench(run, return_mode='median') * 1e3:.1f} us, max err {err:.1e}")
    print(f"floors at 4.25 TB/s: sincos {2 * 4 * (64 << 20) / 4.25e6:.1f} us, gelu {2 * 2 * 8192 ** 2 / 4.25e6:.1f} us")


if __name__ == "__main__":
    main()
