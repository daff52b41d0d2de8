"""Views as index transforms: view, permute, expand, slice, ... never copy; flip is a reversed index, roll a
rotated one."""

import sympy
import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln import ir
from kiln.ir import ops, product, sym
from kiln.lowering.values import (current, dense_meta_strides, Lazy, LoweringError, register, same_strides,
                                  static_ints, traced_meta_strides, View)
from kiln.lowering.outputs import AS_STRIDED, view_chain
from kiln.lowering.pointwise import broadcast_index

aten = torch.ops.aten
prims = torch.ops.prims


def view_of(x, sizes, reindex):
    """x seen through reindex(new_idx) -> old_idx. Strided stays strided when the map is affine."""
    sizes = list(sizes)
    if isinstance(x, View):
        new = ir.index_vars("v", len(sizes))
        expr = ir.strided_index(reindex(new), x.strides, x.offset) if x.sizes else x.offset
        # a dim of size 1 is only ever indexed at 0 (a slice of one q out of q, k, v stays a view)
        expr = sympy.sympify(expr).xreplace({v: sympy.Integer(0) for v, s in zip(new, sizes) if s == 1})
        if expr.has(ir.FloorDiv, ir.ModularIndexing):   # a reshape across dims: fold what fits back together
            expr = ir.simplify_index(expr)
        affine = linear_terms(ir.expand(expr), new)
        if affine is not None:
            return View(x.buffer, sizes, *affine)
    return Lazy(sizes, x.dtype, x.device, lambda idx: x.load(reindex(idx)), x.opcount, x.origins)


def linear_terms(expr, variables):
    """(each variable's coefficient, the rest) of an expanded expr whose terms each hold at most one of variables,
    to the first power, with factors free of them; None otherwise. What expr.coeff(v) for each v and the rest's
    expansion gave, read off the terms once (those SymPy calls were a fifth of GPT-2's lowering)."""
    coefficients, rest = dict.fromkeys(variables, sympy.Integer(0)), []
    for term in sympy.Add.make_args(expr):
        factors = sympy.Mul.make_args(term)
        found = [f for f in factors if f in coefficients]
        others = [f for f in factors if f not in coefficients]
        if len(found) > 1 or any(f.has(*variables) for f in others):
            return None
        if found:
            coefficients[found[0]] += sympy.Mul(*others)
        else:
            rest.append(term)
    return list(coefficients.values()), sympy.Add(*rest)


def divides(a, b):
    """Whether a divides b, for sizes that may be symbolic."""
    num, den = sympy.fraction(sympy.cancel(sympy.sympify(b) / a))
    return den == 1


def reshape_index(new_sizes, old_sizes):
    """new_idx -> old_idx for a row-major reshape, group by group so that most dims map directly.

    Where SymPy cannot match the groups' products (symbolic sizes such as a*(a**2//a) against a**2, which
    Dynamo's own view of a padded window leaves), the traced sizes pick the groups and each group's equality
    becomes a guard of the graph (GraphLowering.guard_equal). Where no guard can be made (a size without a hint,
    no shape environment), it is one group: the flat index over all new dims, unflattened into the old, which was
    the only way before and grew indices past what SymPy simplifies in minutes (HF Swinv2 under dynamic=True,
    7 windowing views deep, never finished compiling)."""
    try:
        groups = _reshape_groups(new_sizes, old_sizes, lambda a, b: a == b, divides)
    except LoweringError:
        if all(ir.is_static(s) for s in list(new_sizes) + list(old_sizes)):
            raise
        groups = _guarded_groups(new_sizes, old_sizes)

    def reindex(idx):
        old = [sympy.Integer(0)] * len(old_sizes)
        for gi, gj in groups:
            flat = ir.strided_index([idx[k] for k in gi], ir.contiguous_strides([new_sizes[k] for k in gi]))
            for k, v in zip(gj, ir.unflatten(flat, [old_sizes[k] for k in gj])):
                old[k] = v
        return old
    return reindex


def _guarded_groups(new_sizes, old_sizes):
    """The groups the traced sizes give, each group's equal products guarded; else one group of all dims."""
    graph = current()
    hint = graph.size_hint
    try:
        if any(hint(s) is None for s in list(new_sizes) + list(old_sizes)):
            raise LoweringError("a size without a hint")
        groups = _reshape_groups(new_sizes, old_sizes, lambda a, b: hint(a) == hint(b),
                                 lambda a, b: hint(a) < hint(b))
        if all(graph.guard_equal(product([new_sizes[k] for k in gi]), product([old_sizes[k] for k in gj]))
               for gi, gj in groups):
            return groups
    except LoweringError:
        pass
    return [(list(range(len(new_sizes))), list(range(len(old_sizes))))]


