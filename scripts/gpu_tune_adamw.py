"""kiln's AdamW kernel for one parameter, written by hand in variants (block, warps, IEEE division, evict_last),
timed against the copy floor on the GPU: what the generated kernel should reach (bench/NOTES.md, item 41).

    PYTHONPATH=. python3 scripts/gpu_tune_adamw.py
"""
import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def adamw(p_ptr, m_ptr, g_ptr, v_ptr, step_ptr, po, mo, vo, R, RBLOCK: tl.constexpr, RN: tl.constexpr, EVICT: tl.constexpr):
    pid = tl.program_id(0)
    r0 = pid * RBLOCK + tl.arange(0, RBLOCK)
    if EVICT:
        p = tl.load(p_ptr + r0, eviction_policy='evict_last'); m = tl.load(m_ptr + r0, eviction_policy='evict_last')
        g = tl.load(g_ptr + r0, eviction_policy='evict_last'); v = tl.load(v_ptr + r0, eviction_policy='evict_last')
    else:
        p = tl.load(p_ptr + r0); m = tl.load(m_ptr + r0); g = tl.load(g_ptr + r0); v = tl.load(v_ptr + r0)
    s = tl.load(step_ptr) + 1.0
    m2 = m + 0.1 * (g - m)
    v2 = v * 0.999 + (g * 0.001) * g
    bc2 = tl.sqrt_rn(1.0 - tl.exp2(s * tl.log2(0.999)))
    bc1 = (tl.exp2(s * tl.log2(0.9)) - 1.0) / 0.001
    if RN:
        den = tl.math.div_rn(tl.sqrt_rn(v2), bc2) + 1e-8
        upd = tl.math.div_rn(m2, tl.math.div_rn(den, tl.math.div_rn(1.0, bc1)))
    else:
        den = tl.sqrt(v2) / bc2 + 1e-8
        upd = m2 / (den * bc1)
    tl.store(po + r0, p * 0.99999 + upd); tl.store(mo + r0, m2); tl.store(vo + r0, v2)


for n in (768 * 3072, 768 * 3072 * 8):
    t = [torch.randn(n, device="cuda") for _ in range(4)]
    t[3].abs_()
    step = torch.ones((), device="cuda")
    bytes_ = n * 28
    x = torch.empty(2**28, device="cuda"); y = torch.empty_like(x)
    bw = 2 * x.numel() * 4 / (do_bench(lambda: y.copy_(x), rep=200) * 1e-3)
    print(f"n={n}, floor {bytes_ / bw * 1e6:.1f} us at {bw/1e9:.0f} GB/s")
    for block, warps in ((512, 2), (512, 4), (1024, 4), (2048, 8), (4096, 8)):
        for rn in (1, 0):
            for ev in (1, 0):
                f = lambda: adamw[(n // block,)](t[0], t[1], t[2], t[3], step, t[0], t[1], t[3], n, RBLOCK=block, RN=rn, EVICT=ev, num_warps=warps)
                us = do_bench(f, rep=200) * 1e3
                print(f"block {block:5d} warps {warps} div_rn {rn} evict_last {ev}: {us:7.1f} us ({bytes_ / bw * 1e6 / us:.2f} of floor)")
