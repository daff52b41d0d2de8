"""The layout a value is stored in, chosen for the users that read it: channels-last where a convolution reading it
runs so or where it is computed from channels-last reads (unless a spatial mean reads it), aligned rows where a
matmul reads it. Mixed into GraphLowering."""
import collections

import sympy
import torch

from kiln.lowering.values import channels_last_strides, load_steps, read_steps, same_strides
from kiln.lowering.externs import aligned_layout, feeds_matmul, runs_channels_last

aten = torch.ops.aten
SPATIAL_REDUCTIONS = (aten.mean.dim, aten.sum.dim_IntList)   # (strides_for_users)


class LayoutsForUsers:
    """GraphLowering's choice of the strides a stored value gets."""

    def strides_for_users(self, n, value):
        """The layout to store a value in: the channels-last one that a convolution reading it will run in,
        where one does (its other users read any layout). Stored as eager lays it out, it would be copied
        for the convolution, and a training step would save both copies for its backward. Likewise, a value
        computed from channels-last reads is stored channels-last where eager (not knowing kiln ran the
        convolutions so) says NCHW, unless the graph returns it: a backward graph's sum of two convolutions'
        gradients, stored NCHW, made ResNet's batch norm backward read it across the rows, and MobileNetV2's
        padded convolution inputs were copied. Not where a user averages it over its spatial dims (a
        squeeze-excite mean): those are contiguous rows of eager's NCHW layout, summed in the kernel that computes
        the value, where channels-last rows took 3 launches (EfficientNet's bf16 inference: 21 more). And a
        matrix that a matmul reads, with misaligned rows, is stored in an aligned layout (externs.aligned_layout)."""
        if any(u.target is aten.convolution.default and u.args[0] is n and runs_channels_last(self, u.meta.get("val"))
               for u in n.users):
            return channels_last_strides(value.sizes)
        if self.stored_as_read(n, value):
            return channels_last_strides(value.sizes)
        if not any(u.op == "output" for u in n.users) and feeds_matmul(n):   # (2-D: any transpose keeps its dims)
            return aligned_layout(value.strides, value.sizes, value.dtype, value.device,
                                  (0, 1) if len(value.sizes) == 2 else None)
        return None

    def stored_as_read(self, n, value):
        """Whether n's value (4-D) is stored channels-last because it reads channels-last (strides_for_users)."""
        return len(value.sizes) == 4 and self.free_layout(n) and reads_channels_last(value) and \
            (not feeds_spatial_mean(n) or reads_window(value))

    def free_layout(self, n):
        """Whether kiln may lay out n's value as it likes: the graph does not return it, or returns it only as an
        activation saved for the backward (whose strides the forward reports)."""
        returned = [k for u in n.users if u.op == "output" for k, v in enumerate(u.args[0]) if v is n]
        return not returned or self.saved_from is not None and all(k >= self.saved_from for k in returned)


def feeds_spatial_mean(n, depth=4):
    """Whether n's value, directly or through a few elementwise ops (an activation, a cast), is averaged over its
    spatial dims."""
    def spatial(u):
        dims = u.args[1] if len(u.args) > 1 else u.kwargs.get("dim")
        return u.target in SPATIAL_REDUCTIONS and dims is not None and sorted(d % 4 for d in dims) == [2, 3]
    return depth > 0 and any(
        spatial(u) or (torch.Tag.pointwise in getattr(u.target, "tags", ()) or u.target is aten._to_copy.default) and
        feeds_spatial_mean(u, depth - 1) for u in n.users)


def moves_along_every_dim(steps, sizes):
    """Whether a read's steps move it along every dim of these sizes (size-1 dims aside)."""
    return all(st != 0 for st, n in zip(steps, sizes) if n != 1)


def reads_window(value):
    """Whether value reads one buffer at several places that each move along every dim: a window's taps (a depthwise
    convolution's). Stored NCHW from channels-last reads, each tap gathers across the rows: EfficientNet-B0's
    depthwise kernels before its squeeze-excite means took 340-530 us each, 10-20x their bytes (bench/NOTES.md 62)."""
    taps = collections.Counter(name for name, steps in load_steps(value) if moves_along_every_dim(steps, value.sizes))
    return any(count > 1 for count in taps.values())


def reads_channels_last(value):
    """Whether the first read of value that moves along every dim is laid out channels-last: one element per
    channel, then further per column, per row and per image. (Not the very strides of value's channels-last
    layout: a strided window reads its input 2 columns per output column, and a stride-2 depthwise convolution's
    output, stored NCHW, gathered each tap across the rows: 440-520 us each in EfficientNet-B0.)"""
    for steps in read_steps(value):
        if moves_along_every_dim(steps, value.sizes):
            # the steps per channel, column, row and image (the first is the channel's where it has several)
            moving = [sympy.sympify(steps[d]) for d in (1, 3, 2, 0) if value.sizes[d] != 1]
            if value.sizes[1] != 1 and moving[0] == 1 and all((b - a).is_positive for a, b in zip(moving, moving[1:])):
                return True
            # (symbolic steps whose order SymPy cannot decide: the layout's very strides)
            return same_strides(steps, channels_last_strides(value.sizes), value.sizes)
    return False
