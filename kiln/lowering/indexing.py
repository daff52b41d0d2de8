"""Data movement: cat, pad, indexing and gathers; scatters, index_put and diagonal_scatter."""
import math

import sympy
import torch

from kiln import ir
from kiln.ir import FloorDiv, ModularIndexing, ops, product, sym
from kiln.lowering.values import current, is_tensor, Lazy, meta_strides, register, View
from kiln.lowering.pointwise import as_value, broadcast_index, opmath
from kiln.lowering.views import slice_start

aten = torch.ops.aten


@register(aten.cat.default)
def lower_cat(out, tensors, dim=0):
    """Each element loads from the one input whose range along dim holds it; the others are masked off."""
    sizes = [sym(s) for s in out.shape]
    dim %= len(sizes)
    parts = [t for t in tensors if is_tensor(t) and not (len(t.sizes) == 1 and t.sizes[0] == 0)]
    bounds, acc = [], sympy.Integer(0)
    for t in parts:
        bounds.append((acc, acc + t.sizes[dim]))
        acc = acc + t.sizes[dim]

    def loader(idx):
        pos = ops.index_expr(idx[dim], torch.int64)
        value = ops.constant(0, out.dtype)
        for k, (t, (start, end)) in enumerate(zip(parts, bounds)):
            conds = ([ops.ge(pos, ops.index_expr(start, torch.int64))] if k > 0 else []) + \
                    ([ops.lt(pos, ops.index_expr(end, torch.int64))] if k < len(parts) - 1 else [])
            shifted = [i - start if d == dim else i for d, i in enumerate(idx)]
            load = (lambda t=t, s=shifted: as_value(t, s, sizes, out.dtype))
            value = load() if not conds else ops.masked(all_of(conds), load, value)
        return value
    return Lazy(sizes, out.dtype, out.device, loader, 1 + sum(t.opcount for t in parts))


def all_of(conds):
    cond = conds[0]
    for c in conds[1:]:
        cond = ops.logical_and(cond, c)
    return cond


