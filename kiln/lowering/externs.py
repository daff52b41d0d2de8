"""Library calls (matmuls, convolutions, attention, LAPACK, FFT) and the wrappers of extern results."""

import math

import sympy
import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln import ir
from kiln.ir import ops, sym
from kiln.lowering.conv_products import (convolution_backward_product, convolution_product, copies_windows,
                                         packs_rather_than_multiplies, runs_as_matmul)
from kiln.lowering import post_ops
from kiln.lowering.pointwise import opmath, pointwise_value
from kiln.lowering.pooling import unrolled_convolution
from kiln.lowering.values import (channels_last_strides, current, Lazy, LOWERINGS, OpThen, register, same_strides,
                                  static_ints, View)
from kiln.runtime.prepacked import (float32_products_exact, NO_ACTIVATION, PackedConvolution, PackedLinear,
                                    packs_weights)
from kiln.runtime.transposed_copy import copy_transposed

aten = torch.ops.aten


def unaliased(op):
    """A fallback op that returns views of its inputs (view.dtype, view_as_real, ...), returning copies
    instead, laid out as the views: the wrapper reuses a dead buffer's memory for later results, and
    must not find a live view still reading it."""
    return OpThen(op, copies, str(op))


def copies(result):
    return torch.utils._pytree.tree_map(copy_exact, result)


def copy_exact(x):
    if not isinstance(x, torch.Tensor) or x.layout != torch.strided:
        return x
    if x.is_conj() or x.is_neg():   # a lazily conjugated/negated view: the storage alone has other values
        return torch.empty_strided(x.size(), x.stride(), dtype=x.dtype, device=x.device).copy_(x)
    storage = x.untyped_storage()
    fresh = torch.empty(0, dtype=x.dtype, device=x.device)
    return fresh.set_(storage.clone() if storage.nbytes() else storage, x.storage_offset(), x.size(), x.stride())


# device types whose inference and training graphs run 2-D convolutions channels-last: cuDNN and oneDNN both run
# NHWC fastest. On the CPU, kiln's inference went 1.06-1.62x faster on the quick conv models (bench/NOTES.md 36),
# and training steps 1.1-1.4x (NOTES 52): in eager's NCHW, oneDNN's fp32 convolutions took 1.3-2.5x (forward) and
# 1.6-2.3x (backward) their NHWC time on MobileNetV2's shapes.
CHANNELS_LAST_DEVICES = {"cuda", "cpu"}


def runs_channels_last(g, out):
    """Whether a convolution with this output runs channels-last in graph g."""
    return isinstance(out, torch.Tensor) and out.device.type in CHANNELS_LAST_DEVICES and \
        (g.inference or g.saved_from is not None) and \
        out.dim() == 4 and out.dtype != torch.float64


# device types whose convolution library adds a bias in a pass of its own over the output (cuDNN: one more
# launch per convolution, 40 in a ConvNeXt). There kiln convolves without the bias and adds it in a kernel of
# its own, which fuses the add into the output's consumers (a norm, an activation, a residual add).
BIAS_ADDED_APART = {"cuda"}


@register(aten.convolution.default)
def lower_convolution(out, x, weight, bias, *args):
    if bias is None or not isinstance(out, torch.Tensor) or out.device.type not in BIAS_ADDED_APART:
        return convolve(out, x, weight, bias, *args)
    y = convolve(out, x, weight, None, *args)
    compute = opmath(out.dtype)

    def loader(idx):   # y + bias over the channels (dim 1), rounded once, as cuDNN's separate add rounds
        total = ops.add(*(v if t.dtype == compute else ops.to_dtype(v, compute, t.dtype)
                          for t, v in ((y, y.load(idx)), (bias, bias.load([idx[1]])))))
        return total if compute == out.dtype else ops.to_dtype(total, out.dtype, compute)
    return Lazy(list(y.sizes), out.dtype, out.device, loader, 1 + y.opcount + bias.opcount)


