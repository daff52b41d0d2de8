"""The values lowering passes between ops, Lazy bodies and strided Views, their layouts, and the table
of lowerings (`LOWERINGS`, filled by `register` in the op modules)."""
import dataclasses
import threading

import sympy
import torch
from torch.utils._sympy.functions import Max as TorchMax   # (the Max of torch's symbolic strides)

from kiln import ir
from kiln.ir import ops, sym



class LoweringError(Exception):
    pass


@dataclasses.dataclass(eq=False)
class Lazy:
    sizes: list
    dtype: torch.dtype
    device: torch.device
    loader: object
    opcount: int = 1
    origins: tuple = ()
    strides: list = None      # the layout eager gives this value, used if it is ever stored
    widens: object = None     # where this value is a widening float cast: the narrower value it casts
    reads: frozenset = dataclasses.field(default=None, repr=False)   # the buffers it loads, once asked (reads_of)

    def load(self, idx):
        collecting = READS_COLLECTED.sets
        if collecting and self.reads is not None:   # (reads_of probing a value built on this one)
            collecting[-1].update(self.reads)
            return ops.constant(0, self.dtype)
        return self.loader(idx)


@dataclasses.dataclass(eq=False)
class View:
    buffer: ir.Buffer
    sizes: list
    strides: list
    offset: object = sympy.Integer(0)
    opcount = 0
    origins = ()

    dtype = property(lambda self: self.buffer.dtype)
    device = property(lambda self: self.buffer.layout.device)

    def load(self, idx):
        live = [(i, st) for i, st, s in zip(idx, self.strides, self.sizes) if s != 1]
        return ops.load(self.buffer.name, ir.strided_index([i for i, _ in live], [s for _, s in live], self.offset))

    def ref(self, traced=None):
        """The view as a library call receives it. A dim of size 1 gets a real stride rather than the 0 it has
        in kiln's index arithmetic, since libraries read it: the traced argument's (eager's), else
        library_strides'. (cuDNN attention's backward wants its [B, H, N, 1] logsumexp's last stride to be 1.)"""
        eager = static_ints([sym(s) for s in traced.stride()]) if isinstance(traced, torch.Tensor) and \
            traced.dim() == len(self.sizes) else None
        strides = [st if s != 1 else eager[d] for d, (st, s) in enumerate(zip(self.strides, self.sizes))] \
            if eager else library_strides(self.strides, self.sizes)
        return ir.TensorRef(self.buffer, list(self.sizes), strides, self.offset)


class OpThen:
    """A library call whose result the wrapper passes through `then`, if any (named `label` in generated code).
    Both are module-level functions or ATen ops, so that the graph cache can store the wrapper's scope."""

    def __init__(self, op, then, label):
        self.op, self.then, self.label = op, then, label

    def __call__(self, *args, **kwargs):
        result = self.op(*args, **kwargs)
        return result if self.then is None else self.then(result)

    def __str__(self):
        return self.label

    __repr__ = __str__


def channels_last_strides(sizes):
    n, c, h, w = sizes
    return [h * w * c, sympy.Integer(1), w * c, c]


def library_strides(strides, sizes):
    """Strides for a library call where no traced argument gives its size-1 dims': channels-last's where the
    other dims are laid out so, else the span of the others. PyTorch's libraries choose their kernels by the
    memory format the strides suggest, size-1 dims included: a squeeze-excite's [2, 16, 1, 1] given strides
    (16, 1, 32, 32) was taken as NCHW, and oneDNN's convolution took 1.4x (forward and backward) its time on
    (16, 1, 16, 16), which eager's channels-last tensors have. Not with one channel, where both formats lay out the
    same memory: given channels-last strides there, oneDNN's convolution read outside its input (1e30s in the
    output of a (1, 1, 8, 1) image) and eager PyTorch's computed wrongly ((3, 1, 6, 3), kernel (5, 2), stride (1, 3))."""
    if len(sizes) == 4 and sizes[1] != 1 and same_strides(strides, channels_last_strides(sizes), sizes):
        return channels_last_strides(sizes)
    span = TorchMax(1, *[st * s for st, s in zip(strides, sizes) if s != 1])   # (SymPy's took ~0.1 s a call)
    return [st if s != 1 else span for st, s in zip(strides, sizes)]


def static_ints(exprs):
    """The expressions as a tuple of ints if they are all numbers, else None."""
    return tuple(int(e) for e in exprs) if all(isinstance(e, (int, sympy.Integer)) for e in exprs) else None


def dense_meta_strides(meta, sizes):
    """The traced tensor's strides if it matches sizes and is dense (a permutation of row-major), else None."""
    if isinstance(meta, torch.Tensor) and [sym(s) for s in meta.shape] == list(sizes):
        strides = [sym(s) for s in meta.stride()]
        if is_dense(list(sizes), strides, [traced_value(s) for s in meta.stride()],
                    RUNNING[-1].guard_equal if RUNNING else None):
            return strides
    return None


def traced_value(size):
    """A size or stride's value at the traced sizes (None for a size without one)."""
    return size.node.hint if isinstance(size, torch.SymInt) else int(size)


