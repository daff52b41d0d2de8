"""A Triton matmul for mode="max-autotune": mm, addmm and bmm of float16 and bfloat16 matrices, in one of a few
tile configurations. The tuner (runtime/autotune.py) times each configuration against the library call (cuBLAS)
for every such product of a graph, and the wrapper calls the fastest.

Each program computes a BLOCK_M x BLOCK_N tile of one product, walking K in steps of BLOCK_K with float32
accumulation; programs are ordered in groups of GROUP_M tile rows, so that the tiles running at once share
rows of A and columns of B in L2. addmm's bias is added to the float32 sum and rounded once, as cuBLAS's epilogue
does. Loads and stores are masked at the matrices' edges, and offsets are computed in 64 bits wherever a tensor
spans 2**31 elements or more (the steps along K too): a tile never reads or writes outside its tensors.
"""
import functools
import hashlib

import torch

from kiln.runtime.triton_launch import WIDE_FROM, Launcher, interpreting, on_device

GROUP_M = 8
with open(__file__, "rb") as _source:   # (in the tuning cache's keys: an edited kernel is timed again)
    SOURCE_DIGEST = hashlib.sha256(_source.read()).hexdigest()[:16]
DTYPES = (torch.float16, torch.bfloat16)
# (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps): large tiles for large products, smaller ones for skinny ones
CONFIGS = ((128, 128, 64, 3, 4), (128, 128, 32, 3, 4), (128, 128, 64, 4, 8), (64, 128, 64, 3, 4),
           (64, 128, 32, 4, 8), (128, 64, 32, 4, 8), (128, 64, 64, 3, 4), (64, 64, 32, 2, 4), (64, 64, 64, 3, 4),
           (128, 256, 64, 3, 8), (256, 128, 64, 3, 8), (32, 64, 64, 4, 4), (32, 32, 64, 2, 4), (16, 64, 128, 3, 4))


def configs_for(m, n):
    """The configurations worth timing for an m x n product: tiles no larger than twice what covers it."""
    def cover(size):
        return max(16, 1 << max(0, (size - 1).bit_length()))
    return [c for c in CONFIGS if c[0] <= 2 * cover(m) and c[1] <= 2 * cover(n)]