def convolve(out, x, weight, *args):
    """Inference and forward graphs run 2-D convolutions channels-last, cuDNN's and oneDNN's fast layout (cuDNN's
    NCHW kernels transpose internally). The input and weight copies fuse into their producers; consumers of the
    output write eager's layout, and activations saved for the backward keep channels-last (the forward reports
    their strides). Backward graphs keep the traced layouts.
    An inference graph reads a graph input (an image) as the caller laid it out where the output is smaller
    than it (a patch embedding): a channels-last copy would be the larger tensor, held beside cuDNN's workspace
    (DeiT's bf16 inference peaked there, 9 MiB above eager). Where the output is larger (a ResNet's stem: 5x),
    the input is copied: given NCHW, cuDNN relaid the input and its output in kernels of its own and the output's
    readers read NCHW (HF ResNet-18's bf16 stem took 540 us of GPU time, Inductor's 330). A training forward
    copies it, small beside the activations it saves: its stem's batch norm, activation and pooling then run
    channels-last, and so do their backward and the stem's own (timm ResNet-18's NCHW stem cost 1.8 ms of GPU
    time in those kernels, and cuDNN relaid its gradients)."""
    # a small convolution on the CPU is a product of its windows; else, few products an output element are a
    # kernel of kiln's on Triton targets
    as_matmul = runs_as_matmul(out.dtype, out.device, x.sizes, list(out.shape), weight, *args[1:])
    unrolled = unrolled_convolution(out, x, weight, *args) if as_matmul is None else NotImplemented
    if unrolled is not NotImplemented:
        return unrolled
    g = current()
    target = aten.convolution.default
    if not runs_channels_last(g, out):
        return g.extern(target, (x, weight, *args), {}, fallback=False)
    copies = as_matmul is not None and copies_windows(weight, as_matmul[0])
    laid_out = g.inference and reads_input_as_laid_out(x, out)   # (a product's window copy reads it so too)
    if laid_out and not copies:
        return g.extern(target, (x, weight, *args), {}, fallback=False)
    if not laid_out:
        x = g.share(g.current_node.args[0], x, g.realize_strided(x, channels_last_strides(x.sizes)))
    # (a frozen weight's packed call is as fast as the product where the product must first copy the windows:
    # ResNet's frozen downsampling convolutions, bench/NOTES.md 67; and faster where the weight is large, 108)
    packed = None if laid_out else \
        packed_convolution(g, out, x, weight, *args, multiplies=as_matmul is not None and not copies)
    if packed is not None:
        return packed
    # the weight too: cuDNN would otherwise relayout it in a copy kernel of its own on every call (and a product
    # reads it as rows of kh x kw x in-channels)
    weight = g.share(g.current_node.args[1], weight, g.realize_strided(weight, channels_last_strides(weight.sizes)))
    if as_matmul is not None:
        return convolution_product(g, out, x, weight, args[0], *as_matmul)
    # cuDNN picks channels-last output for a channels-last input; `contiguous` makes sure (a no-op when it did)
    channels_last = OpThen(target, in_channels_last, f"{target} (channels-last)")
    return g.extern(channels_last, (x, weight, *args), {}, fallback=False,
                    out_strides=[channels_last_strides([sym(s) for s in out.shape])])


