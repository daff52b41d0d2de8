"""Pooling windows: max, average and adaptive pools, max pooling's backward, and convolutions of few products an
output element (depthwise ones: a window weighted per channel; an image's few channels) unrolled."""
import itertools
import math

import sympy
import torch

from kiln import ir
from kiln.ir import ops, product, sym
from kiln.lowering.values import channels_last_strides, current, Lazy, register, static_ints
from kiln.lowering.pointwise import as_value, opmath
from kiln.lowering.indexing import all_of, indirect
from kiln.lowering.reductions import make_reduction

aten = torch.ops.aten


@register(aten.max_pool2d_with_indices_backward.default)
def lower_max_pool2d_backward(out, grad_output, x, kernel_size, stride, padding, dilation, ceil_mode, indices):
    """Gathers instead of scattering: each input element sums the gradients of the (at most a few) windows
    that may hold it and chose it as their maximum (Inductor's formulation)."""
    pair = lambda v, default: [default] * 2 if not v else list(v) * 2 if len(v) == 1 else list(v)  # noqa: E731
    kernel = pair(kernel_size, None)
    stride = pair(stride, None) if stride else kernel
    padding, dilation = pair(padding, 0), pair(dilation, 1)
    if not all(isinstance(v, int) for v in kernel + stride + padding + dilation):
        return NotImplemented
    windows = [max(max(h // s - max(0, (h - k) // s), 1) for h in range(2 * k)) for k, s in zip(kernel, stride)]
    sizes = [sym(s) for s in out.shape]
    pooled = list(grad_output.sizes[-2:])
    width = x.sizes[-1]
    acc = opmath(out.dtype)
    i64 = torch.int64
    c = lambda v: ops.constant(v, i64)  # noqa: E731

    def by_offset(idx):
        """Any dilation: for each kernel offset, the one window that would hold this element there."""
        *prefix, h, w = idx
        target = ops.index_expr(h * width + w, i64)
        total = ops.constant(0, acc)
        for kh in range(kernel[0]):
            for kw in range(kernel[1]):
                conds, where = [], list(prefix)
                for pos, k, s, p, d, n in zip((h, w), (kh, kw), stride, padding, dilation, pooled):
                    shifted = ops.index_expr(pos + p - k * d, i64)
                    window = ops.floordiv(shifted, c(s))
                    ok = [ops.ge(shifted, c(0)), ops.eq(ops.remainder(shifted, c(s)), c(0)),
                          ops.lt(window, ops.index_expr(n, i64))]
                    conds += ok
                    # within [0, n): the window where it exists (shifted >= 0, window < n), else 0 (n >= 1:
                    # max_pool2d raises where a pooled size would be 0)
                    where.append(indirect(ops.where(all_of(ok), window, c(0)), n, check=False))
                hit = all_of(conds + [ops.eq(as_value(indices, where, indices.sizes, i64), target)])
                total = ops.where(hit, ops.add(total, as_value(grad_output, where, grad_output.sizes, acc)), total)
        return total if acc == out.dtype else ops.to_dtype(total, out.dtype, acc)

    if any(d != 1 for d in dilation) or windows[0] * windows[1] > 25:
        if kernel[0] * kernel[1] > 64:
            return NotImplemented
        return Lazy(sizes, out.dtype, out.device, by_offset, 8 * kernel[0] * kernel[1])

    def loader(idx):
        *prefix, h, w = idx
        target = ops.index_expr(h * width + w, i64)
        starts, ends = [], []
        for pos, k, s, p, n in zip((h, w), kernel, stride, padding, pooled):
            shifted = ops.index_expr(pos + p, i64)
            starts.append(ops.maximum(ops.floordiv(ops.add(shifted, c(s - k)), c(s)), c(0)))
            ends.append(ops.minimum(ops.add(ops.floordiv(shifted, c(s)), c(1)), ops.index_expr(n, i64)))
        total = None
        for dh in range(windows[0]):
            for dw in range(windows[1]):
                ph, pw = ops.add(starts[0], c(dh)), ops.add(starts[1], c(dw))
                # within [0, n): start >= 0, and 1 <= end <= n (pos + p >= 0, n >= 1), so 0 <= min(start + d,
                # end - 1) <= n - 1. Unchecked: the checks were most of these kernels' code (a stem's pooling
                # backward compiled in 1.7 s, its eight checks each a store and a select)
                where = prefix + [indirect(ops.minimum(ph, ops.sub(ends[0], c(1))), pooled[0], check=False),
                                  indirect(ops.minimum(pw, ops.sub(ends[1], c(1))), pooled[1], check=False)]
                hit = ops.eq(as_value(indices, where, indices.sizes, i64), target)
                part = as_value(grad_output, where, grad_output.sizes, acc)
                if total is None:
                    total = ops.where(hit, part, ops.constant(0, acc))
                else:
                    hit = all_of([ops.lt(ph, ends[0]), ops.lt(pw, ends[1]), hit])
                    total = ops.where(hit, ops.add(total, part), total)
        return total if acc == out.dtype else ops.to_dtype(total, out.dtype, acc)
    return Lazy(sizes, out.dtype, out.device, loader, 4 * windows[0] * windows[1])


def pool_params(n, kernel_size, stride, padding):
    expand = lambda v, default: [default] * n if not v else list(v) * n if len(v) == 1 else list(v)  # noqa: E731
    kernel = expand(kernel_size, None)
    return kernel, (expand(stride, None) if stride else kernel), expand(padding, 0)


# Devices where a max-pool's computed input is stored once and read by each window, not computed again for each
# window it falls in (up to 4 windows of 3x3 at stride 2: 9 loads per output). Windows that do not overlap read
# each element once, and keep it inlined. On the CPU, HF ResNet's stem (batch norm + ReLU inlined
# into its max-pool, over NCHW rows strided across the channels) took 169 us of a 0.66 ms call; stored first, the
# call took 0.52 ms. The GPU keeps it inlined, which saves the stored tensor's round trip (not measured against).
WINDOW_INPUT_STORED = {"cpu"}


@register(aten.max_pool2d_with_indices.default, aten.max_pool3d_with_indices.default)
def lower_max_pool(out, x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """Each window's maximum and the flat spatial index of where it is, as eager's kernels pick it: the
    window's first in-bounds position to start with, then any larger value or any NaN. The window is
    unrolled, so only small static kernels."""
    n = 3 if "3d" in str(current().current_node.target) else 2
    kernel, stride, padding = pool_params(n, kernel_size, stride, [padding] if isinstance(padding, int) else padding)
    dilation = pool_params(n, [dilation] if isinstance(dilation, int) else dilation, (), 0)[0]
    if not all(isinstance(v, int) for v in kernel + stride + padding + dilation) or math.prod(kernel) > 64:
        return NotImplemented
    sizes = [sym(v) for v in out[0].shape]
    spatial_in = list(x.sizes[-n:])
    lead = len(sizes) - n
    acc, i64 = opmath(out[0].dtype), torch.int64
    windows_per_element = math.prod(-(-k // st) for k, st in zip(kernel, stride))   # 1 where windows do not overlap
    if isinstance(x, Lazy) and x.opcount > 1 and windows_per_element > 1 and x.device.type in WINDOW_INPUT_STORED:
        x = current().realize_as_read(x)

    def window(idx, with_index=True):
        """(the window's maximum, its flat index, or None without with_index: a values-only read, as inference's
        max_pool2d, spends no code on the index)."""
        zero = ops.constant(0, i64)
        starts = [o * st - p for o, st, p in zip(idx[lead:], stride, padding)]
        # the first in-bounds position along each dim: start + ceil(-start / d) * d when start < 0
        firsts = [ops.where(ops.lt(ops.index_expr(b, i64), zero),
                            ops.index_expr(b + ir.FloorDiv(-b + d - 1, d) * d, i64), ops.index_expr(b, i64))
                  for b, d in zip(starts, dilation)] if with_index else None
        where = flat_position(firsts, spatial_in) if with_index else None
        best = ops.constant(-math.inf, acc)
        for offsets in itertools.product(*[range(k) for k in kernel]):
            pos = [b + off * d for b, off, d in zip(starts, offsets, dilation)]
            inside = all_of([c for q, size in zip(pos, spatial_in) for c in (
                ops.ge(ops.index_expr(q, i64), zero), ops.lt(ops.index_expr(q, i64), ops.index_expr(size, i64)))])
            v = ops.masked(inside, lambda pos=pos: as_value(x, list(idx[:lead]) + pos, x.sizes, acc),
                           ops.constant(-math.inf, acc))
            take = ops.logical_and(inside, ops.logical_or(ops.gt(v, best), ops.isnan(v)))
            best = ops.where(take, v, best)
            if with_index:
                where = ops.where(take, flat_position([ops.index_expr(q, i64) for q in pos], spatial_in), where)
        return best, where

    # each result walks the window (they land in one kernel; a gather of the maximum from the index
    # instead took a second kernel: the indirect load does not split into the same loops)
    opcount = x.opcount + 4 * math.prod(kernel)
    values = Lazy(sizes, out[0].dtype, out[0].device,
                  lambda idx: ops.to_dtype(window(idx, with_index=False)[0], out[0].dtype, acc), opcount)
    indices = Lazy(sizes, i64, out[1].device, lambda idx: window(idx)[1], opcount)
    return [values, indices]


def flat_position(positions, sizes):
    """Row-major flat index of int64 positions within sizes."""
    flat = positions[0]
    for q, size in zip(positions[1:], sizes[1:]):
        flat = ops.add(ops.mul(flat, ops.index_expr(size, torch.int64)), q)
    return flat


@register(aten.avg_pool2d.default, aten.avg_pool3d.default)
def lower_avg_pool(out, x, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
                   divisor_override=None):
    """A sum over each window's in-bounds elements, divided as eager divides (AvgPoolKernel.cpp)."""
    n = 3 if "3d" in str(current().current_node.target) else 2
    kernel, stride, padding = pool_params(n, kernel_size, stride, [padding] if isinstance(padding, int) else padding)
    if not all(isinstance(v, int) for v in kernel + stride + padding):
        return NotImplemented
    sizes = [sym(s) for s in out.shape]
    spatial_in = list(x.sizes[-n:])
    lead = len(sizes) - n
    acc = opmath(out.dtype)
    i64 = torch.int64

    def term(idx):
        outer, window = idx[:len(sizes)], idx[len(sizes):]
        src, conds = list(outer[:lead]), []
        for o, k, s, p, size in zip(outer[lead:], window, stride, padding, spatial_in):
            pos = o * s - p + k
            e = ops.index_expr(pos, i64)
            conds += [ops.ge(e, ops.constant(0, i64)), ops.lt(e, ops.index_expr(size, i64))]
            src.append(pos)
        return ops.masked(all_of(conds), lambda: as_value(x, src, x.sizes, acc), ops.constant(0, acc))

    # a window's position o * s - p + offset is at least offset - p, so no offset from size + p on reads the
    # input: the loop stops there. (HF EfficientNet pools its 1x1 map with a 320x320 window, ceil_mode, whose
    # 102,400 offsets all but one read nothing: 8x slower than eager on the CPU.)
    reach = [min(k, size + p) if isinstance(size, (int, sympy.Integer)) else k
             for k, p, size in zip(kernel, padding, spatial_in)]
    terms = Lazy(sizes + [sympy.Integer(r) for r in reach], acc, out.device, term, x.opcount + 4)
    total = make_reduction(out, terms, list(range(len(sizes), len(sizes) + n)), "sum", src_dtype=acc, dtype=acc)

    def divide(idx):
        s = as_value(total, idx, sizes, acc)
        if divisor_override:
            return ops.truediv(s, ops.constant(float(divisor_override), acc))
        whole, inside, empty = None, None, []
        for o, k, st, p, size in zip(idx[lead:], kernel, stride, padding, spatial_in):
            start = ops.index_expr(o * st - p, i64)
            end = ops.minimum(ops.add(start, ops.constant(k, i64)), ops.index_expr(size + p, i64))
            span = ops.sub(end, start)
            clipped = ops.sub(ops.minimum(end, ops.index_expr(size, i64)), ops.maximum(start, ops.constant(0, i64)))
            empty.append(ops.le(clipped, ops.constant(0, i64)))
            whole = span if whole is None else ops.mul(whole, span)
            inside = clipped if inside is None else ops.mul(inside, clipped)
        count = whole if count_include_pad else inside
        value = ops.truediv(s, ops.to_dtype(count, acc, i64))
        nothing = empty[0]
        for e in empty[1:]:
            nothing = ops.logical_or(nothing, e)
        return ops.where(nothing, ops.constant(0, acc), value)

    return Lazy(sizes, out.dtype, out.device,
                lambda idx: ops.to_dtype(divide(idx), out.dtype, acc) if acc != out.dtype else divide(idx), 8)


def adaptive_windows(in_size, out_size):
    """Eager's adaptive windows: [floor(o*I/O), ceil((o+1)*I/O)); and the longest one."""
    starts = [(o * in_size) // out_size for o in range(out_size)]
    ends = [-((-(o + 1) * in_size) // out_size) for o in range(out_size)]
    return max((e - s for s, e in zip(starts, ends)), default=0)


def adaptive_terms(x, sizes, n, acc, fill):
    """x's adaptive windows as a Lazy over out sizes + the longest window per dim (fill outside a window)."""
    spatial_in = list(x.sizes[-n:])
    lead = len(sizes) - n
    longest = [sympy.Integer(adaptive_windows(int(i), int(o))) for i, o in zip(spatial_in, sizes[lead:])]
    i64 = torch.int64

    def bounds(o, size_in, size_out):
        start = ir.FloorDiv(o * size_in, size_out)
        end = ir.FloorDiv((o + 1) * size_in + size_out - 1, size_out)
        return start, end

    def term(idx):
        outer, window = idx[:len(sizes)], idx[len(sizes):]
        src, conds = list(outer[:lead]), []
        for o, k, size_in, size_out in zip(outer[lead:], window, spatial_in, sizes[lead:]):
            start, end = bounds(o, size_in, size_out)
            conds.append(ops.lt(ops.index_expr(start + k, i64), ops.index_expr(end, i64)))
            src.append(start + k)
        return ops.masked(all_of(conds), lambda: as_value(x, src, x.sizes, acc), ops.constant(fill, acc))

    return Lazy(sizes + longest, acc, x.device, term, x.opcount + 4), longest, bounds, lead


@register(aten._adaptive_avg_pool3d.default)
def lower_adaptive_avg_pool(out, x, output_size):
    sizes = [sym(s) for s in out.shape]
    n = len(output_size)
    if not all(ir.is_static(s) for s in list(x.sizes[-n:]) + sizes):
        return NotImplemented
    acc = opmath(out.dtype)
    terms, longest, bounds, lead = adaptive_terms(x, sizes, n, acc, 0)
    total = make_reduction(out, terms, list(range(len(sizes), len(sizes) + n)), "sum", src_dtype=acc, dtype=acc)
    i64 = torch.int64

    def loader(idx):
        count = None
        for o, size_in, size_out in zip(idx[lead:], x.sizes[-n:], sizes[lead:]):
            start, end = bounds(o, size_in, size_out)
            span = ops.index_expr(end - start, i64)
            count = span if count is None else ops.mul(count, span)
        value = ops.truediv(as_value(total, idx, sizes, acc), ops.to_dtype(count, acc, i64))
        return value if acc == out.dtype else ops.to_dtype(value, out.dtype, acc)
    return Lazy(sizes, out.dtype, out.device, loader, 4)


@register(aten.adaptive_max_pool2d.default, aten.adaptive_max_pool3d.default)
def lower_adaptive_max_pool(out, x, output_size):
    """Values by a max reduction; indices by an argmax over the same windows, made absolute: the first
    maximum, as eager's strict >. (A window with several NaNs: eager points at the last, argmax the first,
    as with torch._decomp's max_pool2d_with_indices.)"""
    values_meta, indices_meta = out
    sizes = [sym(s) for s in values_meta.shape]
    n = len(output_size)
    if not all(ir.is_static(s) for s in list(x.sizes[-n:]) + sizes) or not x.dtype.is_floating_point:
        return NotImplemented
    acc = opmath(x.dtype)
    terms, longest, bounds, lead = adaptive_terms(x, sizes, n, acc, float("-inf"))
    dims = list(range(len(sizes), len(sizes) + n))
    values = make_reduction(values_meta, terms, dims, "max", src_dtype=acc, dtype=x.dtype)
    flat = make_reduction(indices_meta, terms, dims, "argmax", src_dtype=acc, dtype=torch.int64)
    i64 = torch.int64

    def index(idx):
        k = ops.to_dtype(as_value(flat, idx, sizes, i64), i64, i64)
        pos = None
        for d, (o, size_in, size_out) in enumerate(zip(idx[lead:], x.sizes[-n:], sizes[lead:])):
            inner = product(longest[d + 1:])
            offset = ops.remainder(ops.floordiv(k, ops.constant(int(inner), i64)), ops.constant(int(longest[d]), i64))
            start, _ = bounds(o, size_in, size_out)
            coord = ops.add(ops.index_expr(start, i64), offset)
            pos = coord if pos is None else ops.add(ops.mul(pos, ops.index_expr(size_in, i64)), coord)
        return pos
    return [values, Lazy(sizes, torch.int64, out[1].device, index, 6)]


# the most products an output element of an unrolled convolution sums: a 5x5 depthwise window (EfficientNet's), or
# an image's 3 channels under a 3x3 window (the stems of MobileNet, EfficientNet, RegNet). ConvNeXt's 7x7 depthwise
# windows stay cuDNN's: their build cost is not measured yet
UNROLLED_PRODUCTS = 27
# the most input channels of a one-group convolution unrolled: fewer than a 16-byte vector of half-precision values,
# which the library's implicit-GEMM kernels reduce over (timm MobileNetV3's bf16 stem, 3 channels channels-last, took
# cuDNN 60 us on one H200 for 22 MB of reads and writes, after a copy of the image to that layout; bench/NOTES.md 87)
UNROLLED_CHANNELS = 4
# the fewest taps of a depthwise window whose rows are a loop, each row's taps unrolled: a 5x5 window (EfficientNet's
# 5x5 depthwise kernel built 2.7x faster so on an H100, its GPU time within 2%; bench/NOTES.md 125). Smaller ones
# stay unrolled (their looped time not measured)
LOOPED_TAPS = 25


def unrolled_convolution(out, x, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """A 2-D convolution whose every output element sums few products, in a Triton kernel of kiln's: a depthwise one
    (one filter per channel), or one of one group over a few input channels (an image's). Each output element sums
    its window's taps times its filter's weights, unrolled (a large depthwise window's rows a loop, LOOPED_TAPS),
    in float32, plus the bias where it is given one (where the device's library adds it apart, lower_convolution
    adds it to the rounded result instead, as for the library's convolutions). Its norm and activation fuse after
    it, where cuDNN took a launch of its own; a graph input (the image) is read as the caller laid it out, not
    copied channels-last first. And cuDNN's channels-last
    depthwise kernels cost their first call seconds of planning, per thread (bf16 inference, one H200: MobileNetV2's
    first call 2.5 s channels-last against 0.38 NCHW, EfficientNet-B0's 3.1 s; bench/NOTES.md 61).
    A computed input is stored channels-last first, read by each tap. A depthwise convolution skips the taps in the
    padding, as eager's depthwise kernels do (an infinite weight stays out); one of one group multiplies the padded
    zeros (0 * inf is NaN there), as cuDNN's and ATen's one-channel kernels do (oneDNN's skips them: eager's kernels
    differ here). NotImplemented where the convolution is not such, or has no input channels (the library runs it)."""
    g = current()
    shape = static_ints(weight.sizes)   # [out channels, in channels per group, kh, kw]
    stride, padding, dilation = (list(v) * 2 if len(v) == 1 else list(v) for v in (stride, padding, dilation))
    if not isinstance(out, torch.Tensor) or out.dim() != 4 or not out.dtype.is_floating_point or \
            out.dtype == torch.float64 or not g.on_triton(out.device) or transposed or shape is None or \
            not all(isinstance(v, int) for v in [groups, *stride, *padding, *dilation]) or \
            not 0 < math.prod(shape[1:]) <= UNROLLED_PRODUCTS:
        return NotImplemented
    depthwise = 1 < groups == x.sizes[1] == sym(out.shape[1]) == shape[0] and shape[1] == 1
    few_channels = groups == 1 and x.sizes[1] == shape[1] <= UNROLLED_CHANNELS
    if not depthwise and not few_channels:
        return NotImplemented
    if isinstance(x, Lazy):
        x = g.share(g.current_node.args[0], x, g.realize(x, channels_last_strides(x.sizes)))
    # the weights tap-major, output channels innermost: each tap's read of a block of channels is then one
    # contiguous run, not a gather a tap's width apart (a copy of a few KiB per call, or none once frozen)
    channels, taps = shape[0], math.prod(shape[2:])
    weight = g.realize_strided(weight, [1, taps * channels, shape[3] * channels, channels])
    sizes = [sym(s) for s in out.shape]
    acc, i64 = opmath(out.dtype), torch.int64
    spatial_in = list(x.sizes[2:])

    def loader(idx):
        n, c, h, w = idx
        # (each tap's position is the window's first plus a constant: SymPy builds the products once a call)
        firsts = [o * st - p for o, st, p in zip((h, w), stride, padding)]
        zero, limits = ops.constant(0, i64), [ops.index_expr(size, i64) for size in spatial_in]

        def tap(ci, offsets):   # (offsets: the tap's row in the window, an integer or a loop's, and its column)
            pos = [first + k * d for first, k, d in zip(firsts, offsets, dilation)]
            inside = all_of([cond for q, limit in zip(pos, limits) for index in [ops.index_expr(q, i64)]
                             for cond in (ops.ge(index, zero), ops.lt(index, limit))])
            channel = c if depthwise else sympy.Integer(ci)
            tap_weight = lambda: as_value(   # noqa: E731
                weight, [c, sympy.Integer(ci), *map(sympy.sympify, offsets)], weight.sizes, acc)
            if depthwise:   # a tap outside the input adds nothing, whatever its weight
                return ops.masked(inside, lambda: ops.mul(as_value(x, [n, channel, *pos], x.sizes, acc),
                                                          tap_weight()), ops.constant(0, acc))
            # a padded zero times the weight
            return ops.mul(ops.masked(inside, lambda: as_value(x, [n, channel, *pos], x.sizes, acc),
                                      ops.constant(0, acc)), tap_weight())

        def window_row(kh, total):
            for ci, kw in itertools.product(range(shape[1]), range(shape[3])):
                total = ops.add(total, tap(ci, (kh, kw)))
            return total
        fold = ops.fold if depthwise and taps >= LOOPED_TAPS else ir.unrolled_fold
        total = fold(shape[2], window_row, ops.constant(0, acc))
        if bias is not None:
            total = ops.add(total, as_value(bias, [c], bias.sizes, acc))
        return ops.to_dtype(total, out.dtype, acc)
    value = Lazy(sizes, out.dtype, out.device, loader, 4 * math.prod(shape[1:]))
    # (stored channels-last at once: a tile of pixels by output channels loads each tap once per pixel)
    return value if depthwise else g.realize(value, channels_last_strides(sizes))
