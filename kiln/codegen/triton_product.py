"""Triton code generation for a pointwise kernel that computes the product it reads (launches.FusedProduct,
mode="max-autotune"): each program computes a tile of the product, as kiln's matmul does (runtime/matmul_tile.py),
then runs the kernel's nodes on the tile in registers, where the kernel apart would read the product from memory.
"""
import functools

import sympy

from kiln import ir
from kiln.codegen.common import Value
from kiln.codegen.triton import TritonKernel
from kiln.codegen.triton_ops import TL_DTYPES
from kiln.runtime.matmul import GROUP_M


class ProductNotFused(Exception):
    """A kernel cannot compute the product it reads: it is timed and run apart."""


class ProductKernel(TritonKernel):
    def generate(self, part=False):
        """A pointwise kernel that computes the product it reads (launches.FusedProduct): each program computes a
        BLOCK_M x BLOCK_N tile of the product (runtime/matmul_tile.py, launched as XBLOCK x RBLOCK), adds addmm's
        bias and rounds it to the product's dtype, as the library's result is; the kernel's nodes then run on the
        tile, x0 and r0 standing for the tile's elements (rows and columns where the kernel's space is the
        product's, else the row-major element divided by R). Static sizes only."""
        k, product = self.kernel, self.kernel.product
        step, out = product.step, product.buffer
        self.xblock, self.rblock, block_k, self.num_stages, self.num_warps = product.config
        self.persistent = False
        bias, a, b = step.args if len(step.args) == 3 else (None, *step.args)
        M, K = (int(e) for e in a.sizes)
        N = int(b.sizes[1])
        for ref in (bias, a, b):
            if ref is not None:
                self.args.setdefault(ref.buffer.name, "in")
        if product.stored:
            self.args[out.name] = "out"
        self.scope.indent = 1
        for p in k.placements:
            self.finish_value(p, self.run_body(p), full=True)
        if self.symbols or [int(e) for e in out.layout.strides] != [N, 1] or out.layout.offset != 0 or \
                ir.static_numel([k.numel * k.rnumel]) != M * N:
            raise ProductNotFused(f"{k.name}: symbolic sizes, a product not stored row-major, or a kernel over "
                                  "other elements than the product's")
        wide = not self.small_indices()
        (sam, sak), (sbk, sbn) = ([int(e) for e in ref.strides] for ref in (a, b))
        inside, dtype = "(rm < N) & (rn < R)", TL_DTYPES[out.layout.dtype]
        head = ["@triton.jit",
                f"def {k.name}({self.signature()}, N, R, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):",
                f"    # {', '.join(k.origins())}: the product's tile in registers, its consumers on it",
                "    pid = tl.program_id(0)",
                f"    acc, rm, rn = kiln_matmul_tile({a.buffer.name} + {int(a.offset)}, {b.buffer.name} + "
                f"{int(b.offset)}, pid, N, R, {K}, {sam}, {sak}, {sbk}, {sbn}, XBLOCK, RBLOCK, {block_k}, "
                f"{GROUP_M}, {wide}, {K % block_k == 0})"]
        if bias is not None:   # (broadcast along the dims it lacks or holds once, as addmm's bias is)
            sizes, strides = [1] * (2 - len(bias.sizes)) + list(bias.sizes), \
                [0] * (2 - len(bias.strides)) + list(bias.strides)
            sm, sn = (0 if int(n) == 1 else int(st) for n, st in zip(sizes, strides))
            head.append(f"    acc += tl.load({bias.buffer.name} + {int(bias.offset)} + rm * {sm} + rn * {sn}, "
                        f"mask={inside}).to(tl.float32)")
        head.append(f"    product = acc.to({dtype}).to(tl.float32)" if ir.dtype_is_low_precision(out.layout.dtype)
                    else f"    product = acc.to({dtype})")
        if product.stored:
            head.append(f"    tl.store({out.name} + rm * {N} + rn, product.to({dtype}), mask={inside})")
        numel, R = ir.static_numel([k.numel]), ir.static_numel([k.rnumel])
        if (numel, R) == (M, N):
            head += ["    x0 = rm", "    r0 = rn", "    xmask = rm < N", "    rmask = rn < R"]
        else:   # (both masks the tile's: a lane past the product's rows would name an element past the kernel's)
            x0, r0 = ("rm * 0", f"rm * {N} + rn") if numel == 1 else (f"(rm * {N} + rn) // {R}", f"(rm * {N} + rn) % {R}")
            head += [f"    x0 = {x0}", f"    r0 = {r0}", f"    xmask = {inside}", "    rmask = xmask"]
        return "\n".join(head + self.scope.lines), (sympy.Integer(M), sympy.Integer(N))

    def load(self, name, index):
        if name == self.kernel.product.buffer.name:
            return self.product_value(index)
        return super().load(name, index)

    def product_value(self, index):
        """The fused product's value where the kernel's nodes read it: in registers, at the element this lane
        computes only."""
        k = self.kernel
        difference = self.index(index) - (k.x * k.rnumel + k.r)
        if ir.expand(difference.subs(k.x, 0) if ir.static_numel([k.numel]) == 1 else difference) != 0:
            raise ProductNotFused(f"{k.name} reads {k.product.buffer.name} elsewhere than at its own element")
        return Value("product", k.product.buffer.layout.dtype)


@functools.cache
def matmul_tile_source():
    """The text of kiln's matmul tile, which a kernel computing its product calls."""
    import inspect

    from kiln.runtime.matmul_tile import kiln_matmul_tile
    return inspect.getsource(kiln_matmul_tile.fn)
