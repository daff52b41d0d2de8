"""Library calls with a frozen operand in the library's own layout, made once (options={"freezing": True})."""
import functools
from typing import Callable, NamedTuple

import torch
import torch.nn.functional as F
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln.runtime.graph_cache import matmul_precisions


class Activation(NamedTuple):
    """An activation oneDNN applies as it writes a call's output (a post-op: kiln.lowering.post_ops): its name,
    scalars and algorithm in oneDNN's fusion API, and eager's op computing the same values (`tried` compares)."""
    attr: str
    scalars: tuple
    algorithm: str
    eager: Callable


NO_ACTIVATION = Activation("none", (), None, lambda y: y)
# the activations kiln has oneDNN apply, where agrees_with_eager (its ReLU and hardtanh would not)
ACTIVATIONS = (Activation("gelu", (), "none", F.gelu),
               Activation("gelu", (), "tanh", functools.partial(F.gelu, approximate="tanh")),
               Activation("swish", (1.0,), None, F.silu),
               Activation("hardswish", (), None, F.hardswish))
# where they are checked: NaN, infinities, zeros, subnormals, large values, around the bends
SPECIAL_VALUES = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1e-40, -1e-40, 1e30, -1e30, 88.7, -88.7,
                  -104.0, 3.0, -3.0, 10.0, -10.0, 0.5, -0.5, 1.0, -1.0]


@functools.cache
def agrees_with_eager(activation):
    """Whether oneDNN's post-op computes activation.eager's values, NaN and infinities included, on SPECIAL_VALUES:
    applied to the columns of a product of zeros with those values as its bias. (oneDNN's ReLU makes a NaN 0.)
    Eager's own kernels differ at some of these: its GELU of +inf is NaN in its vectorized loop and +inf in its
    scalar one (which a channels-last tensor's GELU may take), where oneDNN's is NaN. So a value passes where it is
    what either loop gives: the values' vector's, or each value's alone. Asked while lowering: real tensors,
    outside the trace's fake ones."""
    if not torch.backends.mkldnn.is_available():
        return False
    with unset_fake_temporarily():
        values = torch.tensor(SPECIAL_VALUES)
        weight = torch.ops.mkldnn._reorder_linear_weight(torch.zeros(len(values), 4), 2)
        try:
            y = torch.ops.mkldnn._linear_pointwise(torch.ones(2, 4), weight, values, *activation[:3])[0]
        except RuntimeError:
            return False
        vectorized, scalar = activation.eager(values), torch.cat([activation.eager(v[None]) for v in values])
        return bool((same_value(y, vectorized) | same_value(y, scalar)).all())


def same_value(y, expected):
    return (y == expected) | (y.isnan() & expected.isnan()) | ((y - expected).abs() <= 1e-6 * expected.abs() + 1e-30)


class PackedConvolution:
    """A 2-D convolution on the CPU through oneDNN, its weight reordered once into oneDNN's blocked layout for
    these input sizes. ATen's convolution makes that layout again at every call: ~20 us of a 30-60 us call at the
    quick conv nets' sizes (bench/NOTES.md 65). Called by the wrapper with the (channels-last) input and the bias; returns
    the output channels-last. `pack` makes the weight again from the frozen one (a refresh, kiln.freezing)."""

    def __init__(self, weight, stride, padding, dilation, groups, input_sizes, activation=NO_ACTIVATION):
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        self.input_sizes, self.activation = input_sizes, activation
        self.pack(weight)

    def pack(self, weight):
        self.weight = torch.ops.mkldnn._reorder_convolution_weight(
            weight.contiguous(), self.padding, self.stride, self.dilation, self.groups, self.input_sizes)

    def __call__(self, x, bias):
        y = torch.ops.mkldnn._convolution_pointwise(x, self.weight, bias, self.padding, self.stride, self.dilation,
                                                    self.groups, *self.activation[:3])
        return y.contiguous(memory_format=torch.channels_last)   # (a no-op: oneDNN's output for NHWC input is NHWC)

    def tried(self, weight, biased, out_sizes):
        """Whether oneDNN runs this call and returns what ATen's convolution of weight returns (on a random input of
        these sizes, with a bias or not), channels-last: checked once, when the graph is lowered, so that a call
        oneDNN refuses or computes otherwise is an ordinary convolution rather than an error or a wrong answer at
        the user's call. (With one channel, oneDNN's packed convolution read outside its input.)"""
        g = torch.Generator().manual_seed(0)
        x = torch.randn(self.input_sizes, generator=g)
        bias = torch.randn(out_sizes[1], generator=g) if biased else None
        try:
            y = self(x.contiguous(memory_format=torch.channels_last), bias)
        except RuntimeError:
            return False
        expected = self.activation.eager(
            torch.convolution(x, weight, bias, self.stride, self.padding, self.dilation, False, [0, 0], self.groups))
        return y.is_contiguous(memory_format=torch.channels_last) and close(y, expected)

    def __repr__(self):
        return f"mkldnn._convolution_pointwise (weight packed once{applies(self.activation)})"


