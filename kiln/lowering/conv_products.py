"""Small 2-D convolutions (one group) as matrix products, forward and backward, where `runs_as_matmul` picks them.

Channels-last, a convolution is the product of its windows (one row per output pixel: the kh x kw x in-channels
values it reads, zeros where it reads padding) with the weight's rows, and the product's rows are the output's
channels-last memory. The windows are gathered by a kernel of kiln's (`window_rows`: the padding is a masked load,
no padded copy), where a 1x1 window with unit stride is the input's own memory. The weight's gradient is the product
of the output gradient's rows with the same windows. The input's gradient, where no two windows overlap (1x1, a
patch embedding), is each window's gradient (a product) read back into place; where they overlap, it is the
transposed convolution: the output gradient's windows, its pixels spread `stride` apart, times the weight flipped
with its channels swapped.

Before these were lowered here, the wrapper ran the same products through ~18 torch calls a convolution (pads,
window views and copies, the flipped weight), which cost small convolutions what oneDNN's set-up did (a 3x3
forward of [2, 16, 8, 8] on the 2-core CPU: 57 us, 8 of them the product; bench/NOTES.md 77)."""

import math

import sympy
import torch

from kiln import ir
from kiln.ir import FloorDiv, ModularIndexing, ops
from kiln.lowering.indexing import all_of
from kiln.lowering.pointwise import opmath
from kiln.lowering.reductions import make_reduction
from kiln.lowering.values import channels_last_strides, Lazy, OpThen, static_ints, View

aten = torch.ops.aten
i64 = torch.int64


def product_call(op, convolution):
    """op (a product), labelled in generated code as computing part of the convolution op"""
    return OpThen(op, None, f"{op} ({convolution} as a product of its windows: kiln.lowering.conv_products)")


FORWARD_PRODUCT = product_call(aten.mm.default, "aten.convolution.default")
FORWARD_PRODUCT_WITH_BIAS = product_call(aten.addmm.default, "aten.convolution.default")
BACKWARD_PRODUCT = product_call(aten.mm.default, "aten.convolution_backward.default")

# Devices where a small 2-D convolution (channels-last, one group) runs as a matrix product, forward and backward.
# oneDNN spends ~25 us setting up each forward call and ~70 each backward, whatever its size: on the 2-core CPU, a
# [2, 16, 16, 16] -> 16 1x1 convolution took 31 us forward and 184 forward and backward in eager, its product 12 and
# 73; [2, 32, 8, 8] -> 192: 58 and 246 against 39 and 132. From about 2^23 multiply-adds on, the two are even
# ([2, 64, 32, 32] -> 64: 115/438 against 132/417), and larger ones ran faster in oneDNN ([32, 64, 56, 56] -> 64:
# 4.8/18.1 ms against 7.2/23.4; bench/NOTES.md 67). A wider window's rows are gathered into a matrix first, for the
# input and, where windows overlap, for the backward's transposed convolution of the gradient: worth it while those
# matrices are small (bench/NOTES.md 75).
MATMUL_CONVOLUTION_DEVICES = {"cpu"}
MATMUL_CONVOLUTION_DTYPES = {torch.float32}
MATMUL_CONVOLUTION_UP_TO = 1 << 22   # multiply-adds
WINDOWS_UP_TO = 1 << 15   # elements of a window matrix gathered
# A frozen weight this large (elements) makes a convolution, or a linear, oneDNN's call with the weight packed once
# rather than a product: MKL's sgemm packs both operands at every call, and with few pixels the weight's packing is
# most of the product's time. On the 2-core CPU (bench/results/s78/conv1x1_grid*.txt, addmm against the packed
# call): 1 MiB weights at 8 rows, 1.06-1.49x faster packed; 4 MiB 1.6-2.6x; 800 KiB and below the product faster
# (0.4-0.9x at up to 32 rows), oneDNN's call costing ~25 us whatever its size. timm ConvNeXt's last stage (8 rows,
# 320 x 1280 weights) took 110-160 us a product against Inductor's 79-96 (bench/NOTES.md 108). Linears: oneDNN's
# product of a packed 1-9 MiB weight took 0.40-0.67x MKL's time at 2-128 rows (s78/linear_packed_micro.txt).
PACKED_WEIGHT_FROM = 1 << 18
# From this many elements where the call also applies an activation that kiln would otherwise run as a kernel of its
# own (a GELU: kiln.lowering.post_ops). oneDNN's linear with the GELU against MKL's product and the GELU, on the
# 2-core CPU (bench/results/s79/gelu_postop_grid.txt): 16k-element weights 0.89x (8 rows) to 1.26x (32), 1.04-1.12x
# at 128-2048 rows; 64k ones 1.09-1.79x; 4k ones 0.76-0.98x up to 512 rows.
PACKED_ACTIVATED_WEIGHT_FROM = 1 << 14