def packed_convolution(g, out, x, weight, bias, stride, padding, dilation, transposed, output_padding, groups,
                       multiplies):
    """An inference graph's convolution of a frozen weight, as a PackedConvolution (the weight in oneDNN's layout,
    made now) where the device and dtype have one (prepacked.packs_weights) and the sizes are static, and where its
    product would not multiply the input's own rows (`multiplies`) or the weight is large enough for oneDNN's call
    (packs_rather_than_multiplies); else None. A 1x1 convolution without stride, padding or groups is a
    PackedLinear over the pixels' rows (channels-last, x's own memory): at the same sizes, oneDNN's linear took
    0.63-1.0x its convolution's time, ~10 us less a call (bench/results/s79/pointwise_conv_grid.txt). An activation
    alone reading the output is applied in the call (post_ops). (oneDNN could apply a relu or hardtanh too, as
    Inductor's CPU freezing has it do, but its relu makes a NaN 0 and its hardtanh makes it the lower bound, where
    eager's keep the NaN: not done.)"""
    frozen = g.frozen_view(weight)
    sizes, conv_args = static_ints(x.sizes), [static_ints(a) for a in (stride, padding, dilation)]
    if not g.inference or transposed or frozen is None or sizes is None or None in conv_args or \
            not isinstance(groups, int) or not packs_weights(out.device, out.dtype):
        return None
    post = post_ops.post_op(g.current_node)
    if multiplies and not packs_rather_than_multiplies(weight, post is not None):
        return None
    activation = post.activation if post is not None else NO_ACTIVATION
    n, c, h, w = sizes
    k = static_ints(weight.sizes)[0]
    pointwise = static_ints(weight.sizes)[2:] == (1, 1) and groups == 1 and \
        all(list(a) == [v, v] for a, v in zip(conv_args[:2], (1, 0)))
    with unset_fake_temporarily():
        if pointwise:
            matrix = View(weight.buffer, [weight.sizes[1], weight.sizes[0]], [weight.strides[1], weight.strides[0]],
                          weight.offset)
            frozen_matrix = g.frozen_view(matrix)
            call = PackedLinear(frozen_matrix, n * h * w, activation)
            tried = call.tried(frozen_matrix, bias is not None)
        else:
            matrix = weight
            call = PackedConvolution(frozen, *(list(a) for a in conv_args), groups, list(sizes), activation)
            tried = call.tried(frozen, bias is not None, list(out.shape))
    if not tried:
        return None
    g.made_from_frozen(matrix, call.pack, "packed")
    post_ops.apply(g, post)
    if bias is not None:   # (oneDNN reads the bias as dense: a column of a matrix, an expanded scalar, would not be)
        bias = g.share(g.current_node.args[2], bias, g.realize_strided(bias, [sympy.Integer(1)]))
    out_sizes = [sym(s) for s in out.shape]
    if not pointwise:
        return g.extern(call, (x, bias), {}, fallback=False, out_strides=[channels_last_strides(out_sizes)])
    # (x is dense channels-last: convolve stored it so)
    pixels = View(x.buffer, [sympy.Integer(n * h * w), sympy.Integer(c)], [sympy.Integer(c), sympy.Integer(1)],
                  x.offset)
    rows = g.extern(call, (pixels, bias), {}, fallback=False, arg_nodes=(None, g.current_node.args[2]),
                    metas=out.new_empty((n * h * w, k)), out_strides=[[sympy.Integer(k), sympy.Integer(1)]])
    return View(rows.buffer, out_sizes, channels_last_strides(out_sizes), rows.offset)


def reads_input_as_laid_out(x, out):
    """Whether an inference graph's convolution reads x, a graph input not channels-last, as the caller laid it out:
    where its output has fewer elements than x, or either's size is not known."""
    if not isinstance(x, View) or not isinstance(x.buffer, ir.InputBuffer) or \
            same_strides(x.strides, channels_last_strides(x.sizes), x.sizes):
        return False
    n = ir.static_numel(x.sizes)
    return n is None or not all(isinstance(s, int) for s in out.shape) or out.numel() < n


def in_channels_last(y):
    return y.contiguous(memory_format=torch.channels_last)


