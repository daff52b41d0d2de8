"""kiln's Triton matmul (mode="max-autotune"): kiln_matmul_tile computes one BLOCK_M x BLOCK_N tile of a product
in float32. Two kernels call it: kiln_matmul (launched by runtime/matmul.py), which adds addmm's bias and stores
the tile, and a product fused with its consumer's pointwise kernel (codegen/triton_product.py), whose epilogue
computes on the tile in registers. This file imports only Triton: a generated module with a fused product holds
the tile's text, and the build workers, which import only Triton, build it.

Programs are ordered in groups of GROUP_M tile rows, so that the tiles running at once share rows of A and
columns of B in L2. A tile reads inside its operands only: rows and columns wrapped at the edges, K masked where
it is not a multiple of BLOCK_K (EVEN_K: no mask), offsets in 64 bits with WIDE (a tensor of 2**31 elements or
more). M and N are at least 1 (no program runs for an empty product).
"""
import triton
import triton.language as tl


@triton.jit
def kiln_matmul_tile(a, b, tile, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, WIDE: tl.constexpr,
                     EVEN_K: tl.constexpr):
    tiles_m, tiles_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
    group_size = GROUP_M * tiles_n
    first_m = (tile // group_size) * GROUP_M
    rows_in_group = tl.minimum(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (tile % group_size) % rows_in_group
    tile_n = (tile % group_size) // rows_in_group
    rm = (tile_m * BLOCK_M + tl.arange(0, BLOCK_M))[:, None]
    rn = (tile_n * BLOCK_N + tl.arange(0, BLOCK_N))[None, :]
    rk = tl.arange(0, BLOCK_K)
    if WIDE:   # 32-bit products would wrap and address memory outside the tensors
        rm, rn, rk = rm.to(tl.int64), rn.to(tl.int64), rk.to(tl.int64)
    # a tile's rows and columns past the matrices' edges read rows and columns inside them again (wrapped), whose
    # sums are never stored: no load is masked along M or N, and Triton keeps the loads vectorized (the tile ran 11%
    # faster than with masks on the suite's MLP products, bench/NOTES.md 72)
    a_tile = a + (rm % M) * stride_am + rk[None, :] * stride_ak
    b_tile = b + rk[:, None] * stride_bk + (rn % N) * stride_bn
    if WIDE:
        step_a, step_b = tl.full([], BLOCK_K, tl.int64) * stride_ak, tl.full([], BLOCK_K, tl.int64) * stride_bk
    else:
        step_a, step_b = BLOCK_K * stride_ak, BLOCK_K * stride_bk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        if EVEN_K:
            x = tl.load(a_tile)
            y = tl.load(b_tile)
        else:
            x = tl.load(a_tile, mask=rk[None, :] < K - k, other=0.0)
            y = tl.load(b_tile, mask=rk[:, None] < K - k, other=0.0)
        acc += tl.dot(x, y)
        a_tile += step_a
        b_tile += step_b
    return acc, rm, rn


@triton.jit
def kiln_matmul(a, b, bias, out, M, N, K, stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
                stride_cb, stride_cm, stride_cn, stride_sb, stride_sm, stride_sn, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, BIAS: tl.constexpr,
                WIDE: tl.constexpr, EVEN_K: tl.constexpr):
    pid = tl.program_id(0)
    tiles = tl.cdiv(M, BLOCK_M) * tl.cdiv(N, BLOCK_N)
    batch = pid // tiles
    if WIDE:
        batch = batch.to(tl.int64)
    acc, rm, rn = kiln_matmul_tile(a + batch * stride_ab, b + batch * stride_bb, pid % tiles, M, N, K, stride_am,
                                   stride_ak, stride_bk, stride_bn, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, WIDE,
                                   EVEN_K)
    inside = (rm < M) & (rn < N)
    if BIAS:
        acc += tl.load(bias + batch * stride_sb + rm * stride_sm + rn * stride_sn, mask=inside).to(tl.float32)
    tl.store(out + batch * stride_cb + rm * stride_cm + rn * stride_cn, acc.to(out.dtype.element_ty), mask=inside)
