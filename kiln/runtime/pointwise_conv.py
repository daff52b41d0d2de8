"""A 1x1 convolution (no padding, one group) run as a matrix product, forward and backward, on channels-last
tensors: the wrapper calls these where lowering.externs.runs_as_matmul chose them.

Channels-last, a 1x1 convolution is the product of the (pixels, in-channels) rows with the weight's transpose, and
its output's rows are the output's channels-last memory: views on both sides, no copy (a stride above 1 copies the
pixels it reads). The views are made with as_strided, one call each, where a permute and a reshape would be two:
these run at every call of small convolutions, where each torch call's ~1 us counts. Module-level functions, so
that the graph cache can store the wrapper's scope."""

import torch


def _rows(x, stride=(1, 1)):
    """The pixels of channels-last x that a convolution of this stride reads, as rows of channels."""
    if tuple(stride) != (1, 1):   # (explicit sizes, never -1: none can be inferred where a size is 0)
        x = x[:, :, ::stride[0], ::stride[1]]
        n, c, h, w = x.shape
        return x.permute(0, 2, 3, 1).reshape(n * h * w, c)
    n, c, h, w = x.shape
    return x.as_strided((n * h * w, c), (c, 1))


def _channels_last(rows, n, h, w):
    """Rows of channels, one per pixel, as the [n, channels, h, w] channels-last tensor they are."""
    c = rows.shape[1]
    return rows.as_strided((n, c, h, w), (h * w * c, 1, w * c, c))


def convolution_as_matmul(x, weight, bias, stride):
    """conv2d(x, weight, bias, stride) for a [out, in, 1, 1] weight, channels-last x and result."""
    n, c, h, w = x.shape
    h, w = -(-h // stride[0]), -(-w // stride[1])
    matrix = weight.reshape(weight.shape[0], c).t()
    rows = _rows(x, stride)
    return _channels_last(torch.mm(rows, matrix) if bias is None else torch.addmm(bias, rows, matrix), n, h, w)


def convolution_backward_as_matmul(grad, x, weight, stride, output_mask):
    """convolution_backward's (input, weight, bias) gradients of convolution_as_matmul, those output_mask asks for:
    the input's channels-last (zero at the pixels a stride skips), the weight's contiguous."""
    n, k, h, w = grad.shape
    rows = _rows(grad)
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        grad_input = _channels_last(torch.mm(rows, weight.reshape(k, x.shape[1])), n, h, w)
        if tuple(stride) != (1, 1):
            full = torch.zeros_like(x, memory_format=torch.channels_last)
            full[:, :, ::stride[0], ::stride[1]] = grad_input
            grad_input = full
    if output_mask[1]:
        grad_weight = torch.mm(rows.t(), _rows(x, stride)).view(weight.shape)
    if output_mask[2]:
        grad_bias = rows.sum(0)
    return grad_input, grad_weight, grad_bias
