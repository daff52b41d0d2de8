"""A copy between two layouts whose unit strides differ (a column-major block into a row-major output), as one
Triton kernel of tiles: each tile is read along its columns and written along its rows, both coalesced, Triton
moving it between the two through shared memory. ATen's strided copy walks the output in order and reads the
source at a stride: 350 us for one 1024 x 50257 bf16 block of GPT-2's logits on an H200, where this kernel takes
88 us and a contiguous copy of as many bytes 56 (tiles of 64 x 64: 108 us; 128 x 128 with 8 warps: 87;
bench/NOTES.md 44)."""
import functools

import torch

from kiln.runtime.triton_launch import WIDE_FROM, interpreting, on_device

ROWS, COLUMNS = 64, 128   # a tile
MAX_GRID_Y = 65535        # CUDA's limit on a grid's second dimension (the column tiles)
BIAS_DTYPES = (torch.float32, torch.float16, torch.bfloat16)   # added by the kernel in float32; others by ATen


@functools.cache
def kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def transposed_copy(src, dst, bias, rows, cols, src_row_stride, src_col_stride, dst_row_stride,
                        ROWS: tl.constexpr, COLUMNS: tl.constexpr, WIDE: tl.constexpr, BIAS: tl.constexpr):
        r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
        c = tl.program_id(1) * COLUMNS + tl.arange(0, COLUMNS)[None, :]
        if WIDE:   # offsets past 2**31 elements: 32-bit products would wrap and address memory outside the tensors
            r, c = r.to(tl.int64), c.to(tl.int64)
        inside = (r < rows) & (c < cols)
        tile = tl.load(src + r * src_row_stride + c * src_col_stride, mask=inside)
        if BIAS:   # added in float32 (float16, bfloat16 or float32 blocks), the sum rounded to the block's type
            tile = (tile.to(tl.float32) + tl.load(bias + c, mask=c < cols).to(tl.float32)).to(tile.dtype)
        tl.store(dst + r * dst_row_stride + c, tile, mask=inside)
    return transposed_copy


def copy_transposed(dst, src, bias=None):
    """dst.copy_(src), or dst = src + bias with bias a row of dst's columns (the product already rounded to its
    type, as eager's addmm does not: within an ulp of it), for 2-D tensors of one real dtype,
    dst with unit column stride: by the tiled kernel where Triton can run it (CUDA, or its interpreter; Triton
    has no complex types), else by ATen."""
    if not (dst.is_cuda or interpreting()) or dst.stride(1) != 1 or \
            min(*src.stride(), *dst.stride()) < 0 or src.dtype != dst.dtype or dst.is_complex() or \
            dst.shape != src.shape or -(-dst.shape[1] // COLUMNS) > MAX_GRID_Y or \
            bias is not None and (bias.dtype != dst.dtype or bias.stride(0) != 1 or dst.dtype not in BIAS_DTYPES):
        return dst.copy_(src) if bias is None else torch.add(src, bias, out=dst)
    rows, cols = dst.shape
    grid = (-(-rows // ROWS), -(-cols // COLUMNS))
    reach = max((rows - 1) * src.stride(0) + (cols - 1) * src.stride(1), (rows - 1) * dst.stride(0) + cols)
    with on_device(dst):
        kernel()[grid](src, dst, src if bias is None else bias, rows, cols, src.stride(0), src.stride(1),
                       dst.stride(0), ROWS=ROWS, COLUMNS=COLUMNS, WIDE=reach >= WIDE_FROM, BIAS=bias is not None,
                       num_warps=4)
    return dst
