"""Reductions (split where rows are long), scans, and the reduction-shaped ops: var, layer_norm (whole, in inference
graphs), cdist."""

import operator

import sympy
import torch

from kiln import ir
from kiln.ir import ops, product, sym
from kiln.lowering.values import current, Lazy, LOWERINGS, LoweringError, meta_strides, read_steps, register, View
from kiln.lowering.pointwise import as_value, broadcast_index, broadcasts, opmath, pointwise_value
from kiln.lowering.views import reshape_index, view_of
from kiln.lowering.indexing import indirect, scatter

aten = torch.ops.aten
prims = torch.ops.prims


SCANS = {aten.cumsum.default: "sum", aten.cumprod.default: "prod", aten.logcumsumexp.default: "logaddexp"}


@register(*SCANS)
def lower_cumulative(out, x, dim, dtype=None):
    if not x.sizes:   # a 0-d tensor is its own scan
        return pointwise_value(out, lambda v: v, x)
    sizes = [sym(s) for s in out.shape]
    return scan(x, dim % len(x.sizes), SCANS[current().current_node.target], sizes, meta_strides(out, sizes),
                out.dtype, out.device)


def scan(x, dim, combine, sizes, strides, dtype, device):
    """x combined cumulatively along dim (ir.Scan), into a buffer of dtype laid out with strides."""
    g = current()
    if ir.static_numel(sizes, 1) == 0:
        return g.empty(sizes, strides, dtype, device)
    compute = opmath(dtype)
    body = lambda idx, ridx: as_value(x, list(idx[:dim]) + list(ridx) + list(idx[dim:]), sizes, compute)  # noqa: E731
    buf = ir.ComputedBuffer(g.new_name(), ir.Layout(dtype, device, sizes, strides),
                            node=ir.Scan(sizes[:dim] + sizes[dim + 1:], [sizes[dim]], combine, body, dim))
    g.buffers.append(buf)
    return View(buf, buf.layout.sizes, buf.layout.strides)


@register(aten.nonzero_static.default)
def lower_nonzero_static(out, x, *, size, fill_value=-1):
    """The coordinates of the first `size` nonzero elements in row-major order, padded with fill_value.
    A scan counts the nonzeros up to each element: a nonzero element writes its coordinates to that row
    of the result; the others, and nonzeros past `size`, write to a spare row past the end."""
    numel = ir.static_numel(x.sizes, None)
    if not x.sizes or numel is None:
        return NotImplemented
    rows, nd, i64 = sympy.Integer(size), len(x.sizes), torch.int64
    flat = [sympy.Integer(numel)]
    nonzero = Lazy(flat, i64, x.device, lambda idx: ops.to_dtype(
        ops.ne(x.load(ir.unflatten(idx[0], x.sizes)), ops.constant(0, x.dtype)), i64, torch.bool), 2)
    counts = scan(nonzero, 0, "sum", flat, ir.contiguous_strides(flat), i64, x.device)

    def target(idx):
        row = ops.sub(counts.load([idx[0]]), ops.constant(1, i64))
        kept = ops.logical_and(ops.ne(nonzero.load([idx[0]]), ops.constant(0, i64)),
                               ops.lt(row, ops.constant(size, i64)))
        return [indirect(ops.where(kept, row, ops.constant(size, i64)), rows + 1), idx[1]]

    def coordinate(idx):   # the idx[1]-th coordinate of flat position idx[0]
        coords = ir.unflatten(idx[0], x.sizes)
        value = ops.index_expr(coords[-1], i64)
        for d in range(nd - 2, -1, -1):
            value = ops.where(ops.eq(ops.index_expr(idx[1], i64), ops.constant(d, i64)),
                              ops.index_expr(coords[d], i64), value)
        return value

    padded = Lazy([rows + 1, sympy.Integer(nd)], i64, x.device, lambda idx: ops.constant(fill_value, i64))
    result = scatter(out, padded, flat + [sympy.Integer(nd)], coordinate, target)
    return View(result.buffer, [rows, sympy.Integer(nd)], result.strides, result.offset)   # less the spare row


# ---------------------------------------------------------------- reductions

def reduce_dims(x, dims):
    n = len(x.sizes)
    if n == 0:   # a 0-d tensor reduced over its "dim 0" is itself
        return []
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return list(range(n))
    if isinstance(dims, int):
        dims = [dims]
    return sorted({d % max(n, 1) for d in dims})


