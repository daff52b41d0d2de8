"""A CPU graph's matrix products as BLAS calls of its C++ module.

ATen's CPU mm and addmm call BLAS's sgemm_/dgemm_ (MKL in torch's x86 builds, exported by libtorch_cpu). Called
through the wrapper, a small product pays ~3 us around that call: the Python binding, the dispatcher, the
output's allocation and a view for each transposed operand. A transformer's quick training step makes 45 of
them, a quarter of its time. So where both operands and the output have layouts BLAS reads as they lie, kiln's
module calls the same BLAS function itself, into an output the wrapper allocates (or a dead buffer it reuses),
and the wrapper launches it as it launches a kernel: the same library, the same arithmetic, 2.3 us for a
[32, 64] x [64, 64] product where torch.mm took 5.2 (bench/NOTES.md 78).

Only for static sizes, float32 at the "highest" matmul precision (else ATen calls oneDNN's bf16/tf32 products)
and float64, and only where libtorch_cpu exports the functions; otherwise the product stays ATen's call.

The module is not linked against libtorch_cpu: reading that library's 400 MB at link time took 0.25-0.35 s of a
0.5 s build on the 2-core CPU (a transformer's graph). It calls BLAS through pointers that the loader binds, once
the library is loaded, to the functions of the libtorch_cpu this process runs (`bind_blas`).
"""
import ctypes
import functools
import hashlib
import math
import os

import sympy
import torch

from kiln import ir
from kiln.lowering.values import OpThen
from kiln.runtime.prepacked import float32_products_exact

aten = torch.ops.aten

BLAS = {torch.float32: ("sgemm_", "float"), torch.float64: ("dgemm_", "double")}
INT_MAX = 2 ** 31 - 1   # BLAS's (LP64) sizes and leading dims are C ints
# op -> (the positions of its bias, first and second matrix; None: no bias), batched
PRODUCTS = {aten.mm.default: ((None, 0, 1), False), aten.addmm.default: ((0, 1, 2), False),
            aten.bmm.default: ((None, 0, 1), True), aten.baddbmm.default: ((0, 1, 2), True)}


@functools.cache
def blas_addresses():
    """The addresses of libtorch_cpu's BLAS functions, in BLAS's order, where it exports both, else None."""
    try:
        lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))   # (loaded already)
    except OSError:
        return None
    if not all(hasattr(lib, f) for f, _ in BLAS.values()):
        return None
    return [ctypes.cast(getattr(lib, f), ctypes.c_void_p) for f, _ in BLAS.values()]


BIND = "kiln_bind_blas"   # the module's function that takes the BLAS functions' addresses, in BLAS's order


def declarations():
    """The module's pointers to BLAS's functions, named as the functions (calls read as calls to them), and the
    function that binds them."""
    pointers = "".join(
        f"static void (*{f})(const char*, const char*, const int*, const int*, const int*, const {t}*, const {t}*, "
        f"const int*, const {t}*, const int*, const {t}*, {t}*, const int*);\n" for f, t in BLAS.values())
    params = ", ".join(f"void* {f}address" for f, _ in BLAS.values())
    binds = " ".join(f"{f} = (decltype({f})){f}address;" for f, _ in BLAS.values())
    return f'{pointers}extern "C" void {BIND}({params}) {{ {binds} }}\n'


def bind_blas(fns):
    """Point a loaded module's BLAS pointers at libtorch_cpu's functions (fns: the module's functions, less the
    binding one after)."""
    fns.pop(BIND)(*blas_addresses())


def static(xs):
    xs = [sympy.sympify(x) for x in xs]
    return [int(x) for x in xs] if all(x.is_Integer for x in xs) else None


def static_layout(ref):
    """A matrix argument's (sizes, strides, offset) as ints; None where any is symbolic, or there is no argument."""
    parts = (static(ref.sizes), static(ref.strides), static([ref.offset])) if ref is not None else (None,)
    return None if None in parts else (parts[0], parts[1], parts[2][0])


def library_op(target):
    """The ATen op an extern's target calls: itself, or a labelled one's (a convolution computed as a product)."""
    return target.op if isinstance(target, OpThen) and target.then is None else target


def product_flops(step):
    """The FLOPs of an extern product with static sizes (2 per multiply-add), else None: the trace's profile
    counts them so, as torch's FlopCounterMode would, where the C++ module makes the call (that counter sees
    only torch's)."""
    form = PRODUCTS.get(library_op(step.target))
    if form is None or len(step.outputs) != 1 or step.outputs[0] is None:
        return None
    a = step.args[form[0][1]]
    sizes = static(step.outputs[0].layout.sizes)
    k = static(a.sizes[-1:]) if isinstance(a, ir.TensorRef) else None
    return None if sizes is None or k is None else 2 * math.prod(sizes) * k[0]


def blas_form(sizes, strides):
    """How BLAS reads a matrix of these sizes (rows, columns) and strides: ("N", ld) where its columns lie ld
    apart with unit-stride rows (column-major), ("T", ld) where it is row-major (BLAS reads its transpose);
    None where neither (a broadcast, a gap inside a row). A size-1 dim's stride is free."""
    (r, c), (sr, sc) = sizes, strides
    if (sr == 1 or r == 1) and (c == 1 or sc >= max(1, r)):
        return "N", sc if c > 1 else max(1, r)
    if (sc == 1 or c == 1) and (r == 1 or sr >= max(1, c)):
        return "T", sr if r > 1 else max(1, c)
    return None