@register(aten.convolution_backward.default)
def lower_convolution_backward(out, grad, x, weight, *args):
    """A backward graph's convolution whose forward ran channels-last (its saved input is): the gradient and the
    weight are passed channels-last too, and the gradients come back so. Given the traced NCHW gradient, cuDNN
    relaid it and the weight into NHWC and its results back, in copy kernels of its own: 110 launches and 1.1 ms
    of timm ResNet-18's fp32 training step on an H100, where Inductor's took 0.1. The gradient's copy fuses
    into its producer (a batch norm's or an activation's backward). A saved input that is the user's image
    (which the forward copied to channels-last) is copied again."""
    g = current()
    target = aten.convolution_backward.default
    if g.inference or g.saved_from is not None or not runs_channels_last_backward(x):
        return g.extern(target, (grad, x, weight, *args), {}, fallback=False)
    grad, x, weight = (g.share(fx, v, g.realize_strided(v, channels_last_strides(v.sizes)))
                       for fx, v in zip(g.current_node.args[:3], (grad, x, weight)))
    strides = [gradient_strides([sym(s) for s in m.shape]) if isinstance(m, torch.Tensor) and m.dim() == 4 else
               None if m is None else [sym(s) for s in m.stride()] for m in out]
    as_matmul = runs_as_matmul(grad.dtype, grad.device, x.sizes, list(grad.sizes), weight, *args[1:])
    if as_matmul is not None:
        return convolution_backward_product(g, out, grad, x, weight, *as_matmul, args[-1], strides)
    return g.extern(OpThen(target, gradients_in_channels_last, f"{target} (channels-last)"), (grad, x, weight, *args),
                    {}, fallback=False, out_strides=strides)


def runs_channels_last_backward(x):
    """Whether a backward graph's convolution with this saved input runs channels-last: its forward did, as every
    4-D convolution of a training forward does on such a device."""
    return isinstance(x, View) and len(x.sizes) == 4 and x.dtype != torch.float64 and \
        x.device.type in CHANNELS_LAST_DEVICES


def gradient_strides(sizes):
    """Channels-last strides, or contiguous ones where both lay out the same memory (a 1x1 convolution's weight):
    a gradient leaves the graph with its parameter's strides (DDP's buckets compare them, size-1 dims too)."""
    strides = channels_last_strides(sizes)
    contiguous = ir.contiguous_strides(sizes)
    return contiguous if same_strides(strides, contiguous, sizes) else strides


def gradients_in_channels_last(grads):
    """Run by the wrapper at every call: plain tensor checks, none of gradient_strides' symbolic work (20 us a
    convolution, on training steps bound by the host)."""
    return tuple(in_parameter_strides(t.contiguous(memory_format=torch.channels_last))
                 if isinstance(t, torch.Tensor) and t.dim() == 4 else t for t in grads)


