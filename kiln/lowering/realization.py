"""Which values the graph walk stores into buffers (a Lazy body is otherwise inlined into each user), and the
storing itself: a value realized into a buffer, a reduction, an empty tensor. Mixed into GraphLowering."""
import collections

import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily
from torch.utils.checkpoint import CheckpointPolicy

from kiln import ir
from kiln.ir import ops, sym
from kiln.lowering.values import as_lazy, channels_last_strides, is_tensor, Lazy, reads_of, static_ints, View
from kiln.lowering.pointwise import as_value
from kiln.lowering.externs import aligned_layout, feeds_matmul, LIBRARY_CALLS, MATMULS
from kiln.lowering.layouts_for_users import reads_channels_last

aten = torch.ops.aten


# A lazy value is stored to a buffer when its body grows past this many ops, or when it has
# several users and is past the smaller bound: recomputing it everywhere would cost more than a trip to memory.
# A value with several users is also stored when it reads more than one buffer computed in the graph:
# recomputed by each user, it would keep all of them alive until its last user. A residual stream
# x + a + b + ... otherwise holds every earlier layer's output (ViT-base held 12 of them: 194 MiB where
# eager peaks at 111), and each layer reads them all again.
REALIZE_OPCOUNT = 96
REALIZE_SHARED_OPCOUNT = 12
REALIZE_SHARED_READS = 1
# In C++, a small value computed from the graph's own results, that a user this many times larger reads broadcast,
# and that costs this many ops, is stored: inlined, it is computed again at every element it is read at (a training
# batch norm's per-channel scale and shift: a square root and divisions in double, at each element of MobileNetV2's
# padded batch norm + hardtanh, inside the pad's masked loop where nothing is hoisted: 564 us for 0.8 MB). Stored,
# it is computed once per channel, in the epilogue of the kernel that reduces the statistics. (One computed from
# graph inputs alone, an inference batch norm's, would take a kernel of its own.) Triton kernels still recompute
# such values: not free either where they hold IEEE-rounded square roots and divisions (an inference batch norm's
# invstd, which its lowering stores: bench/NOTES.md 64), but this rule counts ops, not what they cost.
BROADCAST_REALIZE_FACTOR = 16
BROADCAST_REALIZE_OPCOUNT = 4


EQUALITY = (aten.eq.Tensor, aten.ne.Tensor)


def compared_for_equality(n):
    """Whether every user of n must read the same bits of it: n has several users and one compares it for
    equality (x == max(x) in max's gradient), or the backward compares it (capture.partition marks it saved).
    Each user's recomputed copy could round otherwise: a C++ loop's vectorized expm1 against its scalar tail."""
    if n.meta.get("recompute") == CheckpointPolicy.MUST_SAVE:
        return True
    return len(n.users) > 1 and any(u.target in EQUALITY for u in n.users)


EMPTY_REDUCTION = {"sum": 0, "prod": 1, "any": False, "all": True}


