"""sort by rank, and searchsorted/bucketize as eager's binary search."""

import sympy
import torch

from kiln import ir
from kiln.ir import ops, sym
from kiln.lowering.values import current, is_tensor, Lazy, register
from kiln.lowering.pointwise import as_value, opmath, promoted
from kiln.lowering.indexing import along, indirect, scatter, src_value
from kiln.lowering.reductions import make_reduction

aten = torch.ops.aten


SORT_BY_RANK_MAX = 64   # rows this short sort by counting: n^2 compares per row, no data-dependent control flow


@register(aten.sort.default, aten.sort.stable)
def lower_sort(out, x, dim=-1, descending=False, stable=None):
    """Short rows sort by rank: an element's rank is the number of elements that sort before it (equal
    ones only from earlier positions, so the order is stable), a reduction; values and indices are then
    scattered to their ranks. NaN sorts last ascending, first descending, as eager's comparators do.
    An unstable sort may order ties any way. Eager's on the CPU is stable on rows of up to 16 (libstdc++'s
    std::sort sorts those by insertion), so longer unstable sorts run eagerly rather than differ from it;
    on CUDA eager's may order ties otherwise, and kiln's stable order is as valid a result."""
    dim = dim % len(x.sizes) if x.sizes else 0
    n = ir.static_numel([x.sizes[dim]] if x.sizes else [1], None)
    if not x.sizes or n is None or n > (SORT_BY_RANK_MAX if stable else 16) or x.dtype.is_complex:
        return NotImplemented
    values_meta, indices_meta = out
    sizes, rank_dim = list(x.sizes), len(x.sizes)
    acc = torch.int64 if x.dtype == torch.bool else opmath(x.dtype)
    floating = acc.is_floating_point

    def before(idx):
        """1 if the element at position idx[-1] of idx's row sorts before the one at idx."""
        here, j = list(idx[:-1]), idx[-1]
        there = here[:dim] + [j] + here[dim + 1:]
        a, b = (as_value(x, i, sizes, acc) for i in (here, there))
        first = ops.gt(b, a) if descending else ops.lt(b, a)
        if floating:   # NaN is greater than every number here, and equal to NaN
            nan_first = ops.isnan(b) if descending else ops.isnan(a)
            first = ops.logical_or(first, ops.logical_and(nan_first, ops.logical_not(
                ops.isnan(a) if descending else ops.isnan(b))))
            tie = ops.logical_or(ops.eq(a, b), ops.logical_and(ops.isnan(a), ops.isnan(b)))
        else:
            tie = ops.eq(a, b)
        earlier = ops.lt(ops.index_expr(j, torch.int64), ops.index_expr(here[dim], torch.int64))
        return ops.to_dtype(ops.logical_or(first, ops.logical_and(tie, earlier)), torch.int64, torch.bool)

    pairs = Lazy(sizes + [sympy.Integer(n)], torch.int64, x.device, before, 12)
    rank = make_reduction(indices_meta, pairs, [rank_dim], "sum", src_dtype=torch.int64, dtype=torch.int64)
    target = along(dim, rank, sizes)
    values = scatter(values_meta, x, sizes, src_value(x, sizes, opmath(x.dtype)), target)
    positions = Lazy(sizes, torch.int64, x.device, lambda idx: ops.index_expr(idx[dim], torch.int64), 1)
    indices = scatter(indices_meta, positions, sizes, positions.load, target)
    return [values, indices]


@register(aten.searchsorted.Tensor, aten.searchsorted.Scalar, aten.bucketize.Tensor, aten.bucketize.Scalar)
def lower_searchsorted(out, a, b, *, out_int32=False, right=False, side=None, sorter=None):
    """Eager's binary search, unrolled: the same probes and comparisons, so the same answer for any input
    (also unsorted boundaries or NaNs, where counting would differ)."""
    values, seq = (a, b) if "bucketize" in str(current().current_node.target) else (b, a)
    length = seq.sizes[-1]
    if not ir.is_static(length) or (sorter is not None and not is_tensor(sorter)):
        return NotImplemented
    length = int(length)
    right = right or side == "right"
    sizes = [sym(s) for s in out.shape]
    compute = opmath(promoted(seq, values))
    i64 = torch.int64
    c = lambda v: ops.constant(v, i64)  # noqa: E731

    def loader(idx):
        row = list(idx[:-1]) if len(seq.sizes) > 1 else []
        v = as_value(values, idx, sizes, compute)
        start, end = c(0), c(length)
        for _ in range(length.bit_length()):
            active = ops.lt(start, end)
            mid = ops.where(active, ops.floordiv(ops.add(start, end), c(2)), c(0))
            pos = indirect(mid, length)
            if sorter is not None:
                pos = indirect(as_value(sorter, row + [pos], sorter.sizes, i64), length)
            probe = as_value(seq, row + [pos], seq.sizes, compute)
            below = ops.logical_not(ops.gt(probe, v) if right else ops.ge(probe, v))
            start = ops.where(ops.logical_and(active, below), ops.add(mid, c(1)), start)
            end = ops.where(ops.logical_and(active, ops.logical_not(below)), mid, end)
        return ops.to_dtype(start, out.dtype, i64)
    return Lazy(sizes, out.dtype, out.device, loader, 8 * max(length.bit_length(), 1))