@register(aten.constant_pad_nd.default)
def lower_pad(out, x, pad, value=0):
    """Only a side padded by a positive amount can fall outside x and needs a test: a negative pad crops (the
    backward of a pad, whose masks were always true but kept C++'s loops from vectorizing)."""
    sizes = [sym(s) for s in out.shape]
    n = len(sizes)
    lows, highs = [0] * n, [0] * n
    for k in range(len(pad) // 2):
        lows[n - 1 - k], highs[n - 1 - k] = pad[2 * k], pad[2 * k + 1]
    tested = [(may_widen(lo), may_widen(hi)) for lo, hi in zip(lows, highs)]   # (below 0, past x's end)

    def loader(idx):
        src = [i - lo for i, lo in zip(idx, lows)]
        conds = []
        for d, (i, (low, high)) in enumerate(zip(src, tested)):
            e = ops.index_expr(i, torch.int64) if low or high else None
            conds += [ops.ge(e, ops.constant(0, torch.int64))] if low else []
            conds += [ops.lt(e, ops.index_expr(x.sizes[d], torch.int64))] if high else []
        if not conds:
            return x.load(src)
        return ops.masked(all_of(conds), lambda: x.load(src), ops.constant(value, out.dtype))
    return Lazy(sizes, out.dtype, out.device, loader, x.opcount + 2)


@register(aten.slice_scatter.default)
def lower_slice_scatter(out, x, src, dim=0, start=None, end=None, step=1):
    return sliced_over(out, x, src, dim, start, step)


@register(aten.slice_backward.default)
def lower_slice_backward(out, grad, input_sizes, dim, start, end, step):
    return sliced_over(out, None, grad, dim, start, step)


def sliced_over(out, x, src, dim, start, step):
    """x (zeros where None) with src over its slice start::step along dim: an element the slice covers loads src at
    an affine index, under a mask, and any other loads x. (torch's decompositions index src through a clamped
    iota: a load through a computed index, bounds-checked, which kept C++'s loops from vectorizing; each of
    Llama's rotary-embedding gradients took 17 us so.)"""
    sizes = [sym(s) for s in out.shape]
    dim %= len(sizes)
    start = slice_start(start, sizes[dim])
    covered = src.sizes[dim] * step   # (src's extent is the slice's: past the end of x, the slice is empty)

    def loader(idx):
        offset = idx[dim] - start
        at = ops.index_expr(offset, torch.int64)
        conds = [ops.ge(at, ops.constant(0, torch.int64)), ops.lt(at, ops.index_expr(covered, torch.int64))]
        if step != 1:
            conds.append(ops.eq(ops.index_expr(ModularIndexing(offset, 1, step), torch.int64),
                                ops.constant(0, torch.int64)))
        inside = [FloorDiv(offset, step) if d == dim else i for d, i in enumerate(idx)]
        other = ops.constant(0, out.dtype) if x is None else x.load(idx)
        return ops.masked(all_of(conds), lambda: src.load(inside), other)
    return Lazy(sizes, out.dtype, out.device, loader, 2 + src.opcount + (x.opcount if x is not None else 0))


def may_widen(pad):
    """Whether a pad amount may be positive (a symbolic one may)."""
    pad = sympy.sympify(pad)
    return not pad.is_number or pad > 0


def indirect(value, size, wrap=False, check=True):
    """The index value loads, into a dim of this size; negative ones count from the end where wrap is set (as
    x[i] and put count them; gather, scatter and embedding raise), and out-of-bounds ones raise an IndexError.
    check=False only for an index computed (not read) so that it is within [0, size) for every element: the
    kernel then neither tests nor clamps it."""
    return ops.indirect_indexing(value, size, check=check, wrap=wrap)


def broadcast_sizes(shapes):
    """The broadcast of several shapes (right-aligned; a size-1 dim takes the other's size)."""
    n = max(len(sh) for sh in shapes)
    out = [sympy.Integer(1)] * n
    for sh in shapes:
        for k, s in enumerate(sh):
            if s != 1 and (out[n - len(sh) + k] == 1 or current().size_hint(s) != 1):
                out[n - len(sh) + k] = s
    return out


def advanced_indexing(x_sizes, indices):
    """x[indices] with index tensors (None: a whole dim), as (its sizes, a function from its index to x's).

    The indexed dims are replaced by the broadcast shape of the index tensors: in place when they are
    adjacent, in front otherwise."""
    indices = list(indices) + [None] * (len(x_sizes) - len(indices))
    positions = [d for d, i in enumerate(indices) if i is not None]
    bshape = broadcast_sizes([indices[d].sizes for d in positions])
    nb = len(bshape)
    first = positions[0] if positions == list(range(positions[0], positions[-1] + 1)) else 0
    rest_sizes = [s for d, s in enumerate(x_sizes) if indices[d] is None]

    def position(idx):
        bidx = idx[first:first + nb]
        rest = iter(idx[:first] + idx[first + nb:])
        src = []
        for d, t in enumerate(indices):
            if t is None:
                src.append(next(rest))
                continue
            tidx = broadcast_index(bidx, t.sizes, bshape)
            src.append(indirect(t.load(tidx), x_sizes[d], wrap=True))
        return src
    return rest_sizes[:first] + bshape + rest_sizes[first:], position


def checks_lost(sizes, index_sizes):
    """Whether a result of these sizes has no elements while the indices (or a scatter's updates) have some. kiln
    computes nothing for an empty result, so the indices' bounds checks would not run, where eager raises on an
    out-of-bounds index (index_select or embedding of an x with an empty dim, an index_put into an empty tensor:
    fuzz seed 8730): such an op runs as eager's. (An empty x[i] of a dim with elements checks nothing in eager
    either; see indexes_an_empty_dim for one without.)"""
    return ir.static_numel(sizes, 1) == 0 and ir.static_numel(index_sizes, 0) > 0


def indexes_an_empty_dim(sizes):
    """Whether any of these sizes, of dims read or written through an index, is 0. No index is in bounds there,
    and the stand-in a kernel uses for a failed index (0, so that it reads in bounds while the error is reported)
    is out of bounds too: x(0, 3)[i] read through a null pointer (a segmentation fault on the C++ target, fuzz seed
    9127's neighbour). Eager raises for x[i] and index_put there even where the result has no elements
    (x(0, 0)[i], seed 9127). Such an op runs as eager's, whatever it does. (Sizes that are symbolic are never 0:
    Dynamo specializes 0.)"""
    return any(ir.static_numel([s], 1) == 0 for s in sizes)


def lowers_advanced_indexing(x_sizes, indices):
    """Whether kiln lowers x[indices] (read or written): no boolean mask, and no indexed dim of size 0."""
    return not any(i is not None and i.dtype == torch.bool for i in indices) and \
        not indexes_an_empty_dim([s for s, i in zip(x_sizes, indices) if i is not None])


@register(aten.index.Tensor)
def lower_index(out, x, indices):
    """x[i0, :, i2]: an indirect load."""
    if not lowers_advanced_indexing(x.sizes, indices):
        return NotImplemented
    _, position = advanced_indexing(x.sizes, indices)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, lambda idx: x.load(position(idx)),
                x.opcount + 2)