def make_reduction(out, x, dims, reduction_type, src_dtype=None, dtype=None):
    """Reduce x over dims; out (meta) gives the result's dtype and (keepdim-)shape."""
    dims = reduce_dims(x, dims) if x.sizes else []
    kept = [d for d in range(len(x.sizes)) if d not in dims]
    rsizes = [x.sizes[d] for d in dims]
    src_dtype = src_dtype or x.dtype
    out_sizes = [sym(s) for s in out.shape]
    keepdim = len(out_sizes) == len(x.sizes) and len(x.sizes) > 0 and dims

    def body(idx, ridx):
        kidx = [idx[d] for d in kept] if keepdim else idx
        full = [None] * len(x.sizes)
        for d, i in zip(kept, kidx):
            full[d] = i
        for d, r in zip(dims, ridx):
            full[d] = r
        v = x.load(full)
        if x.dtype != src_dtype:
            v = ops.to_dtype(v, src_dtype, x.dtype)
        return v

    low = current()
    if ir.static_numel(rsizes, 1) == 0 and reduction_type in ("max", "min", "argmax", "argmin"):
        raise LoweringError(f"{reduction_type} of an empty tensor")
    strides = getattr(x, "strides", None) or []
    # (probing x's loads costs compile time: only where the split table tells interleaved rows apart)
    interleaved = (out.device.type, True) in SPLITS and neighbouring_rows_adjacent(x, dims)
    generator = "triton" if low.on_triton(out.device) else "cpp"
    outer = outer_reduced_dims(x.sizes, strides, dims, reduction_type, generator)
    if outer and not isinstance(x, View):   # a computed value's runs are where its loads run (memory_steps)
        outer = outer_reduced_dims(x.sizes, memory_steps(x, dims), dims, reduction_type, generator)
    if outer:
        return reduction_of_runs(low, out_sizes, x.sizes, dims, outer, reduction_type, body, dtype or out.dtype,
                                 src_dtype, out.device)
    splits = split_count(out_sizes, rsizes, reduction_type, out.device, interleaved)
    if splits > 1:
        return split_reduction(low, out_sizes, rsizes, reduction_type, body, dtype or out.dtype, src_dtype,
                               out.device, splits)
    return low.reduction(out_sizes, rsizes, reduction_type, body, dtype or out.dtype, src_dtype, out.device)


def memory_steps(x, dims):
    """How a computed value's read that walks its rows moves in memory, per dim (its strides describe the value as
    eager would lay it out, not the buffer it reads), [] where no read walks them: the first read that walks the
    rows (moves along a reduced dim) and also moves along a kept dim, else the first that walks them. Such a read
    moves a block of outputs x rows, where one that moves along the row alone (a layer norm's row mean or scale in
    its weight gradient, the same for every output column) is a short vector the caches serve: the layout of the
    block is the one to reduce in. (The first read alone decided it: BART's layer-norm weight gradients, [4096,
    1024] summed over the 4096 rows, were reduced as contiguous rows, a column a program.)"""
    walking = [steps for steps in read_steps(x) if any(steps[d] != 0 and x.sizes[d] != 1 for d in dims)]
    kept = [d for d in range(len(x.sizes)) if d not in dims and x.sizes[d] != 1]
    return min(walking, key=lambda steps: not any(steps[d] != 0 for d in kept), default=[])


def neighbouring_rows_adjacent(x, dims):
    """Whether neighbouring rows of x are adjacent in memory (channels-last, a bias gradient): the read that walks
    the rows (memory_steps) steps by one along a kept dim. A computed value is judged by what it loads: a batch
    norm's backward reduces an activation's gradient computed in the same kernel, and taken for contiguous rows,
    ResNet's channels-last ones ran on 2 programs (550 us where a split reduction takes 60)."""
    unit = [d for d, (st, n) in enumerate(zip(memory_steps(x, dims), x.sizes)) if st == 1 and n != 1]
    # (a window's read steps by one along the row too: its rows are contiguous, as codegen tiles them)
    return bool(unit) and not any(d in dims for d in unit)


IDENTITY = {"sum": 0, "prod": 1, "max": float("-inf"), "min": float("inf"), "any": False, "all": True}


