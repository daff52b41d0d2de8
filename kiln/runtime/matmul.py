"""A Triton matmul for mode="max-autotune": mm, addmm and bmm of float16 and bfloat16 matrices, in one of a few
tile configurations. The tuner (runtime/autotune.py) times each configuration against the library call (cuBLAS)
for every such product of a graph, and the wrapper calls the fastest.

Each program computes a BLOCK_M x BLOCK_N tile of one product (runtime/matmul_tile.py: K walked in steps of
BLOCK_K with float32 accumulation, in grouped tile order). addmm's bias is added to the float32 sum and rounded
once, as cuBLAS's epilogue does. Loads wrap rows and columns at the matrices' edges and stores are masked there,
and offsets are computed in 64 bits wherever a tensor spans 2**31 elements or more (the steps along K too): a tile
never reads or writes outside its tensors.
"""
import functools
import hashlib
import os

import torch

from kiln.runtime.build_pool import GENERATED_FILES
from kiln.runtime.triton_launch import WIDE_FROM, Launcher, interpreting, on_device

GROUP_M = 8
TILE_FILE = os.path.join(os.path.dirname(__file__), "matmul_tile.py")
with open(__file__, "rb") as _source, open(TILE_FILE, "rb") as _tile:   # (in the tuning cache's keys: an edited
    SOURCE_DIGEST = hashlib.sha256(_source.read() + _tile.read()).hexdigest()[:16]   # kernel is timed again)
GENERATED_FILES.add(TILE_FILE)   # (it imports only Triton: the build workers build its kernels too)
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


def kernel():
    from kiln.runtime.matmul_tile import kiln_matmul   # (Triton imported at first use)
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
    # (Triton's interpreter, 3.9, multiplies bfloat16 blocks wrongly in tl.dot, by ~1e10: float16 only there)
    dtypes = (torch.float16,) if interpreting() else DTYPES
    return len({t.dtype for t in operands}) == 1 and operands[0].dtype in dtypes and \
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