@functools.cache
def kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def kiln_matmul(a, b, bias, out, M, N, K, stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
                    stride_cb, stride_cm, stride_cn, stride_sb, stride_sm, stride_sn, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, BIAS: tl.constexpr,
                    WIDE: tl.constexpr, EVEN_K: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m, tiles_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
        batch, tile = pid // (tiles_m * tiles_n), pid % (tiles_m * tiles_n)
        group_size = GROUP_M * tiles_n
        first_m = (tile // group_size) * GROUP_M
        rows_in_group = tl.minimum(tiles_m - first_m, GROUP_M)
        tile_m = first_m + (tile % group_size) % rows_in_group
        tile_n = (tile % group_size) // rows_in_group
        rm = (tile_m * BLOCK_M + tl.arange(0, BLOCK_M))[:, None]
        rn = (tile_n * BLOCK_N + tl.arange(0, BLOCK_N))[None, :]
        rk = tl.arange(0, BLOCK_K)
        if WIDE:   # offsets past 2**31 elements: 32-bit products would wrap and address memory outside the tensors
            batch, rm, rn, rk = batch.to(tl.int64), rm.to(tl.int64), rn.to(tl.int64), rk.to(tl.int64)
        a_tile = a + batch * stride_ab + rm * stride_am + rk[None, :] * stride_ak
        b_tile = b + batch * stride_bb + rk[:, None] * stride_bk + rn * stride_bn
        if WIDE:
            step_a, step_b = tl.full([], BLOCK_K, tl.int64) * stride_ak, tl.full([], BLOCK_K, tl.int64) * stride_bk
        else:
            step_a, step_b = BLOCK_K * stride_ak, BLOCK_K * stride_bk
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, K, BLOCK_K):
            if EVEN_K:   # no mask along K: loads along a row stay vectorized
                x = tl.load(a_tile, mask=rm < M, other=0.0)
                y = tl.load(b_tile, mask=rn < N, other=0.0)
            else:
                x = tl.load(a_tile, mask=(rm < M) & (rk[None, :] < K - k), other=0.0)
                y = tl.load(b_tile, mask=(rk[:, None] < K - k) & (rn < N), other=0.0)
            acc += tl.dot(x, y)
            a_tile += step_a
            b_tile += step_b
        inside = (rm < M) & (rn < N)
        if BIAS:
            acc += tl.load(bias + batch * stride_sb + rm * stride_sm + rn * stride_sn, mask=inside).to(tl.float32)
        tl.store(out + batch * stride_cb + rm * stride_cm + rn * stride_cn, acc.to(out.dtype.element_ty), mask=inside)
    return kiln_matmul


@functools.cache
def launcher(config):
    *_, stages, warps = config
    return Launcher(kernel(), warps, num_stages=stages)


def applies(op, operands, kwargs):
    """Whether the kernel computes this call as the library does: mm, addmm (unscaled: beta and alpha 1, if
    given) or bmm, of one float16 or bfloat16 dtype, on CUDA (or Triton's interpreter). operands: tensors, or
    anything with their dtype and device (kiln's layouts)."""
    if op not in OPS or any(v != 1 for v in kwargs.values()):
        return False
    return len({t.dtype for t in operands}) == 1 and operands[0].dtype in DTYPES and \
        all(t.device.type == "cuda" or interpreting() for t in operands)


def launch_args(a, b, bias, out, config):
    """(programs, arguments) of the kernel computing out = a @ b (+ bias), all as 3-D batches."""
    a3, b3, out3 = (t if t.dim() == 3 else t.unsqueeze(0) for t in (a, b, out))
    batches, m, k = a3.shape
    n = b3.shape[2]
    s = (bias.expand(out.shape) if out.dim() == 3 else bias.expand(out.shape).unsqueeze(0)) if bias is not None \
        else out3
    reach = max(sum((size - 1) * abs(st) for size, st in zip(t.shape, t.stride())) for t in (a3, b3, out3, s))
    block_m, block_n, block_k, _, _ = config
    programs = batches * -(-m // block_m) * -(-n // block_n)
    return programs, [a3, b3, s, out3, m, n, k, *a3.stride(), *b3.stride(), *out3.stride(), *s.stride(),
                      block_m, block_n, block_k, GROUP_M, bias is not None, reach >= WIDE_FROM, k % block_k == 0]


def empty_result(a, b):
    """The result of a @ b, uninitialized, laid out as mm, addmm and bmm return it (contiguous)."""
    return torch.empty((*a.shape[:-1], b.shape[-1]), dtype=a.dtype, device=a.device)


def matmul(a, b, bias, config):
    """a @ b (+ bias): 2-D or batched 3-D, as mm, addmm and bmm return it (a new contiguous tensor)."""
    out = empty_result(a, b)
    programs, args = launch_args(a, b, bias, out, config)
    if programs:   # (K = 0 is an empty sum: the loop adds nothing to the bias or zeros)
        with on_device(a):
            launcher(config)(programs, *args)
    return out


class TritonMatmul:
    """mm, addmm or bmm as kiln's Triton matmul in one configuration: what the wrapper calls in place of the
    library where max-autotune timed it faster (picklable for the graph cache: the kernel is built per process)."""

    def __init__(self, op, config):
        self.op, self.config = op, tuple(config)

    def __call__(self, *args, **unit_scales):   # (beta=1, alpha=1 where the graph spells them: `applies`)
        return matmul(*self.operands(args), self.config)

    def operands(self, args):
        """(a, b, bias) of the op's arguments (addmm's bias comes first)."""
        return (args[1], args[2], args[0]) if self.op == "addmm" else (*args, None)

    def build_args(self, *args):
        """(its Launcher, the launch's arguments as Triton's warmup takes them) for these arguments."""
        a, b, bias = self.operands(args)
        _, launch = launch_args(a, b, bias, empty_result(a, b), self.config)
        return launcher(self.config), [t.dtype if isinstance(t, torch.Tensor) else t for t in launch]

    def __str__(self):
        block_m, block_n, block_k, stages, warps = self.config
        return f"aten.{self.op} in kiln.runtime.matmul: tiles {block_m}x{block_n}x{block_k}, {stages} stages, " \
               f"{warps} warps"

    __repr__ = __str__


OPS = {torch.ops.aten.mm.default: "mm", torch.ops.aten.addmm.default: "addmm", torch.ops.aten.bmm.default: "bmm"}
