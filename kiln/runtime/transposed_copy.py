"""A copy between two layouts whose unit strides differ (a column-major block into a row-major output), as one
Triton kernel of square tiles: each tile is read along its columns and written along its rows, both coalesced,
Triton moving it between the two through shared memory. ATen's strided copy walks the output in order and
reads the source at a stride: 350 us for one 1024 x 50257 bf16 block of GPT-2's logits on an H200, where this
kernel takes 88 us and a contiguous copy of as many bytes 56 (tiles of 64 x 64: 108 us; 128 x 128 with 8 warps:
87; bench/NOTES.md 44)."""
import functools

import torch

ROWS, COLUMNS = 64, 128   # a tile


@functools.cache
def kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def transposed_copy(src, dst, rows, cols, src_row_stride, src_col_stride, dst_row_stride,
                        ROWS: tl.constexpr, COLUMNS: tl.constexpr):
        r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
        c = tl.program_id(1) * COLUMNS + tl.arange(0, COLUMNS)[None, :]
        inside = (r < rows) & (c < cols)
        tile = tl.load(src + r * src_row_stride + c * src_col_stride, mask=inside)
        tl.store(dst + r * dst_row_stride + c, tile, mask=inside)
    return transposed_copy


def copy_transposed(dst, src):
    """dst.copy_(src) for 2-D tensors of one dtype, dst with unit column stride: by the tiled kernel where
    Triton can run it (CUDA, or its interpreter), else by ATen."""
    import os
    if not (dst.is_cuda or os.environ.get("TRITON_INTERPRET") == "1") or dst.stride(1) != 1 or \
            src.dtype != dst.dtype or dst.shape != src.shape:
        return dst.copy_(src)
    rows, cols = dst.shape
    grid = (-(-rows // ROWS), -(-cols // COLUMNS))
    kernel()[grid](src, dst, rows, cols, src.stride(0), src.stride(1), dst.stride(0), ROWS=ROWS, COLUMNS=COLUMNS,
                   num_warps=4)
    return dst
