"""cuDNN's plans for a training backward's convolutions, made ahead on the thread that will use them (issue 23).

A convolution's first call with given sizes, strides and dtype makes cuDNN's execution plan, which torch keeps in
a cache of the calling thread (its cuDNN plans are not thread-safe). cuDNN 9 compiles some engines at run time:
on an H100, each channels-last depthwise convolution's backward took 140-260 ms to plan, once per shape, where
the forward's convolutions and the NCHW backward took ~1 ms (EfficientNet-B0's 12 shapes: ~2 s of its first
training step, on the critical path; bench/NOTES.md 118). NCHW would plan at once but runs that backward at half
the speed, so the layout stays.

A training step's backward runs on the autograd engine's thread for its device. So as soon as a backward graph
is loaded, each distinct convolution_backward it calls is run once on that thread, on uninitialized operands at
the graph's size hints: as the backward of a one-node autograd graph that a helper thread differentiates. The
plans are then made while the forward compiles and runs; the backward's first call, queued behind them on the
same thread, finds them made. Only time is at stake: a planning call that fails is left out (one debug line).
Not under cudnn.benchmark (its timings would run beside the forward), nor where kernels are tuned or graphs
recorded (a capture must see no other work on the device).
"""
import concurrent.futures
import functools
import logging

import sympy
import torch

from kiln import ir
from kiln.runtime.triton_binaries import COUNTS

log = logging.getLogger("kiln.codegen")
PLANNED = torch.ops.aten.convolution_backward.default
STARTED = set()  # (device, arguments) of every call planned in this process


class Operand(tuple):
    """A tensor argument to make for planning: (sizes, strides, storage offset, dtype)."""


def planned_calls(steps, graph):
    """The arguments of each distinct convolution_backward among a graph's steps, its tensors as Operands at the
    graph's size hints; none where a size has no hint."""
    from kiln.runtime.autotune import hinted

    def concrete(a):
        if isinstance(a, ir.TensorRef):
            layout = hinted(graph, a)
            if layout is None:
                raise LookupError
            return Operand((*layout, a.buffer.layout.dtype))
        if isinstance(a, (list, tuple)):   # (as tuples: a call is a key of STARTED)
            return tuple(concrete(x) for x in a)
        if isinstance(a, sympy.Expr):
            hint = graph.size_hint(a)
            if hint is None:
                raise LookupError
            return int(hint)
        return a
    found = []
    for step in steps:
        if not isinstance(step, ir.ExternKernel) or getattr(step.target, "op", step.target) is not PLANNED or \
                step.kwargs:
            continue
        try:
            call = tuple(concrete(a) for a in step.args)
        except LookupError:
            continue
        if call not in found:
            found.append(call)
    return tuple(found)


def plan_ahead(planned):
    """Plans the calls ((device, arguments)) not planned before, each on its device's autograd thread, in the
    background."""
    cudnn = torch.backends.cudnn
    planned = [(d, c) for d, c in dict.fromkeys(planned) if (d, c) not in STARTED and
               (not d.startswith("cuda") or cudnn.is_available() and cudnn.enabled)]   # (else no plans to make)
    if not planned or cudnn.benchmark:
        return
    STARTED.update(planned)
    for device in dict.fromkeys(d for d, _ in planned):
        helper_thread().submit(on_autograd_thread, [c for d, c in planned if d == device], device)


@functools.cache
def helper_thread():
    return concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kiln-plans")


class Planning(torch.autograd.Function):
    """A node whose backward makes the plans: the engine runs a CUDA node's backward on its device's thread."""

    @staticmethod
    def forward(ctx, x, calls):
        ctx.calls = calls
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        run(ctx.calls, grad.device)
        return grad, None


def on_autograd_thread(calls, device):
    try:
        with torch.enable_grad():
            Planning.apply(torch.zeros((), device=device, requires_grad=True), calls).backward()
    except Exception as e:   # (the first call plans them)
        log.debug("kiln: convolutions not planned ahead: %s: %s", type(e).__name__, e)


def run(calls, device):
    for args in calls:
        if torch.backends.cudnn.benchmark:
            return
        try:
            with torch.no_grad():
                PLANNED(*operands(args, device))
            COUNTS["convolutions_planned_ahead"] += 1   # (kiln.stats() shows it)
        except Exception as e:   # (the first call plans it)
            log.debug("kiln: a convolution's backward not planned ahead: %s: %s", type(e).__name__, e)


def operands(args, device):
    """args with each Operand made: views of one uninitialized buffer per dtype, as large as the largest (the call
    only reads them, so they may overlap; its results are freed at once)."""
    from kiln.runtime.autotune import span
    spans = {}
    for a in args:
        if isinstance(a, Operand):
            sizes, strides, offset, dtype = a
            spans[dtype] = max(spans.get(dtype, 1), span(sizes, strides, offset))
    buffers = {dtype: torch.empty(n, dtype=dtype, device=device) for dtype, n in spans.items()}
    return [buffers[a[3]].as_strided(a[0], a[1], a[2]) if isinstance(a, Operand) else a for a in args]