def _reshape_groups(new_sizes, old_sizes, equal, grows_new):
    """Consecutive dims of new and old whose sizes' products are `equal`: while a group's are not, grow its new
    side where `grows_new(new product, old product)`, else its old side."""
    groups, i, j = [], 0, 0
    while i < len(new_sizes) or j < len(old_sizes):
        if i < len(new_sizes) and new_sizes[i] == 1:
            groups.append(([i], []))
            i += 1
            continue
        if j < len(old_sizes) and old_sizes[j] == 1:
            groups.append(([], [j]))
            j += 1
            continue
        if i == len(new_sizes) or j == len(old_sizes):
            raise LoweringError(f"cannot reshape {old_sizes} to {new_sizes}")
        gi, gj, pi, pj = [i], [j], new_sizes[i], old_sizes[j]
        i, j = i + 1, j + 1
        while not equal(pi, pj):
            if grows_new(pi, pj) and i < len(new_sizes):
                gi.append(i)
                pi, i = pi * new_sizes[i], i + 1
            elif j < len(old_sizes):
                gj.append(j)
                pj, j = pj * old_sizes[j], j + 1
            else:
                raise LoweringError(f"cannot reshape {old_sizes} to {new_sizes}")
        groups.append((gi, gj))
    return groups


@register(aten.view.default, aten._unsafe_view.default, aten.reshape.default, aten.view_copy.default)
def lower_view(out, x, shape):
    sizes = [sym(s) for s in out.shape]
    if ir.static_numel(sizes) == 0:   # nothing to load, and no reshape grouping to find
        return Lazy(sizes, out.dtype, out.device, lambda idx: ops.constant(0, out.dtype))
    return view_of(x, sizes, reshape_index(sizes, list(x.sizes)))


@register(aten.permute.default, aten.permute_copy.default)
def lower_permute(out, x, dims):
    dims = [d % max(len(x.sizes), 1) for d in dims]
    inverse = [dims.index(i) for i in range(len(dims))]
    return view_of(x, [x.sizes[d] for d in dims], lambda idx: [idx[inverse[i]] for i in range(len(dims))])


@register(aten.t.default, aten.transpose.int)
def lower_transpose(out, x, d0=0, d1=1):
    n = len(x.sizes)
    if n < 2:
        return x
    perm = list(range(n))
    perm[d0 % n], perm[d1 % n] = perm[d1 % n], perm[d0 % n]
    return lower_permute(out, x, perm)


@register(aten.expand.default, aten.expand_copy.default, aten.broadcast_to.default)
def lower_expand(out, x, shape, *, implicit=False):
    sizes = [sym(s) for s in out.shape]
    return view_of(x, sizes, lambda idx: broadcast_index(idx, x.sizes, sizes))


@register(aten.squeeze.dim, aten.squeeze.dims, aten.squeeze.default, aten.unsqueeze.default,
          aten.unsqueeze_copy.default, aten.squeeze_copy.dims)
def lower_squeeze(out, x, *dims):
    sizes = [sym(s) for s in out.shape]
    return view_of(x, sizes, reshape_index(sizes, list(x.sizes)))


@register(aten.slice.Tensor, aten.slice_copy.Tensor)
def lower_slice(out, x, dim=0, start=None, end=None, step=1):
    dim %= len(x.sizes)
    sizes = [sym(s) for s in out.shape]
    start = slice_start(start, x.sizes[dim])
    return view_of(x, sizes, lambda idx: [i * step + start if d == dim else i for d, i in enumerate(idx)])


def slice_start(start, size):
    """A slice's first index, as eager takes it: a negative start counts from the end, and one before the start
    is 0. A symbolic start or size is compared at the graph's size hints, as Dynamo guarded it where it traced the
    slice: x[-h:] with h = n - 2 arrives as 2 - s0 (taken as it came, slice_scatter wrote nothing), and x[:, -9:]
    of 7 columns as -9 (taken as s0 - 9, the slice read before the row)."""
    start = sympy.sympify(start or 0)
    if below_zero(start):
        start = start + size
        if below_zero(start):
            return sympy.Integer(0)
    return start


def below_zero(e):
    value = e if e.is_number else current().size_hint(e)
    return value is not None and value < 0