def product_call(step):
    """(function name, C text, the buffers it takes pointers to) of an extern product the module can call BLAS
    for, else None."""
    form = PRODUCTS.get(library_op(step.target))
    if form is None or step.fallback or len(step.outputs) != 1 or step.outputs[0] is None or blas_addresses() is None:
        return None
    (bias_at, a_at, b_at), batched = form
    out = step.outputs[0].layout
    if out.device.type != "cpu" or out.dtype not in BLAS or \
            out.dtype == torch.float32 and not float32_products_exact():
        return None
    scales = dict(step.kwargs)
    alpha, beta = scales.pop("alpha", 1), scales.pop("beta", 1)
    refs = [step.args[i] if i is not None else None for i in (bias_at, a_at, b_at)]
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (alpha, beta))
    if scales or len(step.args) != (2 if bias_at is None else 3) or not numbers or \
            not all(isinstance(r, ir.TensorRef) and r.buffer.layout.dtype == out.dtype for r in refs if r is not None):
        return None   # (an infinite scale would be no C literal: ATen's call)
    layouts = [static_layout(r) for r in refs]
    sizes, strides = static(out.sizes), static(out.strides)
    if sizes is None or strides is None or any(r is not None and lay is None for r, lay in zip(refs, layouts)):
        return None
    (a_sizes, a_strides, _), (b_sizes, b_strides, _) = layouts[1:]
    dims = 3 if batched else 2
    if len(sizes) != dims or len(a_sizes) != dims or len(b_sizes) != dims:
        return None
    m, n, k = sizes[-2], sizes[-1], a_sizes[-1]
    # the output row-major: BLAS computes its transpose, C^T = B^T A^T; column-major: C = A B
    row_major = blas_form([n, m], strides[-1:-3:-1])
    if row_major is not None and row_major[0] == "N":
        shape, ldc = (n, m), row_major[1]
        first, second = (b_strides[-1], b_strides[-2], n, k), (a_strides[-1], a_strides[-2], k, m)
        pointers = ("b", "a")
    else:
        col_major = blas_form([m, n], strides[-2:])
        if col_major is None or col_major[0] != "N":
            return None
        shape, ldc = (m, n), col_major[1]
        first, second = (a_strides[-2], a_strides[-1], m, k), (b_strides[-2], b_strides[-1], k, n)
        pointers = ("a", "b")
    forms = [blas_form([rows, cols], [s_rows, s_cols]) for s_rows, s_cols, rows, cols in (first, second)]
    if None in forms or max(m, n, k, ldc, *(ld for _, ld in forms)) > INT_MAX:
        return None
    return write_call(step, out, sizes, strides, refs, layouts, batched, (shape, k, ldc, forms, pointers), alpha,
                      beta)


def write_call(step, out, sizes, strides, refs, layouts, batched, gemm, alpha, beta):
    (rows, cols), k, ldc, ((trans1, ld1), (trans2, ld2)), pointers = gemm
    function, t = BLAS[out.dtype]
    bias, a, b = refs
    bias_layout, a_layout, b_layout = layouts
    biased = bias is not None and beta != 0   # (beta 0: the bias is not read, its NaNs not added, as in eager)
    args = [a, b] + ([bias] if biased else [])
    params = [f"const {t}* __restrict__ in_ptr{i}" for i in range(len(args))] + [f"{t}* __restrict__ out_ptr"]
    body = []

    def each_element(value):   # a loop over the output's elements, setting each to value (of the indices i0, ...)
        loops = [f"for (int64_t i{d} = 0; i{d} < {n}; i{d}++)" for d, n in enumerate(sizes)]
        body.extend(["    " * d + loop for d, loop in enumerate(loops)] +
                    ["    " * len(loops) + f"out_ptr[{element(strides)}] = {value};"])

    if biased:   # the bias broadcast over the output, for BLAS to add beta times it
        bias_sizes, bias_strides, bias_offset = bias_layout
        broadcast = [0] * (len(sizes) - len(bias_sizes)) + [
            st if n != 1 else 0 for st, n in zip(bias_strides, bias_sizes)]
        each_element(f"in_ptr2[{element(broadcast, bias_offset)}]")
    if k == 0:   # no product to add: BLAS would leave beta times the bias
        if math.prod(sizes) > 0:
            each_element(f"{float(beta)!r} * out_ptr[{element(strides)}]" if biased else "0")
    elif math.prod(sizes) > 0:
        pointer = {"a": ("in_ptr0", a_layout[2], a_layout[1][0] if batched else 0),
                   "b": ("in_ptr1", b_layout[2], b_layout[1][0] if batched else 0)}
        operands = [f"{name} + {offset} + i * {batch_stride}"
                    for name, offset, batch_stride in map(pointer.get, pointers)]
        body += [f"const int rows = {rows}, cols = {cols}, k = {k}, ld1 = {ld1}, ld2 = {ld2}, ldc = {ldc};",
                 f"const {t} alpha = {float(alpha)!r}, beta = {float(beta) if biased else 0.0!r};",
                 f"for (int64_t i = 0; i < {sizes[0] if batched else 1}; i++)",
                 f'    {function}("{trans1}", "{trans2}", &rows, &cols, &k, &alpha, {operands[0]}, &ld1, '
                 f"{operands[1]}, &ld2, &beta, out_ptr + i * {strides[0] if batched else 0}, &ldc);"]
    op = str(library_op(step.target)).removeprefix("aten.").removesuffix(".default")
    text = f"({', '.join(params)}) {{\n" + "".join(f"    {line}\n" for line in body) + "}"
    name = f"blas_{op}_{hashlib.sha256(text.encode()).hexdigest()[:10]}"
    text = f"// {name}: {', '.join(step.origins)}, as BLAS's {function}\nextern \"C\" void {name}{text}"
    return name, text, [r.buffer.name for r in args] + [step.outputs[0].name]


def element(strides, base=0):
    return " + ".join([str(base)] + [f"i{d} * {s}" for d, s in enumerate(strides) if s])