@register(aten.embedding.default)
def lower_embedding(out, weight, indices, *args):
    sizes = [sym(s) for s in out.shape]
    if checks_lost(sizes, indices.sizes) or indexes_an_empty_dim(weight.sizes[:1]):
        return NotImplemented
    n = len(indices.sizes)
    return Lazy(sizes, out.dtype, out.device,
                lambda idx: weight.load([indirect(indices.load(idx[:n]), weight.sizes[0]), idx[n]]), 2)


@register(aten.gather.default)
def lower_gather(out, x, dim, index, sparse_grad=False):
    dim %= max(len(x.sizes), 1)
    sizes = [sym(s) for s in out.shape]
    if not x.sizes:   # a 0-d x has one element: every index must be 0, as eager checks
        return Lazy(sizes, out.dtype, out.device, lambda idx: only_element(x, index.load(idx)), 2)
    if indexes_an_empty_dim([x.sizes[dim]]):
        return NotImplemented
    if not sizes:     # a 0-d index into a 1-d x
        return Lazy(sizes, out.dtype, out.device, lambda idx: x.load([indirect(index.load([]), x.sizes[0])]), 2)
    return Lazy(sizes, out.dtype, out.device, lambda idx: x.load(
        [indirect(index.load(idx), x.sizes[d]) if d == dim else i for d, i in enumerate(idx)]), 2)


def only_element(x, index_value):
    """A 0-d x's value, read where an index must be 0 (gather's, index_select's): the index is checked as one
    into a dim of one element, as eager checks it (the review of session 87's empty-dim change: kiln returned x
    for any index)."""
    indirect(index_value, sympy.Integer(1))
    return x.load([])


@register(aten.index_select.default)
def lower_index_select(out, x, dim, index):
    dim %= max(len(x.sizes), 1)
    sizes = [sym(s) for s in out.shape]
    if not x.sizes:
        return Lazy(sizes, out.dtype, out.device, lambda idx: only_element(x, index.load([])), 2)
    if checks_lost(sizes, index.sizes) or indexes_an_empty_dim([x.sizes[dim]]):
        return NotImplemented
    return Lazy(sizes, out.dtype, out.device, lambda idx: x.load(
        [indirect(index.load([i]), x.sizes[d]) if d == dim else i for d, i in enumerate(idx)]), 2)


# ---------------------------------------------------------------- scatters

SCATTER_REDUCE = {"sum": "sum", "add": "sum", "prod": "prod", "multiply": "prod", "amax": "max", "amin": "min"}


# A sum scattered by Triton's atomics into a target far smaller than its updates serializes on each target element:
# T5's relative position bias gradient, 2M updates into a 32 x 8 table, took 2 ms a table on an H200 (bench/NOTES.md
# 97). From CONTENDED_UPDATES updates an element on average, the updates are summed into copies of the target, each
# taking a run of them, and the copies are then summed: each copy's element sees ~PIECE_UPDATES. At most
# PIECES_ELEMENTS elements of copies.
CONTENDED_UPDATES = 64
PIECE_UPDATES = 8
PIECES_ELEMENTS = 1 << 22


def scatter(out, x, sizes, value, target, reduce=None):
    """A copy of x with out[target(idx)] = value(idx), or combined by `reduce`, for idx over sizes (ir.Scatter).

    value(idx) gives the value in the output's compute dtype."""
    g = current()
    if not can_scatter(out, reduce) or checks_lost(x.sizes, sizes):
        return NotImplemented
    pieces = contended_pieces(out, x.sizes, sizes, reduce)
    if pieces > 1:
        return scattered_in_pieces(out, x, sizes, value, target, pieces)
    base = g.realize(Lazy(list(x.sizes), x.dtype, x.device, x.load), meta_strides(out, x.sizes))
    if ir.static_numel(sizes, 1) == 0 or ir.static_numel(base.sizes, 1) == 0:
        return base
    buf = ir.ComputedBuffer(g.new_name(), base.buffer.layout,
                            node=ir.Scatter(list(sizes), value, target, reduce, base.buffer.name))
    g.buffers.append(buf)
    return View(buf, buf.layout.sizes, buf.layout.strides)