def identity_of(reduction_type, dtype):
    """The value a reduction starts from in dtype: -inf for a max is an integer dtype's least value (codegen's
    integer_constant), and for bool False, where a scalar -inf converts to True."""
    if dtype == torch.bool and reduction_type in ("max", "min"):
        return reduction_type == "min"
    return IDENTITY[reduction_type]


# (device type, rows interleaved in memory) -> (rows wanted, shortest piece, shortest row worth splitting,
# fewest rows kept whole, most elements that as few rows keep whole). On a GPU, a program reduces one or a few
# contiguous rows, but 64 interleaved ones (channels-last, a bias gradient): those want more rows, to give each SM
# a few programs (768 bias columns summed over 16384 rows ran on 12 programs), in pieces of a few hundred rows
# (128 channels over 25088 rows in pieces of 1024 made 48 programs for 132 SMs). 2048 interleaved rows or more
# already make 32 programs: a split would add a launch to steps that the host's launches bound (EfficientNet's
# squeeze-excite means at batch 32: 21 more launches, 5% slower), unless the rows are long enough that 32 programs
# take far longer than a launch (Llama's RMSNorm weight gradient, 2048 columns over 4096 rows, read 8x slower
# than its bytes allow). A bias gradient whose producer runs in the partial sums' kernel (scheduler.placed_as_read)
# makes each program heavy: 32768 rows in all left Swin's 100352 x 384 GELU gradient on 588 programs of 8 warps,
# under one wave of an H200's slots (386 us with its product, 361 at 65536, 353 at 131072; a plain column sum of a
# product's output 261, 264, 269: bench/results/s48/column_sums.json). On a CPU, the cores.
SPLITS = {("cuda", False): (8192, 1024, 1 << 16, 8192, None), ("cuda", True): (65536, 256, 512, 2048, 1 << 23)}
# Up to this many pieces of interleaved rows are combined as one tile (Tiles.config keeps a row of at most 64
# whole), so that many may be half the shortest: a program's time follows its piece's length, and a layer norm's
# weight gradient over 6304 rows x 192 took 10.6 us in 16 pieces of 394 rows, 6.9 in 32 of 197 (its loop's loads
# one after another; bench/results/s67/c8). Only while the pieces' partial outputs stay few: past ~2 programs an SM
# shorter pieces no longer pay (6304 rows x 384 columns 22.99 -> 19.75 us in 32 pieces; x 768 38.58 -> 45.51,
# bench/results/s68/c4).
FEW_PIECES = 64
FEW_OUTPUTS = 16384