def in_parameter_strides(y):
    """y (channels-last) with contiguous strides where they lay out the same memory, as gradient_strides reports."""
    if not y.is_contiguous():
        return y
    strides, step = [], 1
    for size in reversed(y.shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return y.as_strided(y.shape, strides)


# Library calls, like the matmuls: vendor libraries (BLAS, cuDNN, LAPACK, FFT) that no compiler generates
# code for. Unlike fallbacks, they are the intended implementation, so they are neither logged nor counted.
EXTERNS = {
    "matmul": ["mm", "addmm", "bmm", "baddbmm"],
    "convolution": ["convolution_backward"],
    "attention": ["_scaled_dot_product_flash_attention", "_scaled_dot_product_efficient_attention",
                  "_scaled_dot_product_cudnn_attention", "_scaled_dot_product_flash_attention_for_cpu",
                  "_scaled_dot_product_flash_attention_for_cpu_backward",
                  "_scaled_dot_product_flash_attention_backward", "_scaled_dot_product_efficient_attention_backward",
                  "_scaled_dot_product_cudnn_attention_backward"],
    "LAPACK": ["_linalg_svd", "_linalg_eigh", "linalg_eig", "linalg_qr", "geqrf", "ormqr",
               "linalg_householder_product", "linalg_cholesky_ex", "cholesky", "cholesky_solve", "cholesky_inverse",
               "linalg_lu", "linalg_lu_factor_ex", "linalg_lu_solve", "_linalg_solve_ex", "linalg_solve_triangular",
               "triangular_solve", "linalg_inv_ex", "_linalg_det", "_linalg_slogdet", "linalg_ldl_factor_ex",
               "linalg_ldl_solve", "linalg_pinv.atol_rtol_tensor", "_linalg_check_errors"],
    "FFT": ["_fft_r2c", "_fft_c2c", "_fft_c2r"],
}


def _overload(name):
    packet, _, overload = name.partition(".")
    return getattr(getattr(aten, packet), overload or "default")


LIBRARY_CALLS = {_overload(name) for names in EXTERNS.values() for name in names
                 if hasattr(aten, name.partition(".")[0])}
for _target in LIBRARY_CALLS - set(LOWERINGS):   # (those with a lowering of their own keep it)
    LOWERINGS[_target] = (lambda t: lambda out, *args, **kwargs: current().extern(t, args, kwargs, fallback=False))(
        _target)


# Devices whose matmul libraries run a product with misaligned output rows slowly. cuBLAS picks its align-1
# kernels when a row of the output is not a multiple of 16 bytes: GPT-2's logits (50257 words of bf16) took
# 426 us at batch 1 on an H200, where the same product written transposed took 64 us. Only for outputs of at
# least TRANSPOSED_FROM elements: the blocks' 8 launches took HF ResNet's 2-class head (32 x 2) 600 us of host
# time at the end of a 1.6 ms inference step, where an align-1 kernel of that size takes a few us.
# Only for 16-bit outputs, whose fast kernels are tensor-core ones: float32's align-1 kernels ran faster than the
# blocks transposed (on an H200, BERT's, GPT-2's and DeBERTa-v2's heads 3.8, 6.3 and 16.0 ms written directly
# against 4.6, 7.2 and 18.4 in blocks; bench/results/s43/c4).
TRANSPOSED_MATMUL_DEVICES = {"cuda"}
TRANSPOSED_MATMUL_DTYPES = {torch.bfloat16, torch.float16}
TRANSPOSED_FROM = 1 << 22
ALIGNMENT_BYTES = 16
LAST_ROWS_FRACTION = 64   # an aligned-rows product's last rows, computed in memory of their own: 1/64 of them, ...
LAST_ROWS = 64            # ... or this many, where a smaller block would read B once more for too little work,
LAST_ROWS_COLUMN_BLOCKS = 4   # in this many blocks of columns (DeBERTa-v2's logits: 3.9 MiB beside 1001, not 15.6)
# The blocks add a transposed copy of the output (m x n) to the library's product; kiln's Triton matmul (in its tile
# TILE) stores the misaligned rows directly and trails cuBLAS's product (m x n x k) by ~15-30% where the product is
# large. So the tile runs where the contraction is short or the rows few, where the blocks' copy and fixed costs
# weigh most. On an H200 (bench/results/s53, s52_head_tiles.py), bf16, us, blocks / tile: GPT-2's 50257 words at k
# = 768, 128 rows 228 / 35, 1024 rows 466 / 167, 8192 rows 1615 / 1475; 30522 words, 4096 rows 545 / 399; 50265
# words at k = 1024, 4096 rows 1005 / 835; at k = 1536 (128100 words) 512 rows 601 / 381, 4096 rows 3189 / 3378;
# at k = 4096 (32001 words) 512 rows 364 / 233, 2048 rows 951 / 999.
TILE = (128, 128, 64, 3, 4)   # (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps): the fastest of 7 on most of those shapes
TILE_UP_TO = 1024             # rows of the output, or the contraction's length


# Devices whose matmul libraries read a matrix with misaligned rows (its unit-stride dim's extent not a multiple of 16
# bytes) with slower kernels: on an H100, cuBLAS took 6.5 ms for the product of DeBERTa-v2's [4096, 128100] logits'
# gradient with its word embeddings, and 3.3 ms for its transpose's with the hidden states, in align-2 kernels, even
# with the rows padded to 16 bytes (the 128100-long contraction stays misaligned); with the gradient stored
# column-major (the 4096 rows' dim unit-stride), 2.0 and 2.1 ms (GPT-2's 50257 words: 2.6 and 0.65 ms, 0.40 and
# 0.40; bench/NOTES.md 54). There a matrix that kiln computes for a matmul, of at least PADDED_FROM elements, is
# stored with its next dim unit-stride instead where that dim's extent is aligned, else with its rows padded. A gap
# is never written, so only devices whose libraries never read one belong here (oneDNN's bfloat16 products on the
# CPU read them).
PADDED_ROWS_DEVICES = {"cuda"}
PADDED_FROM = 1 << 20
MATMULS = {aten.mm.default: (0, 1), aten.addmm.default: (1, 2), aten.bmm.default: (0, 1),
           aten.baddbmm.default: (1, 2)}   # -> the positions of the matrices
TRANSPOSES = (aten.t.default, aten.permute.default, aten.transpose.int)


def feeds_matmul(n):
    """Whether fx node n is a matrix of a matmul, itself or transposed."""
    return any(u.target in MATMULS and any(u.args[i] is n for i in MATMULS[u.target] if i < len(u.args)) or
               u.target in TRANSPOSES and feeds_matmul(u) for u in n.users)


def aligned_layout(strides, sizes, dtype, device, matrix_dims=None):
    """Dense strides for a matmul's matrix on a device of PADDED_ROWS_DEVICES whose unit-stride dim's extent is
    not a multiple of ALIGNMENT_BYTES: where matrix_dims (the dims the matmul reads as its matrix's rows and
    columns) are the unit-stride dim and the next, the next made unit-stride if its extent is a multiple (a batched
    matrix stays batched), else the unit-stride dim's extent padded. (Made unit-stride, a batch dim or a dim the
    matmul sees as a batch would leave the matrix with no unit-stride dim, which ATen copies for cuBLAS at every
    call: a [B*H, 1, S] attention row of one query, a [L, B*H, d] projection transposed into bmm.) None where the
    layout is aligned already, the matrix small, its sizes symbolic or its layout not dense (one someone chose,
    kept)."""
    ss, ns = static_ints(strides or []), static_ints(sizes)
    if device.type not in PADDED_ROWS_DEVICES or ss is None or ns is None or len(ns) < 2 or len(ss) != len(ns) or \
            math.prod(ns) < PADDED_FROM or dtype.itemsize >= ALIGNMENT_BYTES:
        return None
    live = sorted((d for d in range(len(ns)) if ns[d] != 1), key=lambda d: ss[d])
    align = ALIGNMENT_BYTES // dtype.itemsize
    if not live or ss[live[0]] != 1 or ns[live[0]] % align == 0 or \
            any(ss[d] != math.prod(ns[e] for e in live[:k]) for k, d in enumerate(live)):
        return None
    layout = list(ss)
    if matrix_dims is not None and set(live[:2]) == set(matrix_dims) and ns[live[1]] % align == 0:   # they trade
        layout[live[1]], layout[live[0]] = 1, ns[live[1]]
        return [sympy.Integer(st) for st in layout]
    padded = -(-ns[live[0]] // align) * align
    for d in live[1:]:
        layout[d] = ss[d] // ns[live[0]] * padded
    return [sympy.Integer(st) for st in layout]


@register(aten.mm.default)
def lower_mm(out, a, b):
    packed = packed_product(out, a, b, None)
    if packed is not None:
        return packed
    if rows_misaligned(out):
        return current().extern(misaligned_rows_product(aten.mm.default, out, a), (a, b), {}, fallback=False)
    return current().extern(aten.mm.default, (a, b), {}, fallback=False)


@register(aten.addmm.default)
def lower_addmm(out, bias, a, b, **scales):
    """A product with a bias over its columns. With misaligned rows (a language model's head: DeBERTa's 128100
    words, DistilBERT's 30522), as misaligned_rows_product says. Read by
    elementwise ops alone, on a device of UNFUSED_BIAS_DEVICES, a product whose bias those ops add as they read it
    (bias_added_by_users)."""
    g = current()
    column_bias = all(v == 1 for v in scales.values()) and len(getattr(bias, "sizes", ())) == 1 and \
        ir.expand(bias.sizes[0] - out.shape[1]) == 0
    packed = packed_product(out, a, b, bias) if column_bias else None
    if packed is not None:
        return packed
    if rows_misaligned(out) and column_bias:
        return g.extern(misaligned_rows_product(aten.addmm.default, out, a), (bias, a, b), {}, fallback=False)
    if column_bias and (out.device.type, out.dtype) in UNFUSED_BIAS_DEVICES and bias_added_by_users(g.current_node):
        product = g.extern(aten.mm.default, (a, b), {}, fallback=False, arg_nodes=g.current_node.args[1:3])
        return pointwise_value(out, ops.add, product, bias)
    return g.extern(aten.addmm.default, (bias, a, b), scales, fallback=False)


def packed_product(out, a, matrix, bias):
    """An inference graph's product a @ matrix (+ bias over its columns) where matrix is a view of a frozen
    constant large enough (conv_products.packs_rather_than_multiplies), as a PackedLinear (the matrix in oneDNN's
    layout, made now), on a device and dtype that packs weights, at float32 precision
    (prepacked.float32_products_exact: otherwise oneDNN computes in bf16 or tf32), with static sizes; else None.
    A conv net's classifier head (timm ConvNeXt's 320 x 1000: 154 us a call as MKL's product, Inductor's packed one
    104) and a transformer's projections. An activation alone reading the output is applied in the call
    (post_ops)."""
    g = current()
    frozen = g.frozen_view(matrix)
    rows = static_ints(a.sizes)
    if not g.inference or frozen is None or rows is None or not packs_weights(out.device, out.dtype) or \
            not float32_products_exact():
        return None
    post = post_ops.post_op(g.current_node)
    if not packs_rather_than_multiplies(matrix, post is not None):
        return None
    with unset_fake_temporarily():
        linear = PackedLinear(frozen, rows[0], post.activation if post is not None else NO_ACTIVATION)
        if not linear.tried(frozen, bias is not None):
            return None
    g.made_from_frozen(matrix, linear.pack, "packed")
    post_ops.apply(g, post)
    node = g.current_node
    fx_a, fx_bias = (node.args[0], None) if bias is None else (node.args[1], node.args[0])
    if bias is not None:   # (oneDNN reads the bias as dense, as packed_convolution's)
        bias = g.share(fx_bias, bias, g.realize_strided(bias, [sympy.Integer(1)]))
    return g.extern(linear, (a, bias), {}, fallback=False, arg_nodes=(fx_a, fx_bias),
                    out_strides=[[sym(out.shape[1]), sympy.Integer(1)]])


# Devices and dtypes whose library runs a product with a bias epilogue in slower kernels than the product alone.
# cuBLASLt's float32 addmm picked 64x64 tiles where cuBLAS's mm picked 128x128 on an H200: BERT's [4096, 3072] x
# [3072, 768] took 497 us a layer against 413 (bench/results/s46, call 1). Where every user of the product is
# elementwise, the bias is added in their kernels, which read the product anyway: no pass of its own.
UNFUSED_BIAS_DEVICES = {("cuda", torch.float32)}
VIEWS = (aten.view.default, aten._unsafe_view.default, aten.reshape.default)


def bias_added_by_users(n):
    """Whether every user of fx node n (through reshapes) is an elementwise op that kiln lowers (one run eagerly
    would read the sum stored), and the graph does not return n: then adding a bias in n's users costs no pass over
    n's value (a training forward that saves n for its backward would store it with the bias added, in a pass of
    its own)."""
    def lowered_elementwise(target):
        return torch.Tag.pointwise in getattr(target, "tags", ()) and \
            (target in LOWERINGS or getattr(target, "overloadpacket", None) in LOWERINGS)
    return bool(n.users) and all(u.op == "call_function" and (
        bias_added_by_users(u) if u.target in VIEWS else lowered_elementwise(u.target)) for u in n.users)


def misaligned_rows_product(op, out, a):
    """What computes a product (mm, or addmm with a bias over its columns) whose output rows rows_misaligned says
    the library runs slowly: kiln's Triton matmul, whose tiles store those rows directly, where it applies (16-bit,
    on CUDA) and its matrix A has at most TILE_UP_TO rows or columns; else kiln's aligned-rows blocks, the bias
    added as they are copied back."""
    from kiln.runtime import matmul
    k = static_ints([a.sizes[1]])
    if matmul.applies(op, [out], {}) and (out.shape[0] <= TILE_UP_TO or k is not None and k[0] <= TILE_UP_TO):
        return matmul.TritonMatmul(matmul.OPS[op], TILE)
    blocks = aligned_rows_mm if op == aten.mm.default else aligned_rows_addmm
    return OpThen(blocks, None, f"{op} (aligned rows: kiln.lowering.externs.{blocks.__name__})")


def rows_misaligned(out):
    """Whether a matmul output's rows are misaligned for its device's library and its columns would not be."""
    if not isinstance(out, torch.Tensor) or out.device.type not in TRANSPOSED_MATMUL_DEVICES or out.dim() != 2 or \
            out.dtype not in TRANSPOSED_MATMUL_DTYPES or not all(isinstance(n, int) for n in out.shape):
        return False
    m, n = out.shape
    return m > 1 and n > 1 and m * n >= TRANSPOSED_FROM and (n * out.dtype.itemsize) % ALIGNMENT_BYTES != 0 and \
        (m * out.dtype.itemsize) % ALIGNMENT_BYTES == 0


def aligned_rows_addmm(bias, a, b):   # (addmm's argument order: the extern pairs them with the traced node's)
    return aligned_rows_mm(a, b, bias)


def aligned_rows_mm(a, b, bias=None):
    """A @ B (+ bias over the columns) laid out row-major, for an output whose rows are misaligned and whose
    columns are not: each block of rows is computed transposed, B^T A_block^T, whose rows (a block's columns)
    are aligned, then copied into the output transposed, the bias added on the way (by a tiled kernel:
    kiln.runtime.transposed_copy; a library's addmm of the transposed block broadcasts the bias down its
    columns, which ran slower than its align-1 kernels on DistilBERT's 30522-word head). A block's transposed
    product is written into the output's own memory, over the rows after the block, not written yet: so a block
    is at most half the rows left (2048, 1024, ... of 4096). Only the last rows (1/LAST_ROWS_FRACTION of the
    output, or LAST_ROWS rows) take memory of their own, a block of their columns at a time: 1/256 of the output.
    (With a quarter of the rows in memory of their own, BERT's 30522-word logits peaked at 304.5 MiB against
    eager's 250.5.)"""
    m, n = a.shape[0], b.shape[1]
    out = torch.empty((m, n), dtype=a.dtype, device=a.device)
    align = max(1, ALIGNMENT_BYTES // a.dtype.itemsize)
    last_rows = max(LAST_ROWS, m // LAST_ROWS_FRACTION)
    flat, start = out.view(-1), 0
    while m - start > last_rows:
        rows = (m - start) // 2 // align * align   # (a multiple of align: each block's product starts aligned)
        if rows == 0:
            break
        after = flat[(start + rows) * n:(start + 2 * rows) * n].view(n, rows)
        copy_transposed(out[start:start + rows], torch.mm(b.t(), a[start:start + rows].t(), out=after).t(), bias)
        start += rows
    columns = -(-n // LAST_ROWS_COLUMN_BLOCKS // align) * align
    for j in range(0, n, columns):   # the last rows
        product = torch.mm(b.t()[j:j + columns], a[start:].t())
        copy_transposed(out[start:, j:j + columns], product.t(), None if bias is None else bias[j:j + columns])
        del product   # (before the next block's is allocated)
    return out

