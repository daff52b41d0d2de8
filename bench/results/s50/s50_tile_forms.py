"""Session 50: why kiln's Triton matmul tile runs ~25-35% behind cuBLAS (and Inductor's template) on the suite's
MLP products. Variants of the tile, each timed against torch's addmm on [M, 768] x [768, 3072] bf16 (nn.Linear's
weight, read transposed), in kiln's configurations:
  masked:   loads masked at the edges (kiln's tile at 1bd1a0c)
  wrapped:  rows and columns taken modulo M and N where K needs no mask, so no load is masked
  hinted:   wrapped, and the wrapped indices declared contiguous in runs of the block (only where M and N are
            multiples of the blocks, so that no run wraps)
    PYTHONPATH=. python3 bench/results/s50/s50_tile_forms.py OUT.json
"""
import json
import sys
import time

import torch
import triton
import triton.language as tl

from kiln.runtime import matmul
from kiln.runtime.autotune import gpu_seconds


@triton.jit
def tile_kernel(a, b, bias, out, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, FORM: tl.constexpr):
    tile = tl.program_id(0)
    tiles_m, tiles_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
    group_size = GROUP_M * tiles_n
    first_m = (tile // group_size) * GROUP_M
    rows_in_group = tl.minimum(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (tile % group_size) % rows_in_group
    tile_n = (tile % group_size) // rows_in_group
    rm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    if FORM == 0:
        am, bn = rm, rn
    elif FORM == 1:
        am, bn = rm % M, rn % N
    else:
        am = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
        bn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    a_tile = a + am[:, None] * stride_am + rk[None, :] * stride_ak
    b_tile = b + rk[:, None] * stride_bk + bn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        if FORM == 0:
            x = tl.load(a_tile, mask=rm[:, None] < M, other=0.0)
            y = tl.load(b_tile, mask=rn[None, :] < N, other=0.0)
        else:
            x = tl.load(a_tile)
            y = tl.load(b_tile)
        acc += tl.dot(x, y)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    inside = (rm[:, None] < M) & (rn[None, :] < N)
    acc += tl.load(bias + rn[None, :], mask=rn[None, :] < N, other=0.0).to(tl.float32)
    tl.store(out + rm[:, None] * N + rn[None, :], acc.to(out.dtype.element_ty), mask=inside)


rows = []
for m in (512, 4096, 4000):
    x = torch.randn(m, 768, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(3072, 768, device="cuda", dtype=torch.bfloat16) / 28
    b = torch.randn(3072, device="cuda", dtype=torch.bfloat16)
    ref = torch.addmm(b, x, w.t())
    lib = gpu_seconds(lambda: torch.addmm(b, x, w.t()))
    row = {"m": m, "library_us": lib * 1e6, "forms": {}}
    for config in matmul.CONFIGS:
        bm, bn, bk, stages, warps = config
        for form, name in enumerate(("masked", "wrapped", "hinted")):
            if form == 2 and (m % bm or 3072 % bn):
                continue
            out = torch.empty(m, 3072, device="cuda", dtype=torch.bfloat16)
            grid = (triton.cdiv(m, bm) * triton.cdiv(3072, bn),)

            def run():
                tile_kernel[grid](x, w, b, out, m, 3072, 768, 768, 1, 1, 768, bm, bn, bk, 8, form,
                                  num_stages=stages, num_warps=warps)
            try:
                run()
                torch.cuda.synchronize()
                ok = torch.allclose(out.float(), ref.float(), atol=0.05, rtol=0.02)
                row["forms"][f"{config} {name}"] = (gpu_seconds(run) * 1e6, ok)
            except Exception as e:
                row["forms"][f"{config} {name}"] = str(e)[:100]
    best = {n: min((v[0], k) for k, v in row["forms"].items() if isinstance(v, tuple) and k.endswith(n))
            for n in ("masked", "wrapped", "hinted") if any(k.endswith(n) for k in row["forms"])}
    row["best"] = best
    print(m, "library", round(lib * 1e6, 1), {n: (round(t, 1), k) for n, (t, k) in best.items()}, flush=True)
    rows.append(row)
json.dump({"device": torch.cuda.get_device_name(), "date": time.ctime(), "rows": rows}, open(sys.argv[1], "w"),
          indent=1)