def split_count(out_sizes, rsizes, reduction_type, device, interleaved):
    """Few long rows leave the machine idle: split each row into this many pieces (1: don't). Symbolic sizes count
    at their hints: the pieces are masked at the row's end (split_reduction), right for any length, and a
    training step whose rows are batch x tokens under dynamic shapes otherwise summed each weight's gradient over
    them in one program per few columns."""
    n, r = (current().size_hint(ir.product(sizes)) for sizes in (out_sizes, rsizes))
    want, shortest, longest_whole, fewest_whole, most_whole = SPLITS.get((device.type, interleaved),
                                                                         (32, 4096, 1 << 16, 32, None))
    if reduction_type not in IDENTITY or n is None or r is None or r < longest_whole:
        return 1
    if n >= fewest_whole and (most_whole is None or n * r < most_whole):
        return 1
    most = r // shortest
    if interleaved and min(want // max(n, 1), most) < FEW_PIECES and n * most < FEW_OUTPUTS:
        most = max(most, min(FEW_PIECES, FEW_OUTPUTS // max(n, 1), r // max(1, shortest // 2)))
    splits = max(1, min(want // max(n, 1), most))
    return dividing(r, splits, most) if ir.static_numel(rsizes) is not None else splits


def dividing(r, splits, most):
    """A piece count near `splits` (half to twice it, at most `most`) that divides r, the nearest by ratio, else
    splits: with equal pieces no piece is masked, and a pointwise producer of the rows can join the partial sums
    (a bias gradient's, placed as the reduction reads it: scheduler.placed_as_read)."""
    if splits < 2 or r % splits == 0:
        return splits
    near = [d for d in range(max(2, splits // 2), min(2 * splits, most) + 1) if r % d == 0]
    return min(near, key=lambda d: max(d / splits, splits / d)) if near else splits


def split_reduction(low, out_sizes, rsizes, reduction_type, body, dtype, src_dtype, device, splits):
    """reduce(row) = reduce over pieces of reduce(piece): two reductions that each fill the machine.

    The partial results are laid out piece-major ([splits, *out]), so that neighbouring programs
    read neighbouring outputs' data when rows are interleaved in memory (channels-last)."""
    r = ir.product(rsizes)
    chunk = ir.FloorDiv(r + splits - 1, splits)
    identity = identity_of(reduction_type, src_dtype)

    def partial_body(idx, ridx):
        flat = idx[0] * chunk + ridx[0]
        inside = ops.lt(ops.index_expr(flat, torch.int64), ops.index_expr(r, torch.int64))
        return ops.masked(inside, lambda: body(idx[1:], ir.unflatten(flat, rsizes)),
                          ops.constant(identity, src_dtype))

    partial = low.reduction([sympy.Integer(splits)] + list(out_sizes), [chunk], reduction_type, partial_body,
                            src_dtype, src_dtype, device)
    combine = {"any": "any", "all": "all"}.get(reduction_type, reduction_type)
    return low.reduction(out_sizes, [sympy.Integer(splits)], combine,
                         lambda idx, ridx: partial.load([ridx[0]] + list(idx)), dtype, src_dtype, device)


# code generator -> the shortest contiguous run of a row worth reducing on its own. A row made of several such runs
# (a batch norm's channel of an NCHW tensor: N runs of H x W) is walked by a C++ kernel as one index divided back
# into (n, hw) at every element, which nothing vectorizes: MobileNetV2's training batch norms took 578 us for 0.8 MB
# (NOTES 45). Reduced run by run first, each run is a contiguous loop, then the runs' results are combined.
RUNS_REDUCED_APART = {"cpp": 64}


def outer_reduced_dims(sizes, strides, dims, reduction_type, generator):
    """The reduced dims outside the row's innermost contiguous run, where the row is reduced run by run first;
    else []."""
    shortest = RUNS_REDUCED_APART.get(generator)
    if shortest is None or reduction_type not in IDENTITY or len(strides) != len(sizes) or \
            not all(isinstance(v, sympy.Integer) for v in (*sizes, *strides)):
        return []
    live = [d for d in dims if sizes[d] != 1]
    run, inner = 1, []
    for d in sorted(live, key=lambda d: int(strides[d])):   # innermost first: each next dim continues the run
        if int(strides[d]) != run:
            break
        run *= int(sizes[d])
        inner.append(d)
    outer = [d for d in live if d not in inner]
    return outer if inner and outer and run >= shortest else []


def reduction_of_runs(low, out_sizes, sizes, dims, outer, reduction_type, body, dtype, src_dtype, device):
    """reduce(row) = reduce over the outer dims of reduce(each contiguous run): the first reduction's rows are the
    runs, laid out [*outer, *out]."""
    inner = [d for d in dims if d not in outer]
    n_outer = len(outer)

    def run_body(idx, ridx):   # idx: the outer dims' indices, then the output's; ridx: the run's
        at = dict(zip(outer, idx[:n_outer])) | dict(zip(inner, ridx))
        return body(idx[n_outer:], [at[d] for d in dims])
    runs = low.reduction([sizes[d] for d in outer] + list(out_sizes), [sizes[d] for d in inner], reduction_type,
                         run_body, src_dtype, src_dtype, device)
    return low.reduction(out_sizes, [sizes[d] for d in outer], reduction_type,
                         lambda idx, ridx: runs.load(list(ridx) + list(idx)), dtype, src_dtype, device)


def _accumulate_dtype(out):
    return opmath(out.dtype) if out.dtype.is_floating_point else out.dtype


@register(aten.sum.dim_IntList, aten.sum.default, aten.prod.dim_int, aten.prod.default)
def lower_sum(out, x, dims=None, keepdim=False, *, dtype=None):
    rtype = "prod" if "prod" in str(current().current_node.target) else "sum"
    if "prod" in str(current().current_node.target) and isinstance(dims, int):
        dims = [dims]
    return make_reduction(out, x, dims, rtype, src_dtype=_accumulate_dtype(out))


@register(aten.mean.dim, aten.mean.default)
def lower_mean(out, x, dims=None, keepdim=False, *, dtype=None):
    dims = reduce_dims(x, dims)
    total = make_reduction(out, x, dims, "sum", src_dtype=opmath(out.dtype), dtype=opmath(out.dtype))
    n = product([x.sizes[d] for d in dims])
    return pointwise_value(out, lambda s, c: ops.truediv(s, c), total, n)


@register(aten.amax.default, aten.amin.default, aten.max.default, aten.min.default)
def lower_amax(out, x, dims=None, keepdim=False):
    rtype = "max" if "max" in str(current().current_node.target) else "min"
    return make_reduction(out, x, dims, rtype)


@register(aten.any.default, aten.any.dim, aten.any.dims, aten.all.default, aten.all.dim, aten.all.dims)
def lower_any(out, x, dims=None, keepdim=False):
    rtype = "any" if "any" in str(current().current_node.target) else "all"
    return make_reduction(out, x, dims, rtype, src_dtype=torch.bool)


@register(aten.argmax.default, aten.argmin.default)
def lower_argmax(out, x, dim=None, keepdim=False):
    if dim is None:
        flat = [product(x.sizes)]
        x, dim = view_of(x, flat, reshape_index(flat, list(x.sizes))), 0
    rtype = "argmax" if "argmax" in str(current().current_node.target) else "argmin"
    return make_reduction(out, x, [dim], rtype, src_dtype=opmath(x.dtype))


@register(aten.max.dim, aten.min.dim)
def lower_max_dim(out, x, dim, keepdim=False):
    rtype = "max" if "max" in str(current().current_node.target) else "min"
    values = make_reduction(out[0], x, [dim], rtype)
    return [values, make_reduction(out[1], x, [dim], "arg" + rtype, src_dtype=opmath(x.dtype))]


LONG_ROW = 1 << 14   # rows longer than this do not stay on chip between two passes over them
SHIFT_PROBE = 256    # the shift of a one-pass variance: the mean of a long row's first elements


@register(aten.var.correction, aten.var_mean.correction)
def lower_var(out, x, dims=None, *, correction=None, keepdim=False):
    """Deviations are taken from a shift K: the row's first element, so that a row of identical values has a
    variance of exactly 0 (as eager's Welford gives; a mean of sum / n is off by rounding, and var 7e-8 made
    std's gradient noise where eager's is 0).
    Rows that stay on chip: two passes (the mean of x - K, then squared deviations), fused into one kernel.
    Longer rows: one pass over memory, summing x - K and (x - K)^2, so that s2 - s1^2/n does not cancel the
    way sum(x^2) - sum(x)^2/n does. There K moves on by the mean of the row's first SHIFT_PROBE elements'
    offsets from the first (a small reduction of its own): a single element as K can be an outlier, and an
    outlier of 10 standard deviations made layer_norm 200x less accurate than eager."""
    var_out = out[0] if isinstance(out, (list, tuple)) else out
    dims = reduce_dims(x, dims)
    kept = [d for d in range(len(x.sizes)) if d not in dims]
    n = product([x.sizes[d] for d in dims])
    acc = opmath(var_out.dtype)
    keep = len(var_out.shape) == len(x.sizes)

    def row_of(idx):   # an element's index -> its row's index in the reduced result
        return [sympy.Integer(0) if d in dims else i for d, i in enumerate(idx)] if keep else [idx[d] for d in kept]

    def first_of(ridx):   # a row's index in the reduced result -> the index of the row's first element
        it = iter(ridx)
        return [sympy.Integer(0) if d in dims else (ridx[d] if keep else next(it)) for d in range(len(x.sizes))]

    def first(ridx):   # read only where the row has elements
        return as_value(x, first_of(ridx), x.sizes, acc)

    def elementwise(fn, opcount):   # a value shaped and laid out as x
        return Lazy(list(x.sizes), acc, x.device, fn, opcount, strides=getattr(x, "strides", None))

    def square(v):
        return elementwise(lambda idx: ops.mul(v.load(idx), v.load(idx)), v.opcount + 1)
    divisor = n - (1 if correction is None else correction)
    rlen = ir.static_numel([x.sizes[d] for d in dims])
    if rlen is not None and rlen > LONG_ROW:
        def head(idx, ridx):   # the row's ridx-th element's offset from its first, for ridx < SHIFT_PROBE
            pos = iter(ir.unflatten(ridx[0], [x.sizes[d] for d in dims]))
            at = [next(pos) if d in dims else i for d, i in enumerate(first_of(idx))]
            return ops.sub(as_value(x, at, x.sizes, acc), first(idx))
        probe = sympy.Integer(SHIFT_PROBE)
        head_sum = current().reduction([sym(v) for v in var_out.shape], [probe], "sum", head, acc, acc, x.device)

        def shift(ridx):   # identical first elements: exactly the first
            return ops.add(first(ridx), ops.truediv(head_sum.load(ridx), ops.constant(float(SHIFT_PROBE), acc)))
        shifted = elementwise(lambda idx: ops.sub(as_value(x, idx, x.sizes, acc), shift(row_of(idx))), x.opcount + 3)
        s1 = make_reduction(var_out, shifted, dims, "sum", src_dtype=acc, dtype=acc)
        s2 = make_reduction(var_out, square(shifted), dims, "sum", src_dtype=acc, dtype=acc)
        mean = Lazy(s1.sizes, acc, x.device, lambda idx: ops.add(shift(idx), ops.truediv(
            s1.load(idx), as_value(n, idx, [], acc))))
        ssd = Lazy(s1.sizes, acc, x.device, lambda idx: ops.maximum(ops.sub(s2.load(idx), ops.truediv(
            ops.mul(s1.load(idx), s1.load(idx)), as_value(n, idx, [], acc))), ops.constant(0, acc)))
    else:
        shifted = elementwise(lambda idx: ops.sub(as_value(x, idx, x.sizes, acc), first(row_of(idx))), x.opcount + 2)
        total = make_reduction(var_out, shifted, dims, "sum", src_dtype=acc, dtype=acc)
        offset = Lazy(total.sizes, acc, x.device, lambda idx: ops.truediv(total.load(idx), as_value(n, idx, [], acc)))
        deviation = elementwise(lambda idx: ops.sub(shifted.load(idx), offset.load(row_of(idx))), x.opcount + 3)
        ssd = make_reduction(var_out, square(deviation), dims, "sum", src_dtype=acc, dtype=acc)
        if sympy.sympify(n).is_positive:   # K + the offset: exactly the value in a row of identical values
            mean = Lazy(total.sizes, acc, x.device, lambda idx: ops.add(first(idx), offset.load(idx)))
        elif isinstance(out, (list, tuple)):   # rows that may be empty have no first element: sum(x) / n
            plain = make_reduction(var_out, x, dims, "sum", src_dtype=acc, dtype=acc)
            mean = Lazy(plain.sizes, acc, x.device, lambda idx: ops.truediv(plain.load(idx), as_value(n, idx, [], acc)))
    var = pointwise_value(var_out, lambda s, c: ops.truediv(s, ops.maximum(c, ops.constant(0, acc))), ssd, divisor)
    if not isinstance(out, (list, tuple)):
        return var
    return [var, pointwise_value(out[1], lambda m: m, mean)]


@register(aten.native_layer_norm.default)
def lower_layer_norm(out, x, normalized_shape, weight, bias, eps):
    """A layer norm, whole, as an inference graph keeps it (`decompositions.LOWERED_WHOLE_IN_INFERENCE`): the ops of
    its decomposition (torch._refs.native_layer_norm, with kiln's zero bias: `decompositions._zero_bias_layer_norm`)
    each lowered by its own lowering, on values of the dtypes and shapes the decomposition's trace gives them, and
    its input and statistics, which two of them read, stored where the decomposed graph would store them. So it
    computes what the decomposed graph computed, in the same kernels, without AOTAutograd tracing those ~8 ops
    (~5 ms a layer norm: timm's ViT-B has 25)."""
    y, mean_out, rstd_out = out
    acc = opmath(x.dtype)   # (torch's computation dtype: float32 for the half types, else x's own)
    g = current()

    def meta(like, dtype):   # a traced value shaped as `like`, of dtype
        return like if like.dtype == dtype else like.new_empty(like.shape, dtype=dtype)

    def lower(op, value_meta, *args, **kwargs):
        return LOWERINGS[op](value_meta, *args, **kwargs)
    traced = getattr(g.current_node.args[0], "meta", {}).get("val")
    if isinstance(traced, torch.Tensor) and not traced.is_contiguous():   # (the decomposition's contiguous(input))
        x = lower(aten.clone.default, meta(y, x.dtype), x)
    if acc != x.dtype:
        x = lower(prims.convert_element_type.default, meta(y, acc), x, acc)
    def shared(value, like):   # a value two ops of the decomposed graph read: stored where it would be stored there
        return g.realize_narrow(value, meta_strides(like, value.sizes)) \
            if isinstance(value, Lazy) and g.worth_sharing(value) else value
    x = shared(x, y)   # (read by the statistics and by the normalization)
    stat = meta(mean_out, acc)
    returned = {u.args[1] for u in g.current_node.users if u.target is operator.getitem and u.users}
    dims = list(range(len(x.sizes) - len(normalized_shape), len(x.sizes)))
    var, mean = lower_var([stat, stat], x, dims, correction=0, keepdim=True)
    rstd = lower(aten.rsqrt.default, stat, lower(aten.add.Tensor, stat, var, eps))
    # (a statistic the graph reads too is read by the normalization and by that reader)
    mean, rstd = (shared(v, stat) if i in returned else v for i, v in ((1, mean), (2, rstd)))
    v = lower(aten.mul.Tensor, meta(y, acc), lower(aten.sub.Tensor, meta(y, acc), x, mean), rstd)
    for op, operand in ((aten.mul.Tensor, weight), (aten.add.Tensor, bias)):
        if operand is not None:   # (a wider weight or bias widens the result, which is rounded once)
            v = lower(op, meta(y, torch.promote_types(v.dtype, operand.dtype)), v, operand)
    if v.dtype != y.dtype:
        v = lower(prims.convert_element_type.default, y, v, y.dtype)
    if weight is not None and bias is None:
        v = lower(aten.add.Tensor, y, v, 0.0)
    return [v] + [value if m.dtype == acc else lower(prims.convert_element_type.default, m, value, m.dtype)
                  for value, m in ((mean, mean_out), (rstd, rstd_out))]


@register(prims.broadcast_in_dim.default)
def lower_broadcast_in_dim(out, x, shape, broadcast_dimensions):
    sizes = [sym(s) for s in out.shape]
    return view_of(x, sizes, lambda idx: [sympy.Integer(0) if broadcasts(x.sizes[k], sizes[d]) else idx[d]
                                          for k, d in enumerate(broadcast_dimensions)])


@register(prims.sum.default)
def lower_prims_sum(out, x, dims, output_dtype=None):
    return make_reduction(out, x, dims, "sum", src_dtype=_accumulate_dtype(out))


@register(prims.var.default)
def lower_prims_var(out, x, dims, correction=1, output_dtype=None):
    return lower_var(out, x, dims, correction=correction)


@register(prims.div.default)
def lower_prims_div(out, a, b):
    op = ops.truediv if out.dtype.is_floating_point or out.dtype.is_complex else ops.truncdiv
    return pointwise_value(out, op, a, b)


@register(aten._cdist_forward.default)
def lower_cdist(out, x1, x2, p, compute_mode=None):
    """p-norm distances of the rows of x1 and x2: a reduction over the feature dim (eager may use a
    matrix product for p=2, which only rounds differently)."""
    sizes = [sym(s) for s in out.shape]
    features = x1.sizes[-1]
    acc = opmath(out.dtype)
    nb = len(sizes) - 2
    infinite = p == float("inf")

    def load(t, batch, row, r):
        bidx = broadcast_index(batch, t.sizes[:-2], sizes[:nb])
        v = t.load(bidx + [row, r])
        return v if t.dtype == acc else ops.to_dtype(v, acc, t.dtype)

    def term(idx):
        *batch, i, j, r = idx
        d = ops.abs(ops.sub(load(x1, batch, i, r), load(x2, batch, j, r)))
        if p == 0:
            return ops.to_dtype(ops.ne(d, ops.constant(0, acc)), acc, torch.bool)
        if p == 1 or infinite:
            return d
        if p == 2:
            return ops.mul(d, d)
        return ops.pow(d, ops.constant(float(p), acc))

    terms = Lazy(sizes + [features], acc, out.device, term, 4)
    total = make_reduction(out, terms, [len(sizes)], "max" if infinite else "sum", src_dtype=acc, dtype=acc)
    finish = {0: lambda s: s, 1: lambda s: s, 2: ops.sqrt}.get(p, (lambda s: s) if infinite else (
        lambda s: ops.pow(s, ops.constant(1.0 / p, acc))))
    return pointwise_value(out, finish, total, compute=acc)
