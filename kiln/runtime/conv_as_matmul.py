"""A small 2-D convolution (one group) run as a matrix product, forward and backward, on channels-last tensors:
the wrapper calls these where lowering.externs.runs_as_matmul chose them.

Channels-last, a convolution is the product of its windows (one row per output pixel: the kh x kw x in-channels
values it reads) with the weight's rows (kh x kw x in-channels each), and the product's rows are the output's
channels-last memory. A 1x1 window with unit stride and no padding is the input's own memory, a view; other
windows are copied into a matrix, by one as_strided view of the input (zero-padded first where the convolution
pads). The product's rows become the output by one as_strided call, where a reshape and a permute would be two:
these run at every call of small convolutions, where each torch call's ~1 us counts. Module-level functions, so
that the graph cache can store the wrapper's scope.

The input's gradient: where no two windows overlap (1x1, a patch embedding), the product of the output gradient's
rows with the weight is each window's gradient, copied into place; where they overlap, it is the transposed
convolution: the windows of the output gradient (with stride - 1 zeros between its pixels, padded by the window's
reach less the convolution's padding) times the weight flipped, its in and out channels swapped."""

import torch
import torch.nn.functional as F


def _nhwc(x):
    """Channels-last x [n, c, h, w] as the [n, h, w, c] tensor its memory is (a view)."""
    return x.permute(0, 2, 3, 1)


def _channels_last(rows, n, h, w):
    """Rows of channels, one per pixel, as the [n, channels, h, w] channels-last tensor they are."""
    c = rows.shape[1]
    return rows.as_strided((n, c, h, w), (h * w * c, 1, w * c, c))


def _window_view(xn, size, stride, dilation, out_hw):
    """The [n, ho, wo, kh, kw, c] windows of [n, h, w, c] xn (dense, channels innermost), a view."""
    n, _, _, c = xn.shape
    s0, s1, s2, s3 = xn.stride()
    return xn.as_strided((n, *out_hw, *size, c), (s0, stride[0] * s1, stride[1] * s2, dilation[0] * s1,
                                                   dilation[1] * s2, s3))


def _windows(xn, size, stride, dilation, pads=(0, 0, 0, 0)):
    """([n * ho * wo, kh * kw * c] windows, (ho, wo)) of [n, h, w, c] xn zero-padded by pads (top, bottom, left,
    right): a view where each window is one pixel of xn's memory, else a copy."""
    top, bottom, left, right = pads
    if any(pads):
        xn = F.pad(xn, (0, 0, left, right, top, bottom))
    n, h, w, c = xn.shape
    out_hw = [(extent - d * (k - 1) - 1) // s + 1 for extent, k, s, d in zip((h, w), size, stride, dilation)]
    windows = _window_view(xn, size, stride, dilation, out_hw)
    return windows.reshape(n * out_hw[0] * out_hw[1], size[0] * size[1] * c), out_hw


def _both_sides(padding):
    """(top, bottom, left, right) pads of a convolution's padding of both sides."""
    return padding[0], padding[0], padding[1], padding[1]


def _weight_rows(weight):
    """The [k, kh * kw * c] rows of a [k, c, kh, kw] weight, in the windows' order (a view where channels-last)."""
    k, c, kh, kw = weight.shape
    return _nhwc(weight).reshape(k, kh * kw * c)


def convolution_as_matmul(x, weight, bias, stride, padding, dilation):
    """conv2d(x, weight, bias, stride, padding, dilation) of channels-last x, its result channels-last."""
    windows, (h, w) = _windows(_nhwc(x), weight.shape[2:], stride, dilation, _both_sides(padding))
    matrix = _weight_rows(weight).t()
    return _channels_last(torch.mm(windows, matrix) if bias is None else torch.addmm(bias, windows, matrix),
                          x.shape[0], h, w)


def convolution_backward_as_matmul(grad, x, weight, stride, padding, dilation, output_mask):
    """convolution_backward's (input, weight, bias) gradients of convolution_as_matmul, those output_mask asks for:
    the input's and the weight's channels-last."""
    n, k, h, w = grad.shape
    rows = _nhwc(grad).reshape(n * h * w, k)   # (a view: grad is channels-last)
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        grad_input = _input_gradient(rows, grad, x, weight, stride, padding, dilation)
    if output_mask[1]:
        windows, _ = _windows(_nhwc(x), weight.shape[2:], stride, dilation, _both_sides(padding))
        kh, kw = weight.shape[2:]
        grad_weight = torch.mm(rows.t(), windows).view(k, kh, kw, x.shape[1]).permute(0, 3, 1, 2)
    if output_mask[2]:
        grad_bias = rows.sum(0)
    return grad_input, grad_weight, grad_bias


def _input_gradient(rows, grad, x, weight, stride, padding, dilation):
    """The channels-last gradient of convolution_as_matmul's input x, given its output gradient's rows."""
    n, c, h, w = x.shape
    k, _, kh, kw = weight.shape
    reach = [d * (size - 1) + 1 for d, size in zip(dilation, (kh, kw))]
    if all(s >= r for s, r in zip(stride, reach)):   # windows apart: each pixel read by one window at most
        parts = torch.mm(rows, _weight_rows(weight))   # (each window's gradient, a row)
        if (kh, kw) == (1, 1) and tuple(stride) == (1, 1) and not any(padding):
            return _channels_last(parts, n, h, w)
        padded = (h + 2 * padding[0], w + 2 * padding[1])
        full = x.new_zeros((n, *padded, c))   # (zeros at pixels no window reads)
        out_hw = grad.shape[2:]
        _window_view(full, (kh, kw), stride, dilation, out_hw).copy_(parts.view(n, *out_hw, kh, kw, c))
        if any(padding):
            full = full[:, padding[0]:padding[0] + h, padding[1]:padding[1] + w].contiguous()
        return _channels_last(full.view(n * h * w, c), n, h, w)
    gradient = _nhwc(grad)
    if tuple(stride) != (1, 1):   # (stride - 1 zeros between the gradient's pixels)
        spread = gradient.new_zeros((n, (grad.shape[2] - 1) * stride[0] + 1, (grad.shape[3] - 1) * stride[1] + 1, k))
        spread[:, ::stride[0], ::stride[1]] = gradient
        gradient = spread
    # padded by the window's reach less the convolution's padding, and at the end by the rows and columns the
    # stride left unread
    unread = [(e + 2 * p - r) % s for e, p, r, s in zip((h, w), padding, reach, stride)]
    before = [r - 1 - p for r, p in zip(reach, padding)]
    pads = (before[0], before[0] + unread[0], before[1], before[1] + unread[1])
    windows, _ = _windows(gradient, (kh, kw), (1, 1), dilation, pads)
    flipped = weight.flip(2, 3).permute(2, 3, 0, 1).reshape(kh * kw * k, c)
    return _channels_last(torch.mm(windows, flipped), n, h, w)
