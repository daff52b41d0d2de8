"""cuDNN's plans for a training backward's convolutions, made ahead on the thread that will use them (issue 23).

A convolution's first call with given sizes, strides and dtype makes cuDNN's execution plan, which torch keeps in
a cache of the calling thread (its cuDNN plans are not thread-safe). cuDNN 9 compiles some engines at run time:
on an H100, each channels-last depthwise convolution's backward took 140-260 ms to plan, once per shape, where
the forward's convolutions and the NCHW backward took ~1 ms (EfficientNet-B0's 12 shapes: ~2 s of its first
training step, on the critical path; bench/NOTES.md 118). NCHW would plan at once but runs that backward at half
the speed, so the layout stays.

A training step's backward runs on the autograd engine's thread for its device. So as soon as a backward graph
is loaded ahead of its first call, each distinct convolution_backward it calls is run once on that thread, on
uninitialized operands at the graph's size hints: as the backward of a one-node autograd graph that a helper
thread differentiates. The device's thread is idle then, so it starts at once, while the forward compiles and
runs; the real backward's nodes run on that thread only after it. Only time is at stake: a planning call that
fails is left out (one debug line). Not under cudnn.benchmark (its timings would run beside the forward), nor
where kernels are tuned or this graph is recorded; kiln's other recordings wait for it (a capture in progress
refuses another thread's allocations).
"""
import collections
import concurrent.futures
import logging
import threading

import sympy
import torch

from kiln import ir

log = logging.getLogger("kiln.codegen")
CONVOLUTION_BACKWARD = torch.ops.aten.convolution_backward.default
COUNTS = collections.Counter()   # convolutions_planned_ahead (kiln.stats() shows it)
STARTED = set()   # (device, arguments) of every call planned in this process
PENDING = []      # a future per planning thread not known to be done

# the most of the spare memory a planning call's operands and results take: it runs beside the user's forward,
# which must not run out of memory it would have had without it (EfficientNet-B0's largest, at batch 32: ~0.3 GB);
# what is left also leaves cuDNN the workspace its fastest plan asks for
SPARE_SHARE = 1 / 32


class Operand(tuple):
    """A tensor argument to make for planning: (sizes, strides, storage offset, dtype)."""


def planned_calls(steps, graph):
    """(device, arguments) of each distinct convolution_backward among a graph's steps, its tensors as Operands at
    the graph's size hints; none where a size has no hint."""
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
        if not isinstance(step, ir.ExternKernel) or getattr(step.target, "op", step.target) is not \
                CONVOLUTION_BACKWARD or step.kwargs:
            continue
        try:
            call = (str(step.args[1].buffer.layout.device), tuple(concrete(a) for a in step.args))
        except LookupError:
            continue
        if call not in found:
            found.append(call)
    return tuple(found)


def makes_plans():
    cudnn = torch.backends.cudnn
    return cudnn.is_available() and cudnn.enabled and not cudnn.benchmark


def plan_ahead(planned):
    """Plans the calls ((device, arguments)) not planned before, each on its device's autograd thread, in the
    background. Not where the graph is loaded inside a running backward (compiled at its first call: the plans
    would come after it), nor under compiled autograd (which runs one backward at a time, on the calling thread)."""
    from kiln.capture import compiled_autograd_on
    planned = [p for p in dict.fromkeys(planned) if p not in STARTED]
    if not planned or not makes_plans() or torch._C._current_graph_task_id() != -1 or compiled_autograd_on():
        return
    STARTED.update(planned)
    for device in dict.fromkeys(d for d, _ in planned):
        done = concurrent.futures.Future()
        PENDING[:] = [f for f in PENDING if not f.done()] + [done]
        # (a daemon: a process that exits before its plans are made does not wait for them)
        threading.Thread(target=on_autograd_thread, args=([c for d, c in planned if d == device], device, done),
                         name="kiln-plans", daemon=True).start()


def wait():
    """Returns once the plans submitted so far are made, where the caller is not on an autograd thread (their
    planning node may be queued behind the caller's: it never runs beside the caller's work there)."""
    while PENDING and torch._C._current_graph_task_id() == -1:
        PENDING.pop(0).result()


class Planning(torch.autograd.Function):
    """A node whose backward makes the plans: the engine runs a CUDA node's backward on its device's thread."""

    @staticmethod
    def forward(ctx, x, calls):
        ctx.calls = calls
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        make_plans(ctx.calls, grad.device)
        return grad, None


def on_autograd_thread(calls, device, done):
    from kiln.capture import compiled_autograd_on
    try:
        if not compiled_autograd_on():
            with torch.enable_grad():
                Planning.apply(torch.zeros((), device=device, requires_grad=True), calls).backward()
    except Exception as e:   # (the first call plans them)
        log.debug("kiln: convolutions not planned ahead: %s: %s", type(e).__name__, e)
    finally:
        done.set_result(None)


def make_plans(calls, device):
    for args in calls:
        if not makes_plans():
            return
        needs = operand_bytes(args)
        if needs > SPARE_SHARE * spare_bytes(device):
            log.debug("kiln: a convolution's backward not planned ahead: %d MB of operands and results, too much "
                      "of the device's spare memory", needs >> 20)
            continue
        try:
            with torch.no_grad():
                CONVOLUTION_BACKWARD(*operands(args, device))
            COUNTS["convolutions_planned_ahead"] += 1
        except Exception as e:   # (the first call plans it)
            log.debug("kiln: a convolution's backward not planned ahead: %s: %s", type(e).__name__, e)


def spare_bytes(device):
    """The GPU's free memory and what torch's allocator holds unused there."""
    return torch.cuda.mem_get_info(device)[0] + torch.cuda.memory_reserved(device) - torch.cuda.memory_allocated(device)


def buffer_sizes(args):
    """{dtype: elements} of the one buffer per dtype that the Operands among args view."""
    from kiln.runtime.autotune import span
    sizes = {}
    for a in args:
        if isinstance(a, Operand):
            shape, strides, offset, dtype = a
            sizes[dtype] = max(sizes.get(dtype, 1), span(shape, strides, offset))
    return sizes


def operand_bytes(args):
    """The bytes a planning call takes: its operands' buffers, and about as much again for its results."""
    return 2 * sum(n * dtype.itemsize for dtype, n in buffer_sizes(args).items())


def operands(args, device):
    """args with each Operand made: views of one uninitialized buffer per dtype, as large as the largest (the call
    only reads them, so they may overlap; its results are freed at once)."""
    buffers = {dtype: torch.empty(n, dtype=dtype, device=device) for dtype, n in buffer_sizes(args).items()}
    return [buffers[a[3]].as_strided(a[0], a[1], a[2]) if isinstance(a, Operand) else a for a in args]