def packs_rather_than_multiplies(weight, activated=False):
    """Whether a frozen weight is large enough that oneDNN's call with it packed once runs in place of MKL's
    product: the weight of a convolution whose product would not gather windows (a 1x1 one without a stride, or one
    whose window covers its whole input), or of a linear, with at least PACKED_WEIGHT_FROM elements (static sizes),
    or PACKED_ACTIVATED_WEIGHT_FROM where the call applies an activation (`activated`)."""
    sizes = static_ints(weight.sizes)
    return sizes is not None and math.prod(sizes) >= (PACKED_ACTIVATED_WEIGHT_FROM if activated else PACKED_WEIGHT_FROM)


def runs_as_matmul(dtype, device, in_sizes, out_sizes, weight, stride, padding, dilation, transposed, output_padding,
                   groups, output_mask=None):
    """[stride, padding, dilation] (2 elements each) of a 2-D convolution of an in_sizes input and out_sizes
    output that runs as a matrix product, or None: on a device and dtype above, one group, not transposed, static
    sizes, at most MATMUL_CONVOLUTION_UP_TO multiply-adds, window matrices of at most WINDOWS_UP_TO elements (the
    input's, and for a backward (output_mask) asking for the input's gradient where windows overlap, the output
    gradient's), and padding within the window's reach (so that the transposed convolution's is not negative).
    (Not with no channels: AOTAutograd's trace of such a convolution hands its backward a gradient with the
    input's 0 channels, which ATen's convolution_backward answers with a bias gradient of the bias's size.)"""
    sizes, in_sizes = static_ints(out_sizes), static_ints(in_sizes)
    weight_sizes = static_ints(getattr(weight, "sizes", None) or [])
    conv_args = [static_ints(a) for a in (stride, padding, dilation)]
    if device.type not in MATMUL_CONVOLUTION_DEVICES or dtype not in MATMUL_CONVOLUTION_DTYPES or transposed or \
            groups != 1 or sizes is None or in_sizes is None or len(sizes) != 4 or len(in_sizes) != 4 or \
            weight_sizes is None or len(weight_sizes) != 4 or 0 in weight_sizes or \
            any(a is None or len(a) not in (1, 2) for a in conv_args):
        return None
    steps, pads, dilations = ([*a] * (2 // len(a)) for a in conv_args)
    k, c, *window = weight_sizes
    reach = [d * (w - 1) + 1 for d, w in zip(dilations, window)]
    multiply_adds = math.prod(sizes) * c * math.prod(window)
    windows = multiply_adds // k   # (the input's: a row of c * kh * kw per output pixel)
    transposed_windows = output_mask is not None and output_mask[0] and any(s < r for s, r in zip(steps, reach))
    gradient_windows = in_sizes[0] * math.prod(in_sizes[2:]) * math.prod(window) * k if transposed_windows else 0
    if multiply_adds > MATMUL_CONVOLUTION_UP_TO or \
            any(p > r - 1 for p, r in zip(pads, reach)) or \
            window != [1, 1] and max(windows, gradient_windows) > WINDOWS_UP_TO:
        return None
    return [steps, pads, dilations]


def copies_windows(weight, stride):
    """Whether the product gathers its input's windows (all but 1x1 ones without a stride: runs_as_matmul lets no
    1x1 one pad)."""
    return static_ints(weight.sizes)[2:] != (1, 1) or stride != [1, 1]


# The arguments below are Views: the weight and the output's gradient dense channels-last (convolve and
# lower_convolution_backward store them so), x dense channels-last too where the product reads it as a matrix
# (a 1x1 window with unit stride), else any View (an inference graph's image, read as the caller laid it out).

def convolution_product(g, out, x, weight, bias, stride, padding, dilation):
    """conv2d(x, weight, bias, stride, padding, dilation), channels-last: a view of the product's rows."""
    n, k, ho, wo = static_ints(out.shape)
    _, c, kh, kw = static_ints(weight.sizes)
    columns = kh * kw * c
    args = (input_windows(x, weight, stride, padding, dilation, (ho, wo)), matrix(weight, columns, k, 1, columns))
    args = args if bias is None else (bias, *args)
    rows = g.extern(FORWARD_PRODUCT if bias is None else FORWARD_PRODUCT_WITH_BIAS, args, {}, fallback=False,
                    out_strides=[integers(k, 1)], metas=out.new_empty((n * ho * wo, k)), arg_nodes=[None] * len(args))
    sizes = integers(n, k, ho, wo)
    return View(rows.buffer, sizes, channels_last_strides(sizes), rows.offset)


def convolution_backward_product(g, out, grad, x, weight, stride, padding, dilation, output_mask, strides):
    """[input, weight, bias] gradients of convolution_product, those output_mask asks for, the input's and the
    weight's with `strides` (channels-last, or contiguous where that is the same memory, as eager's are)."""
    n, k, ho, wo = static_ints(grad.sizes)
    _, c, h, w = static_ints(x.sizes)
    kh, kw = static_ints(weight.sizes)[2:]
    pixels, columns = n * ho * wo, kh * kw * c
    grad_meta = g.current_node.args[0].meta["val"]

    def product(a, b, rows, cols):
        return g.extern(BACKWARD_PRODUCT, (a, b), {}, fallback=False, out_strides=[integers(cols, 1)],
                        metas=grad_meta.new_empty((rows, cols)), arg_nodes=[None, None])
    gradients = [None, None, None]
    if output_mask[1]:
        windows = input_windows(x, weight, stride, padding, dilation, (ho, wo))
        rows = product(matrix(grad, k, pixels, 1, k), windows, k, columns)
        gradients[1] = View(rows.buffer, list(weight.sizes), strides[1], rows.offset)
    if output_mask[2]:
        gradients[2] = make_reduction(out[2], grad, [0, 2, 3], "sum", src_dtype=opmath(grad.dtype))
    if output_mask[0]:
        gradients[0] = input_gradient(g, product, grad, weight, (n, c, h, w), stride, padding, dilation, strides[0])
    return gradients


def input_gradient(g, product, grad, weight, nchw, stride, padding, dilation, strides):
    """The gradient of convolution_product's input, laid out with `strides`, given its output's gradient grad and
    product(a, b, rows, columns), the backward's matrix product."""
    n, k, ho, wo = static_ints(grad.sizes)
    _, c, h, w = nchw
    kh, kw = static_ints(weight.sizes)[2:]
    reach = [d * (size - 1) + 1 for d, size in zip(dilation, (kh, kw))]
    sizes = integers(*nchw)
    if all(s >= r for s, r in zip(stride, reach)):   # windows apart: each pixel read by one window at most
        columns = kh * kw * c
        parts = product(matrix(grad, n * ho * wo, k, k, 1), matrix(weight, k, columns, columns, 1), n * ho * wo,
                        columns)   # (each window's gradient, a row)
        if (kh, kw) == (1, 1) and list(stride) == [1, 1] and not any(padding):   # (the windows are the pixels)
            return View(parts.buffer, sizes, strides, parts.offset)
        return windows_put_back(parts, nchw, (ho, wo), (kh, kw), stride, padding, dilation, strides)
    before = [r - 1 - p for r, p in zip(reach, padding)]   # the transposed convolution's padding
    windows = window_rows(grad, (kh, kw), (1, 1), dilation, before, (h, w), spread=stride)

    def flipped(idx):   # rows (i, j, out-channel), columns the in-channels: weight[kk, ch, kh - 1 - i, kw - 1 - j]
        i, j, kk = ir.unflatten(idx[0], [kh, kw, k])
        return weight.load([kk, idx[1], kh - 1 - i, kw - 1 - j])
    weights = g.realize(Lazy(integers(kh * kw * k, c), weight.dtype, weight.device, flipped))
    rows = product(windows, weights, n * h * w, c)
    return View(rows.buffer, sizes, strides, rows.offset)


def input_windows(x, weight, stride, padding, dilation, out_hw):
    """The [pixels, kh * kw * c] windows of the convolution's input x that the product reads: gathered
    (window_rows), or x's own memory where each window is one pixel (copies_windows)."""
    n, c = static_ints(x.sizes)[:2]
    if copies_windows(weight, stride):
        return window_rows(x, static_ints(weight.sizes)[2:], stride, dilation, padding, out_hw)
    return matrix(x, n * out_hw[0] * out_hw[1], c, c, 1)


def window_rows(x, window, step, dilation, pad, out_hw, spread=(1, 1)):
    """The [n * ho * wo, kh * kw * c] windows of x [n, c, h, w]: row (b, oh, ow), column (i, j, ch) holds the
    pixel at position oh * step + i * dilation - pad along h (and so along w), in a frame where x's pixels lie
    `spread` apart (the transposed convolution's); zero where that falls before x, past it or between its pixels.
    A convolution's windows have spread 1; its input gradient's (step 1, spread = its stride) read the output
    gradient at position / stride where the position is a non-negative multiple of the stride below
    stride * the gradient's size."""
    n, c, *extents = static_ints(x.sizes)
    kh, kw = window

    def loader(idx):
        b, *outs = ir.unflatten(idx[0], [n, *out_hw])
        *taps, ch = ir.unflatten(idx[1], [kh, kw, c])
        pixel, conds = [], []
        for o, i, s, d, p, t, extent, size, count in zip(outs, taps, step, dilation, pad, spread, extents, window,
                                                         out_hw):
            # the position shifted by a multiple of the spread to be non-negative, so that // and % are exact
            shift = t * -(-p // t)
            shifted = o * s + i * d - p + shift
            if p > 0:   # (before x's first pixel)
                conds.append(ops.ge(ops.index_expr(shifted, i64), ops.constant(shift, i64)))
            if t > 1:   # (between two pixels)
                conds.append(ops.eq(ops.index_expr(ModularIndexing(shifted, 1, t), i64), ops.constant(0, i64)))
            at = FloorDiv(shifted, t) - shift // t
            if (count - 1) * s + (size - 1) * d - p > (extent - 1) * t:   # (past x's last pixel)
                conds.append(ops.lt(ops.index_expr(at, i64), ops.constant(extent, i64)))
            pixel.append(at)
        return masked_load(x, [b, ch, *pixel], conds)
    # (opcount: a load and its tests)
    return Lazy(integers(n * out_hw[0] * out_hw[1], kh * kw * c), x.dtype, x.device, loader, x.opcount + 2)


def windows_put_back(parts, nchw, out_hw, window, stride, padding, dilation, strides):
    """The input's gradient from each window's gradient (parts' rows) where no two windows overlap: each pixel is
    the element of the one window that reads it, or zero; stored with `strides`."""
    n, c, h, w = nchw

    def loader(idx):
        b, ch, *pixel = idx
        outs, taps, conds = [], [], []
        for y, s, p, d, size, count, extent in zip(pixel, stride, padding, dilation, window, out_hw, (h, w)):
            position = y + p   # (in the padded input)
            o, offset = FloorDiv(position, s), ModularIndexing(position, 1, s)   # (the window, the place in it)
            if s > d * (size - 1) + 1:   # (between two windows)
                conds.append(ops.lt(ops.index_expr(offset, i64), ops.constant(d * (size - 1) + 1, i64)))
            if d > 1:   # (between a window's taps)
                conds.append(ops.eq(ops.index_expr(ModularIndexing(offset, 1, d), i64), ops.constant(0, i64)))
            if (extent - 1 + p) // s >= count:   # (past the last window)
                conds.append(ops.lt(ops.index_expr(o, i64), ops.constant(count, i64)))
            outs.append(o)
            taps.append(FloorDiv(offset, d))
        row = ir.strided_index([b, *outs], ir.contiguous_strides([n, *out_hw]))
        column = ir.strided_index([*taps, ch], ir.contiguous_strides([*window, c]))
        return masked_load(parts, [row, column], conds)
    # (opcount: a load and its tests)
    return Lazy(integers(*nchw), parts.dtype, parts.device, loader, 3, strides=strides)


def masked_load(x, idx, conds):
    return ops.masked(all_of(conds), lambda: x.load(idx), ops.constant(0, x.dtype)) if conds else x.load(idx)


def matrix(v, rows, columns, row_step, column_step):
    """The [rows, columns] matrix that View v's memory is, with these steps."""
    return View(v.buffer, integers(rows, columns), integers(row_step, column_step), v.offset)


def integers(*values):
    return [sympy.Integer(v) for v in values]