@register(aten.select.int, aten.select_copy.int)
def lower_select(out, x, dim, index):
    dim %= len(x.sizes)
    if isinstance(index, int) and index < 0:
        index = index + x.sizes[dim]
    return view_of(x, [sym(s) for s in out.shape], lambda idx: idx[:dim] + [index] + idx[dim:])


@register(*AS_STRIDED)
def lower_as_strided(out, x, size, stride, storage_offset=None):
    """The offset and strides address eager's storage of x, in which x's first element sits at the traced x's
    storage offset; kiln's buffer holds that element at the View's offset, and x's other elements as far from it as
    eager's storage does where the buffer holds x at eager's strides (else a copy laid out as eager's is read:
    unfold and diagonal of a value stored channels-last read wrong elements of that buffer). Beyond x's elements:
    - a graph input given as traced is the caller's tensor, in the caller's storage: any position eager reads (so
      a CUDA graph reads that input where the caller has it, never a copy of its elements:
      GraphLowering.inputs_read_in_storage);
    - a computed value that x views, stored whole as eager stores it for this read (bases_stored_whole): that
      value's storage;
    - any other buffer holds x's elements only, as far as kiln knows: the rest of a slice computed for it alone was
      never stored, a value stored channels-last holds other elements around x[:, :1, :1, :1] than eager's NCHW
      storage, and a gapped layout's gaps hold nothing. At the first call, (w * 2)[3:].as_strided((6,), (1,), 5)
      read six elements past the slice's buffer. Reading there, the graph runs eagerly."""
    g = current()
    traced = g.current_node.args[0].meta["val"]
    eager_strides = [sym(s) for s in traced.stride()]
    dense = dense_meta_strides(traced, x.sizes)
    eager = dense or traced_meta_strides(traced, x.sizes)
    base = g.realize(x, eager)
    if not same_strides(base.strides, eager_strides, base.sizes):
        if eager is None:
            raise LoweringError("as_strided of a value laid out otherwise than eager's, which no copy lays out as "
                                "eager does (overlapping or symbolic strides)")
        base = g.realize_strided(base, eager)
    start = sym(traced.storage_offset())
    size, stride = [sym(s) for s in size], [sym(s) for s in stride]
    at = base.offset + (start if storage_offset is None else sym(storage_offset)) - start
    callers = isinstance(base.buffer, ir.InputBuffer) and base.buffer.name not in g.inputs_laid_out_anew
    image = g.eager_images.get(view_chain(g.current_node.args[0])[0])   # (by node: values may share a buffer)
    held = image if image is not None and image.buffer is base.buffer else base
    inside = within(span(at, size, stride), span(held.offset, held.sizes, held.strides))

    def gaps_read():   # (built element by element: asked only where the bounds alone do not decide)
        return held is base and not dense and not reads_only_elements(at, size, stride, base)
    if callers:
        # the caller's input is read in its storage where the program's own as_strided may read beyond its elements
        # (proved inside at every size, or not: no guard is made); one a decomposition made of another view op
        # (diagonal, unfold) reads that op's elements, whose bounds with symbolic sizes no relation proves
        original = g.current_node.meta.get("original_aten")
        programs = original is None or getattr(original, "_opname", None) in ("as_strided", "as_strided_copy")
        if programs and (not all(r is sympy.true for r in inside) or gaps_read()):
            g.inputs_read_in_storage.setdefault(base.buffer.name, []).append(span(at, size, stride))
    elif not all(map(g.holds, inside)) or gaps_read():
        raise LoweringError("as_strided reads storage outside its argument's elements, which its buffer does not "
                            "hold as eager's storage does")
    return View(base.buffer, size, stride, at)


def span(offset, sizes, strides):
    """The first and last storage positions a view reads (None where it reads none)."""
    if any(n == 0 for n in sizes):
        return None
    return offset, offset + sum((n - 1) * s for n, s in zip(sizes, strides))


def within(inner, outer):
    """The relations of sizes by which the span inner lies in the span outer."""
    if inner is None:
        return []
    if outer is None:
        return [sympy.false]
    return [sympy.Ge(inner[0], outer[0]), sympy.Le(inner[1], outer[1])]


ELEMENT_CHECK_LIMIT = 1 << 22   # positions enumerated at most, to find each read an element of a gapped layout