def contended_pieces(out, x_sizes, sizes, reduce):
    """How many copies of the target a sum on Triton scatters into (1: the target itself)."""
    updates, elements = ir.static_numel(sizes, None), ir.static_numel(x_sizes, None)
    if reduce != "sum" or not current().on_triton(out.device) or not updates or not elements or \
            updates < CONTENDED_UPDATES * elements:
        return 1
    return min(1 << (updates // (PIECE_UPDATES * elements)).bit_length() - 1, PIECES_ELEMENTS // elements)


def scattered_in_pieces(out, x, sizes, value, target, pieces):
    """x plus the sum of `pieces` copies of it, the k-th taking the k-th run of the updates (in the order of their
    index over sizes) by atomics. The copies start at -0.0, which adding keeps exact: an element of x that no
    update changes (all of its updates -0.0, or none) is x itself, its sign of zero too, as eager leaves it."""
    from kiln.lowering.reductions import make_reduction   # (reductions imports this module)
    run = -(-ir.static_numel(sizes) // pieces)
    strides = ir.contiguous_strides(sizes)
    floating = out.dtype.is_floating_point
    start = -0.0 if floating else 0
    copies = scatter(out, Lazy([sympy.Integer(pieces), *x.sizes], out.dtype, out.device,
                               lambda idx: ops.constant(start, out.dtype)),
                     sizes, value, lambda idx: [FloorDiv(ir.strided_index(idx, strides), run), *target(idx)], "sum")
    total = make_reduction(out, copies, [0], "sum")
    dtype = opmath(out.dtype)

    def plus(idx):
        return ops.add(as_value(x, idx, x.sizes, dtype), as_value(total, idx, x.sizes, dtype))
    if not floating:
        return Lazy(list(x.sizes), out.dtype, out.device, lambda idx: ops.to_dtype(plus(idx), out.dtype, dtype), 2)

    def not_negative_zero(idx):   # (a copy's element that some update changed)
        value = copies.load(idx)
        return ops.logical_or(ops.ne(value, ops.constant(0, out.dtype)), ops.logical_not(ops.signbit(value)))
    changed = make_reduction(out, Lazy(copies.sizes, torch.bool, out.device, not_negative_zero), [0], "any",
                             src_dtype=torch.bool, dtype=torch.bool)
    return Lazy(list(x.sizes), out.dtype, out.device, lambda idx: ops.where(
        changed.load(idx), ops.to_dtype(plus(idx), out.dtype, dtype), x.load(idx)), 4)


def can_scatter(out, reduce):
    """Whether the target can combine repeated targets this way (Triton: only with its atomics)."""
    if not reduce or not current().on_triton(out.device):
        return True
    from kiln.codegen.triton import ATOMIC_DTYPES, SCATTER_ATOMICS
    return reduce in SCATTER_ATOMICS and out.dtype in ATOMIC_DTYPES


def scatter_reduced(out, x, sizes, value, target, reduce, include_self=True):
    """scatter with a reduction; without include_self, the targets first get the reduction's identity,
    and a mean divides by the number of values each target received."""
    dtype = opmath(out.dtype)
    combine = "sum" if reduce == "mean" else SCATTER_REDUCE[reduce]
    # (checked before any scatter, so that none is left behind unused, nor its refusal taken for a value)
    if not can_scatter(out, combine) or checks_lost(x.sizes, sizes):
        return NotImplemented
    if not include_self:
        identity = reduction_identity(combine, out.dtype)
        x = scatter(out, x, sizes, lambda idx: ops.constant(identity, dtype), target)
    total = scatter(out, x, sizes, value, target, combine)
    if reduce != "mean":
        return total
    start = Lazy(list(x.sizes), out.dtype, out.device, lambda idx: ops.constant(int(include_self), out.dtype))
    count = scatter(out, start, sizes, lambda idx: ops.constant(1, dtype), target, "sum")
    divide = ops.truediv if out.dtype.is_floating_point else ops.floordiv
    return Lazy(list(x.sizes), out.dtype, out.device, lambda idx: ops.to_dtype(divide(
        as_value(total, idx, x.sizes, dtype),
        ops.maximum(as_value(count, idx, x.sizes, dtype), ops.constant(1, dtype))), out.dtype, dtype), 3)


def reduction_identity(combine, dtype):
    if combine in ("sum", "prod"):
        return int(combine == "prod")
    if dtype.is_floating_point:
        return -math.inf if combine == "max" else math.inf
    if dtype == torch.bool:
        return combine == "min"
    return torch.iinfo(dtype).min if combine == "max" else torch.iinfo(dtype).max


def along(dim, index, x_sizes):
    """Scatter targets along dim: idx with its dim-th entry replaced by index[idx]."""
    if not x_sizes:   # a 0-d tensor has one element
        return lambda idx: []
    return lambda idx: [indirect(index.load(idx), x_sizes[d]) if d == dim else i for d, i in enumerate(idx)]


def into_slices(dim, index, x_sizes):
    """Scatter targets of whole slices (index_add, index_copy, index_reduce): source slice i along dim goes to
    slice index[i] of x."""
    return lambda idx: [indirect(index.load([i]), x_sizes[d]) if d == dim else i for d, i in enumerate(idx)]


def src_value(src, sizes, dtype):
    """The value a scatter writes at idx: src (a tensor, or a scalar) there."""
    return lambda idx: as_value(src, idx, sizes, dtype)


@register(aten.index_put.default)
def lower_index_put(out, x, indices, values, accumulate=False):
    if not lowers_advanced_indexing(x.sizes, indices):
        return NotImplemented
    sizes, position = advanced_indexing(x.sizes, indices)
    return scatter(out, x, sizes, src_value(values, sizes, opmath(out.dtype)), position,
                   "sum" if accumulate else None)


@register(aten.put.default)
def lower_put(out, x, index, source, accumulate=False):
    """x.flatten()[index] = source.flatten(), with x row-major whatever its layout."""
    sizes = index.sizes
    numel = product(x.sizes)

    def target(idx):
        return ir.unflatten(indirect(index.load(idx), numel, wrap=True), x.sizes)

    def value(idx):   # source has as many elements as index, in any shape
        flat = ir.strided_index(idx, ir.contiguous_strides(sizes))
        return as_value(source, ir.unflatten(flat, source.sizes), source.sizes, opmath(out.dtype))
    return scatter(out, x, sizes, value, target, "sum" if accumulate else None)


@register(aten.scatter.src, aten.scatter.value, aten.scatter.reduce, aten.scatter.value_reduce,
          aten.scatter_add.default)
def lower_scatter(out, x, dim, index, src, reduce=None):
    dim %= max(len(x.sizes), 1)
    reduce = "sum" if current().current_node.target is aten.scatter_add.default else reduce
    return scatter(out, x, index.sizes, src_value(src, index.sizes, opmath(out.dtype)), along(dim, index, x.sizes),
                   SCATTER_REDUCE.get(reduce))


@register(aten.scatter_reduce.two)
def lower_scatter_reduce(out, x, dim, index, src, reduce, include_self=True):
    dim %= max(len(x.sizes), 1)
    return scatter_reduced(out, x, index.sizes, src_value(src, index.sizes, opmath(out.dtype)),
                           along(dim, index, x.sizes), reduce, include_self)


@register(aten.index_reduce.default)
def lower_index_reduce(out, x, dim, index, src, reduce, include_self=True):
    dim %= max(len(x.sizes), 1)
    if checks_lost(src.sizes, index.sizes):   # (eager checks each index against its dim, even for empty slices)
        return NotImplemented
    return scatter_reduced(out, x, src.sizes, src_value(src, src.sizes, opmath(out.dtype)),
                           into_slices(dim, index, x.sizes), reduce, include_self)


@register(aten.index_add.default, aten.index_copy.default)
def lower_index_add(out, x, dim, index, src, alpha=1):
    """x with src's slice i added (index_copy: written) at slice index[i] along dim. A negative index raises, as
    eager's does: x[i] counts it from the end, and the decomposition through index_put gave a value where eager
    raises (a fresh reader's review, bench/NOTES.md 97)."""
    if not x.sizes:
        return NotImplemented
    dim %= len(x.sizes)
    add = current().current_node.target is aten.index_add.default
    dtype = opmath(out.dtype)

    def value(idx):
        v = as_value(src, idx, src.sizes, dtype)
        return ops.mul(v, ops.constant(alpha, dtype)) if add and alpha != 1 else v
    return scatter(out, x, src.sizes, value, into_slices(dim, index, x.sizes), "sum" if add else None)


@register(aten.diagonal_scatter.default)
def lower_diagonal_scatter(out, x, src, offset=0, dim1=0, dim2=1):
    """x with src written along a diagonal: the elements on it load src, the others x."""
    sizes = [sym(s) for s in out.shape]
    nd = len(sizes)
    dim1, dim2 = dim1 % nd, dim2 % nd
    rest = [d for d in range(nd) if d not in (dim1, dim2)]
    i64 = torch.int64

    def loader(idx):
        a, b = idx[dim1], idx[dim2]
        on = ops.eq(ops.index_expr(b - a, i64), ops.constant(offset, i64))
        pos = a if offset >= 0 else b
        return ops.where(on, ops.masked(on, lambda: as_value(src, [idx[d] for d in rest] + [pos], src.sizes, out.dtype),
                                        ops.constant(0, out.dtype)), as_value(x, idx, sizes, out.dtype))
    return Lazy(sizes, out.dtype, out.device, loader, 4)
