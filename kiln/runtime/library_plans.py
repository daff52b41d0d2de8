"""A graph's library calls planned ahead, on a thread of their own, while its kernels build (issue 23).

cuDNN's first call of a convolution (of its sizes, strides, dtype) builds an execution plan, which torch caches
for the process. A channels-last plan takes ~20 ms: EfficientNet-B0's first training step on an H100 spent 4.6 s
in them (bench/NOTES.md 117), on the critical path of kiln's first call (a training forward runs its
convolutions channels-last), where aot_eager's convolutions found the NCHW plans of the eager step before them.
So each distinct convolution of a graph is run once as soon as the graph is loaded, on operands of no value made
at the graph's size hints, in the background: the first call then finds its plans made. Only time is at stake:
a call that comes first plans as before, and a planning call that fails is left out (one debug line).

Not under cudnn.benchmark (its timings would run beside the first call's work) nor max-autotune (whose timings
the planning would disturb); kiln's CUDA graphs wait for the plans before recording (`wait`), since a capture
must not see other work on the device."""
import concurrent.futures
import functools
import logging

import sympy
import torch

from kiln import ir
from kiln.runtime.triton_binaries import COUNTS

log = logging.getLogger("kiln.codegen")
aten = torch.ops.aten
PLANNED = (aten.convolution.default, aten.convolution_backward.default)
PENDING = []   # the futures of plans not known to be done


class Operand(tuple):
    """An extern argument to make for planning: (sizes, strides, storage offset, dtype)."""


def planned_calls(steps, graph, device):
    """(device, op, arguments) of each distinct planned library call among a graph's steps, its tensors as
    Operands at the graph's size hints; none where a size has no hint."""
    from kiln.runtime.autotune import hinted
    found = []
    for step in steps:
        op = getattr(step.target, "op", step.target) if isinstance(step, ir.ExternKernel) else None
        if op not in PLANNED or step.kwargs:
            continue

        def concrete(a):
            if isinstance(a, ir.TensorRef):
                layout = hinted(graph, a)
                if layout is None:
                    raise LookupError
                return Operand((*layout, a.buffer.layout.dtype))
            if isinstance(a, (list, tuple)):
                return type(a)(concrete(x) for x in a)
            if isinstance(a, sympy.Expr):
                hint = graph.size_hint(a)
                if hint is None:
                    raise LookupError
                return int(hint)
            return a
        try:
            call = (str(device), op, tuple(concrete(a) for a in step.args))
        except LookupError:
            continue
        if call not in found:
            found.append(call)
    return found


def plan_behind(calls):
    """Runs the planned calls on the planning thread, in order."""
    if calls and not torch.backends.cudnn.benchmark:
        PENDING[:] = [f for f in PENDING if not f.done()] + [planning_thread().submit(run, calls)]


def wait():
    """Returns once every plan submitted so far is made (or failed)."""
    while PENDING:
        PENDING.pop(0).result()


@functools.cache
def planning_thread():
    return concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kiln-plans")


def run(calls):
    from kiln.runtime.wrapper import python_binding
    for device, op, args in calls:
        if torch.backends.cudnn.benchmark:
            return
        try:   # (the op runs on its operands' device)
            with torch.no_grad():
                python_binding(op, args, {})(*operands(args, device))
            COUNTS["library_calls_planned"] += 1   # (kiln.stats() shows it)
        except Exception as e:   # (the first call plans it)
            log.debug("kiln: %s not planned ahead: %s: %s", op, type(e).__name__, e)


def operands(args, device):
    """args with each Operand made: views of one uninitialized buffer per dtype, as large as the largest (the
    planned call only reads them, so they may overlap; its results are freed at once)."""
    from kiln.runtime.autotune import span
    spans = {}
    for a in args:
        if isinstance(a, Operand):
            sizes, strides, offset, dtype = a
            spans[dtype] = max(spans.get(dtype, 1), span(sizes, strides, offset))
    buffers = {dtype: torch.empty(n, dtype=dtype, device=device) for dtype, n in spans.items()}
    return [buffers[a[3]].as_strided(a[0], a[1], a[2]) if isinstance(a, Operand) else a for a in args]