def reads_only_elements(offset, sizes, strides, base):
    """Whether every storage position a view (static) reads holds an element of base, a layout with gaps (such
    as x[..., ::2]'s) whose elements do not overlap. Each position is taken apart into base's indices, its widest
    stride first."""
    view, held = static_ints([offset] + sizes + strides), static_ints([base.offset] + base.sizes + base.strides)
    if view is None or held is None or ir.static_numel(sizes) > ELEMENT_CHECK_LIMIT:
        return False
    rank, base_rank = len(sizes), len(base.sizes)
    with unset_fake_temporarily():
        rest = torch.full((), view[0] - held[0], dtype=torch.int64)
        for n, st in zip(view[1:1 + rank], view[1 + rank:]):
            rest = rest.unsqueeze(-1) + torch.arange(n, dtype=torch.int64) * st
        inside = rest >= 0
        for st, n in sorted(zip(held[1 + base_rank:], held[1:1 + base_rank]), reverse=True):
            if st != 0 and n != 1:
                index = rest.div(st, rounding_mode="floor")
                inside &= index < n
                rest = rest - index * st
        return bool((inside & (rest == 0)).all())


@register(aten.split_with_sizes.default, aten.split.Tensor)
def lower_split(out, x, split_sizes, dim=0):
    dim %= len(x.sizes)
    starts, acc = [], 0
    for m in out:
        starts.append(acc)
        acc = acc + sym(m.shape[dim])
    return [view_of(x, [sym(s) for s in m.shape],
                    (lambda st: lambda idx: [i + st if d == dim else i for d, i in enumerate(idx)])(st))
            for m, st in zip(out, starts)]


@register(aten.unbind.int)
def lower_unbind(out, x, dim=0):
    dim %= len(x.sizes)
    return [view_of(x, [sym(s) for s in m.shape], (lambda k: lambda idx: idx[:dim] + [k] + idx[dim:])(k))
            for k, m in enumerate(out)]


@register(prims.rev.default)
def lower_rev(out, x, dims):
    """flip: index size-1-i along dims (a Lazy, not a View: extern calls cannot take negative strides)."""
    dims = {d % max(len(x.sizes), 1) for d in dims}
    sizes = list(x.sizes)
    return Lazy(sizes, x.dtype, x.device,
                lambda idx: x.load([sizes[d] - 1 - i if d in dims else i for d, i in enumerate(idx)]),
                x.opcount + 1)


@register(aten.roll.default)
def lower_roll(out, x, shifts, dims=()):
    """roll: along each dim of size n, element i reads (i - shift) mod n; with no dims, over the flattened tensor.
    Index arithmetic the code generator folds and bounds, where torch's decomposition gathers through an index
    tensor it computes (iota, add, fmod): int64 divisions and a bounds check per element, which ran Swin's window
    shifts at twice Inductor's time (an H200, bench/results/s46)."""
    sizes = list(x.sizes)
    if not dims:   # (the flattened tensor: the only shift along its one dim)
        numel = ir.product(sizes)
        return Lazy(sizes, x.dtype, x.device, lambda idx: x.load(ir.unflatten(
            rotated(ir.strided_index(idx, ir.contiguous_strides(sizes)), shifts[0], numel), sizes)), x.opcount + 1)
    rolls = [(d % len(sizes), s) for d, s in zip(dims, shifts)]

    def reindex(idx):
        idx = list(idx)
        for d, s in reversed(rolls):   # (roll(roll(x, a), b)[i] = x[(i - b - a) mod n], innermost last)
            idx[d] = rotated(idx[d], s, sizes[d])
        return idx
    return Lazy(sizes, x.dtype, x.device, lambda idx: x.load(reindex(idx)), x.opcount + 1)


def rotated(i, shift, n):
    """(i - shift) mod n for 0 <= i < n, as a modulus of a sum in [0, 2n) (the code generator's modulus is C's, of
    non-negative operands): -shift mod n where both are static, else n - (shift mod n) or (-shift) mod n by the
    shift's sign, or Python's modulus (floored: never negative) of a symbolic shift (fftshift's n // 2)."""
    if ir.is_static(n) and int(n) <= 1:
        return i
    if isinstance(shift, int) and ir.is_static(n):
        offset = (-shift) % int(n)
    elif isinstance(shift, int):
        offset = n - ir.ModularIndexing(shift, 1, n) if shift > 0 else ir.ModularIndexing(-shift, 1, n)
    else:
        offset = sympy.Mod(-shift, n)
    return ir.ModularIndexing(i + offset, 1, n) if offset != 0 else i