class PackedLinear:
    """A product of a matrix and a frozen one on the CPU through oneDNN, the frozen matrix [K, N] reordered once into
    oneDNN's layout for products of `rows` rows. MKL's sgemm, which ATen and kiln's C++ call, packs both matrices
    at every call; on the 2-core CPU (AMD) oneDNN's product of a packed 1 MiB-9 MiB weight took 0.40-0.67x MKL's
    time (bench/results/s78/linear_packed_micro.txt). Called by the wrapper with the other matrix (any layout: oneDNN
    makes it dense) and the bias (dense: oneDNN reads it so, lowering copies it); `pack` makes the weight again from
    the frozen one (a refresh, kiln.freezing)."""

    def __init__(self, matrix, rows, activation=NO_ACTIVATION):
        self.rows, self.activation = rows, activation
        self.pack(matrix)

    def pack(self, matrix):
        self.weight = torch.ops.mkldnn._reorder_linear_weight(matrix.t().contiguous(), self.rows)

    def __call__(self, x, bias):
        return torch.ops.mkldnn._linear_pointwise(x, self.weight, bias, *self.activation[:3])

    def tried(self, matrix, biased):
        """Whether oneDNN runs this product and returns what ATen's does, checked once while lowering (as
        PackedConvolution.tried)."""
        g = torch.Generator().manual_seed(0)
        x = torch.randn(self.rows, matrix.shape[0], generator=g)
        bias = torch.randn(matrix.shape[1], generator=g) if biased else None
        try:
            y = self(x, bias)
        except RuntimeError:
            return False
        expected = self.activation.eager(x @ matrix if bias is None else torch.addmm(bias, x, matrix))
        return y.is_contiguous() and close(y, expected)

    def __repr__(self):
        return f"mkldnn._linear_pointwise (weight packed once{applies(self.activation)})"


def applies(activation):
    """How a packed call's comment in the wrapper names the activation it applies."""
    if activation is NO_ACTIVATION:
        return ""
    return f", {activation.attr}{'' if activation.algorithm in (None, 'none') else f' ({activation.algorithm})'} applied"


def close(y, expected):
    """Whether a packed call's result y on a random input is ATen's, up to float32 rounding in another order."""
    return y.shape == expected.shape and \
        (y.numel() == 0 or bool((y - expected).abs().max() <= 1e-3 * (1 + expected.abs().max())))


def float32_products_exact():
    """Whether CPU libraries compute float32 products in float32, not in bf16 or tf32: torch's matmul precision
    "highest", or, where the caller set it through the newer per-backend API (then the older one raises), oneDNN's
    fp32_precision "none" or "ieee"."""
    legacy, onednn, _ = matmul_precisions()
    return legacy == "highest" if legacy is not None else onednn in ("none", "ieee")


def packs_weights(device, dtype):
    """Whether a frozen convolution or product on device in dtype runs as a PackedConvolution or PackedLinear."""
    return device.type == "cpu" and dtype == torch.float32 and torch.backends.mkldnn.is_available()