class Realization:
    """GraphLowering's decisions to store values, and its ways of storing them."""

    def worth_storing(self, n, value):
        """Whether n's Lazy value is stored at its node rather than inlined into its users: past the bounds above,
        where its users must read the same bits, where a wide C++ user reads it broadcast, or where a matmul and
        other users read it."""
        return value.opcount > REALIZE_OPCOUNT or compared_for_equality(n) or \
            len(n.users) > 1 and self.worth_sharing(value) or self.read_broadcast(n, value) or \
            self.shared_matrix(n, value)

    def worth_sharing(self, value):
        """Whether a Lazy value that several users read is stored once rather than computed by each."""
        return value.opcount > REALIZE_SHARED_OPCOUNT or \
            self.computed_reads(value, statistics=False) > REALIZE_SHARED_READS

    @staticmethod
    def shared_matrix(n, value):
        """Whether value is a matrix that a matmul and other users read, in a layout to be aligned: computed once,
        in that layout, rather than by each user (GPT-2's logits' gradient, read as itself and transposed by two
        products, was written twice). A matrix, not a batch of them, and not where another library call reads it
        too: that one would take a copy laid out as traced (a convolution reads a bmm's batch of matrices)."""
        return len(value.sizes) == 2 and len(n.users) > 1 and feeds_matmul(n) and \
            not any(u.target in LIBRARY_CALLS and u.target not in MATMULS for u in n.users) and \
            aligned_layout(value.strides, value.sizes, value.dtype, value.device) is not None

    def realize_narrow(self, value, strides):
        """value stored; a widening float cast (float32 to float64, bf16 to float32) is stored in its source's
        dtype and widened where it is read, which is exact: half the bytes. (The CPU batch norm's backward, in
        float64, stored its float32 gradient widened: 786 KB between two of MobileNetV2's kernels.)"""
        if value.widens is None:
            return self.realize(value, strides)
        stored, sizes = self.realize(value.widens, strides), list(value.sizes)
        return Lazy(sizes, value.dtype, value.device, lambda idx: as_value(stored, idx, sizes, value.dtype), 1,
                    value.origins, value.strides)

    def read_broadcast(self, n, value):
        """Whether value, computed from the graph's results and costing enough ops, has a C++ user
        BROADCAST_REALIZE_FACTOR times its size (so that it reads value broadcast, or repeats it): it is then
        computed once instead."""
        numel = ir.static_numel(value.sizes)
        if value.opcount < BROADCAST_REALIZE_OPCOUNT or numel is None or self.on_triton(value.device) or \
                not self.computed_reads(value):
            return False
        wide = [u.meta.get("val") for u in n.users]
        return any(isinstance(w, torch.Tensor) and ir.static_numel([sym(s) for s in w.shape], 0) >=
                   BROADCAST_REALIZE_FACTOR * max(numel, 1) for w in wide)

    def computed_reads(self, value, statistics=True):
        """How many buffers computed in this graph a value reads (graph inputs stay alive regardless). statistics
        False: not those computed from graph inputs alone that it reads broadcast (at most 1/BROADCAST_REALIZE_FACTOR
        of its size), such as an inference batch norm's stored invstd, which keeps little memory alive. (A row's
        max, computed from the graph's own values, still counts: exp(s - max), stored, is computed once.)"""
        computed = reads_of(value) - self.input_names
        numel = self.size_hint(ir.product(value.sizes))   # (sizes at their hints under dynamic shapes)

        def statistic(buf):
            return isinstance(buf, ir.ComputedBuffer) and buf.reads() <= self.input_names and \
                BROADCAST_REALIZE_FACTOR * (self.size_hint(buf.layout.numel) or numel) <= numel
        if not statistics and numel is not None:
            computed = [n for n in computed if not statistic(self.buffer(n))]
        return len(computed)

    def realize(self, value, strides=None):
        if isinstance(value, View):
            return value
        if strides is None:
            strides = value.strides or ir.contiguous_strides(value.sizes)
        if ir.static_numel(value.sizes) == 0:
            return self.empty(value.sizes, strides, value.dtype, value.device)
        buf = ir.ComputedBuffer(self.new_name(), ir.Layout(value.dtype, value.device, list(value.sizes), strides),
                                node=ir.Pointwise(list(value.sizes), value.loader), origins=value.origins)
        self.buffers.append(buf)
        return View(buf, buf.layout.sizes, buf.layout.strides)

    def realize_as_read(self, value):
        """value stored for one reader of this lowering's own (not the graph's value, whose layout eager may
        fix): channels-last where its reads are, else as eager lays it out. (A stem's batch norm and ReLU, stored
        NCHW between a channels-last convolution and the max pooling that reads it, were read across the rows.)"""
        if isinstance(value, Lazy) and len(value.sizes) == 4 and reads_channels_last(value):
            return self.realize(value, channels_last_strides(value.sizes))
        return self.realize(value)

    def realize_strided(self, value, strides):
        """value as a buffer with these strides: a copy if it is a view laid out otherwise. The copy of a frozen
        constant is made now, once (a convolution's channels-last weight), not by the wrapper at every call."""
        if isinstance(value, View):
            live = [(a, b) for a, b, s in zip(value.strides, strides, value.sizes) if s != 1]
            if all(ir.expand(a - b) == 0 for a, b in live):
                return value
            view = self.frozen_view(value)
            if view is not None and static_ints(strides) is not None:
                with unset_fake_temporarily():
                    relaid = torch.empty_strided(view.shape, static_ints(strides), dtype=view.dtype,
                                                 device=view.device).copy_(view)
                name = self.made_from_frozen(value, relaid.copy_, "relaid")
                return self.frozen_value(name, relaid)
            value = as_lazy(value)
        return self.realize(value, strides)

    def keep_old_values(self, name):
        """Before graph input `name` is overwritten: values still to be used that read it are computed now. The
        live values reading each input are indexed at the first write, and each value made after as it is made (an
        optimizer step writes hundreds of inputs: scanning every live value at each write took 0.6 of the 3.1 s
        lowering AdamW over the quick ResNet-50's 161 tensors)."""
        if self.input_readers is None:
            self.input_readers = collections.defaultdict(dict)
            for fx, value in self.env.items():
                self.index_input_reads(fx, value)
        dying = set(self.user_to_last_uses.get(self.current_node, ()))

        def kept(v):
            if isinstance(v, (list, tuple)):
                return type(v)(kept(x) for x in v)
            if not is_tensor(v) or name not in reads_of(v):
                return v
            return self.realize(v if isinstance(v, Lazy) else as_lazy(v))
        for fx in self.input_readers.pop(name, ()):
            if fx in self.env and fx not in dying:
                self.env[fx] = kept(self.env[fx])

    def index_input_reads(self, fx, value):
        if isinstance(value, (list, tuple)):
            for v in value:
                self.index_input_reads(fx, v)
        elif is_tensor(value):
            for name in reads_of(value) & self.input_names:
                self.input_readers[name][fx] = None

    def reduction(self, sizes, rsizes, reduction_type, body, dtype, src_dtype, device):
        if ir.static_numel(sizes) == 0:
            return self.empty(sizes, ir.contiguous_strides(sizes), dtype, device)
        if ir.static_numel(rsizes, 1) == 0 and reduction_type in EMPTY_REDUCTION:   # over nothing: the identity
            value = EMPTY_REDUCTION[reduction_type]
            return Lazy(list(sizes), dtype, device, lambda idx: ops.constant(value, dtype))
        buf = ir.ComputedBuffer(self.new_name(), ir.Layout(dtype, device, list(sizes), ir.contiguous_strides(sizes)),
                                node=ir.Reduction(list(sizes), list(rsizes), reduction_type, body, src_dtype))
        self.buffers.append(buf)
        return View(buf, buf.layout.sizes, buf.layout.strides)

    def empty(self, sizes, strides, dtype, device):
        """A tensor with no elements: allocated by the wrapper, with no kernel to compute it."""
        buf = ir.Buffer(self.new_name(), ir.Layout(dtype, device, list(sizes), list(strides)))
        self.buffers.append(ir.ExternKernel(self.new_name("extern"), torch.empty_strided, (list(sizes), list(strides)),
                                            {"dtype": dtype, "device": device}, [buf], False, False,
                                            origins=("empty",)))
        return View(buf, buf.layout.sizes, buf.layout.strides)