def is_dense(sizes, strides, stride_hints, guard_equal=None):
    """Whether the dims, ordered by their strides at the traced sizes, lay these sizes out row-major: each stride
    the product of the sizes inside it, as expressions (so at every size, and no guard is needed), or else where
    guard_equal (GraphLowering's) makes their equality at the traced sizes a guard. torch's own test asks the shape
    environment about every comparison, ~18 ms a tensor of MobileViT's symbolic sizes (26 of its 38 s of lowering
    under dynamic=True); where a layout is not found dense, the value is stored row-major, which is correct too."""
    if any(n == 0 for n in sizes) or ir.static_numel(sizes, 2) < 2:
        return True
    if None in stride_hints:
        return False
    expected = sympy.Integer(1)
    for i in sorted(range(len(sizes)), key=lambda i: stride_hints[i]):
        if sizes[i] == 1:
            continue
        stride = without_max_1(strides[i])
        if stride != expected and ir.expand(stride - expected) != 0 and \
                not (guard_equal and guard_equal(stride, expected)):
            return False
        expected = expected * sizes[i]
    return True


def without_max_1(stride):
    """A stride with Max(1, n) read as n: torch's row-major strides multiply the sizes so, to keep them positive
    where a size is 0, and where n is under 1 the tensor has no elements, and any layout is dense."""
    if not stride.has(TorchMax):
        return stride

    def read(*args):
        others = [a for a in args if a != 1]
        return others[0] if len(args) == 2 and len(others) == 1 else TorchMax(*args)
    return stride.replace(TorchMax, read)


def traced_meta_strides(meta, sizes):
    """The traced tensor's strides if it matches sizes, is static, and its elements do not overlap but where
    a dim is broadcast (stride 0): a layout with gaps (padded rows) or an expanded one; else None."""
    if not isinstance(meta, torch.Tensor) or [sym(s) for s in meta.shape] != list(sizes):
        return None
    shape, strides = static_ints([sym(s) for s in meta.shape]), static_ints([sym(s) for s in meta.stride()])
    if shape is None or strides is None or any(s < 0 for s in strides):
        return None
    extent = 1   # the span of the dims taken so far, innermost first
    for stride, size in sorted((st, n) for st, n in zip(strides, shape) if n != 1 and st != 0):
        if stride < extent:
            return None
        extent = stride * size
    return list(strides)


def same_strides(a, b, sizes):
    """Whether two layouts of these sizes are the same (a size-1 dim's stride does not matter)."""
    return len(a) == len(b) and all(n == 1 or ir.expand(x - y) == 0 for x, y, n in zip(a, b, sizes))


def meta_strides(meta, sizes):
    """Eager's strides when the meta tensor matches and is dense, else row-major."""
    return dense_meta_strides(meta, sizes) or ir.contiguous_strides(sizes)


RUNNING = []   # the GraphLowerings being run, innermost last (GraphLowering.in_effect)


def current():
    """The GraphLowering being run; lowerings read the current FX node from it."""
    return RUNNING[-1]


# ---------------------------------------------------------------- the table

LOWERINGS = {}


def register(*targets):
    def deco(fn):
        for t in targets:
            LOWERINGS[t] = fn
        return fn
    return deco


def is_tensor(x):
    return isinstance(x, (Lazy, View))


def as_lazy(value):
    """A Lazy reading value: realized, it is a fresh buffer even where value is a view of one."""
    return Lazy(list(value.sizes), value.dtype, value.device, value.load, 1, value.origins)


def read_steps(value):
    """How far each memory read of value moves along each of its dims, in elements: a view's strides; for a computed
    value, one list per load (probed from index 0: divisions of reshaped views hide steps from symbolic
    inspection; symbolic sizes at their hints), leaving out loads through computed indices. A generator: callers
    look for the first of a kind."""
    for _, steps in load_steps(value):
        yield steps


def load_steps(value):
    """read_steps with the buffer each read loads: (name, steps) pairs, each distinct load once."""
    if isinstance(value, View):
        yield value.buffer.name, list(value.strides)
        return
    probe = probe_buffer(value)
    idx = probe.analysis.vars[0]
    origin, hints = {v: 0 for v in idx}, current().size_hints
    for name, e in dict.fromkeys(probe.analysis.loads):
        e = ir.at_hints(e, hints)
        if e.free_symbols <= set(idx):
            yield name, ir.steps_at(e, origin, idx)


# per thread (a backward is lowered ahead on a thread of its own), the sets of buffer names reads_of is collecting,
# innermost last: while it probes a value, a Lazy the value is built on whose reads are known adds them and runs no
# loader (a chain of values, each asked in turn, was probed again from its start at each: DeBERTa-v2's 24 layers on
# the C++ target spent ~0.6 of 2.7 s of lowering so, profiled)
class ReadsCollected(threading.local):
    def __init__(self):
        self.sets = []


READS_COLLECTED = ReadsCollected()


def reads_of(value):
    """The buffers a value loads (a Lazy's loader never changes: probed once; keeping values before each input
    written asked it of every live value, 1 s of ResNet-18's training lowering)."""
    if isinstance(value, View):
        return {value.buffer.name}
    if value.reads is None:
        collected = set()
        READS_COLLECTED.sets.append(collected)
        try:
            collected |= probe_buffer(value).reads()
        finally:
            READS_COLLECTED.sets.pop()
        value.reads = frozenset(collected)
    return value.reads


def probe_buffer(value):
    """A buffer computing value, never scheduled: its analysis tells what value loads and where."""
    return ir.ComputedBuffer("probe", ir.Layout(value.dtype, value.device, list(value.sizes),
                                                ir.contiguous_strides(value.sizes)),
                             node=ir.Pointwise(value.sizes, value.load))
