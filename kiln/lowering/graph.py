"""The graph walk: GraphLowering runs an ATen FX graph with IR values instead of tensors, realizes values
into buffers, lays out outputs, and turns library calls and ops without a lowering into externs."""
import collections
import contextlib
import logging
import operator

import sympy
import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils.checkpoint import CheckpointPolicy

from kiln import ir
from kiln.freezing import FROZEN_PREFIX, is_frozen
from kiln.ir import ops, product, sym
from kiln.lowering.values import (RUNNING, as_lazy, channels_last_strides, dense_meta_strides, is_tensor, Lazy,
                                  load_steps, LoweringError, LOWERINGS, meta_strides, OpThen, read_steps, reads_of,
                                  same_strides, static_ints, traced_meta_strides, View)
from kiln.lowering.pointwise import as_value, eager_refuses, ops_fn, pointwise_value
from kiln.lowering.externs import aligned_layout, feeds_matmul, LIBRARY_CALLS, MATMULS, runs_channels_last, unaliased

aten = torch.ops.aten
log = logging.getLogger("kiln.fallback")


# A lazy value is stored to a buffer when its body grows past this many ops, or when it has
# several users and is past the smaller bound: recomputing it everywhere would cost more than a trip to memory.
# A value with several users is also stored when it reads more than one buffer computed in the graph:
# recomputed by each user, it would keep all of them alive until its last user. A residual stream
# x + a + b + ... otherwise holds every earlier layer's output (ViT-base held 12 of them: 194 MiB where
# eager peaks at 111), and each layer reads them all again.
REALIZE_OPCOUNT = 96
REALIZE_SHARED_OPCOUNT = 12
REALIZE_SHARED_READS = 1
SPATIAL_REDUCTIONS = (aten.mean.dim, aten.sum.dim_IntList)   # (strides_for_users)
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


# ---------------------------------------------------------------- the graph walk

class GraphLowering(torch.fx.Interpreter):
    """Runs an ATen FX graph with IR values instead of tensors."""

    def __init__(self, gm, name="graph", inference=False, saved_from=None, example_inputs=None, target=None,
                 output_strides=None):
        super().__init__(gm)
        self.target = target          # "triton" forces Triton for every device; otherwise it is picked by device
        # the layouts the graph will be called with: for a backward graph, AOTAutograd has restrided
        # the saved activations to the forward's real output strides
        self.example_inputs = list(example_inputs or [])
        self.name = name
        self.inference = inference    # no backward graph will read this graph's buffers
        # a forward graph's outputs from this index on are saved for its backward graph: they may keep
        # kiln's layouts (AOTAutograd hands the backward their real strides)
        self.saved_from = saved_from
        self.eager_output_strides = output_strides or {}   # output index -> the strides eager gives the user
        self.buffers = []             # ComputedBuffer | ExternKernel in program order
        self.graph_inputs = []        # InputBuffer, or a sympy expr for a symbolic size input
        self.input_names = set()      # the InputBuffers' names
        # input name -> {fx node: None} whose live values read it, in the nodes' order (see keep_old_values)
        self.input_readers = None
        self.frozen = {}              # name -> (InputBuffer, tensor): constants the wrapper holds (kiln.freezing)
        # name -> (frozen name, sizes, strides, offset, remake): made from a frozen view (a copy laid out anew, a
        # library's packed weight), made again by remake(view)
        self.relaid = {}
        self.fallback_ops = []
        self.seeds = {}               # device -> (Seeds, its buffer): the random seeds drawn at each call
        self.float_scalars = {}       # symbol -> a non-integer expression of sizes, which the wrapper computes
        self.index_checks = {}        # kernel name -> (its site number, its ops): kernels that check indices
        self.size_hints = {}          # symbolic size name -> its value in the traced example (see size_hint)
        self._names = 0
        self._named = {}              # name -> graph input, frozen constant or buffer (see buffer)
        self.current_node = None

    def buffer(self, name):
        """The graph input or computed buffer of that name."""
        found = self._named.get(name)
        if found is None:   # named since the index was made (buffers are only ever added): index them all again
            named = [(b.name, b) for b in self.graph_inputs if isinstance(b, ir.InputBuffer)] + \
                [(n, frozen) for n, (frozen, _) in self.frozen.items()] + \
                [(o.name, o) for b in self.buffers for o in (b.outputs if isinstance(b, ir.ExternKernel) else [b])
                 if o is not None]
            self._named = {}
            for n, b in named:
                self._named.setdefault(n, b)   # (the first of a name, as a search in this order finds it)
            found = self._named[name]
        return found

    def buffer_dtype(self, name):
        return torch.int64 if name == ir.INDEX_FLAGS else self.buffer(name).dtype

    def size_hint(self, expr):
        """expr's value if static, else its value at the sizes the graph was traced with (None where a symbol has
        no hint): for tile sizes, and for sizes the trace found to be 1 (broadcasts)."""
        return ir.static_numel([ir.at_hints(expr, self.size_hints)])

    def new_name(self, prefix="buf"):
        self._names += 1
        return f"{prefix}{self._names}"

    @contextlib.contextmanager
    def in_effect(self):
        """current() is this graph: while it is lowered, and while the scheduler and code generators run the
        loaders of its buffers, which read its size hints (broadcasts)."""
        RUNNING.append(self)
        try:
            yield self
        finally:
            RUNNING.pop()

    def run(self):
        with self.in_effect():
            return super().run(enable_io_processing=False)

    # -- fx.Interpreter hooks
    def run_node(self, n):
        self.current_node = n
        value = super().run_node(n)
        if isinstance(value, Lazy) and value.strides is None:
            value.strides = meta_strides(n.meta.get("val"), value.sizes)   # eager's layout, should it be stored
        if isinstance(value, Lazy) and (value.opcount > REALIZE_OPCOUNT or compared_for_equality(n) or
                                        len(n.users) > 1 and (value.opcount > REALIZE_SHARED_OPCOUNT or
                                                              self.computed_reads(value, statistics=False) >
                                                              REALIZE_SHARED_READS) or
                                        self.read_broadcast(n, value) or self.shared_matrix(n, value)):
            value = self.realize_narrow(value, self.strides_for_users(n, value))
        if self.input_readers is not None:
            self.index_input_reads(n, value)
        return value

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

    def placeholder(self, target, args, kwargs):
        val = self.current_node.meta["val"]
        given = self.example_inputs[len(self.graph_inputs)] if len(self.graph_inputs) < len(self.example_inputs) \
            else None
        strides, offset = (val.stride(), val.storage_offset()) if isinstance(val, torch.Tensor) else (None, None)
        # The input as given where its layout is static: a backward's saved activations come restrided by
        # AOTAutograd to the layouts the forward reported (channels-last where the graph traced NCHW), and the
        # graph's own meta keeps the traced ones. Its sizes stay the graph's where symbolic (a dynamic batch):
        # reading the traced strides there computed a training step's gradients from the wrong elements.
        if isinstance(val, torch.Tensor) and isinstance(given, torch.Tensor) and given.dim() == val.dim() and \
                static_ints(given.stride()) and static_ints([given.storage_offset()]):
            strides, offset = given.stride(), given.storage_offset()
            val = given if static_ints(given.shape) else val
        self.record_hints([val] if isinstance(val, torch.SymInt) else
                          [*val.shape, *strides] if isinstance(val, torch.Tensor) else [])
        if isinstance(val, torch.Tensor):
            buf = ir.InputBuffer(target, ir.Layout(val.dtype, val.device, [sym(s) for s in val.shape],
                                                   [sym(s) for s in strides]), sym(offset))
            self.graph_inputs.append(buf)
            self.input_names.add(buf.name)
            return View(buf, buf.layout.sizes, buf.layout.strides)
        expr = sym(val) if isinstance(val, torch.SymInt) else val
        self.graph_inputs.append(expr)
        return expr

    def record_hints(self, sizes):
        for size in sizes:
            if isinstance(size, torch.SymInt):
                env = size.node.shape_env   # torch 2.13 renamed var_to_val (2.11 has only the old name)
                known = env.backed_var_to_val if hasattr(env, "backed_var_to_val") else env.var_to_val
                self.size_hints.update({str(s): int(known[s]) for s in size.node.expr.free_symbols if s in known})

    def get_attr(self, target, args, kwargs):
        value = super().get_attr(target, args, kwargs)
        if isinstance(value, torch.Tensor) and value.layout == torch.strided:
            if is_frozen(target):
                return self.frozen_value(target, value)
            return constant_value(self, value)
        return value

    def new_seed(self, device):
        """A seed for one random op: one element of the seeds the wrapper draws once per call on the op's device
        (an extern, Seeds, placed before the graph's first random op). Drawn on the device, by torch's generator,
        a CUDA graph's replay draws them anew (mode="reduce-overhead")."""
        if device not in self.seeds:
            buf = ir.Buffer(self.new_name(), ir.Layout(torch.int64, device, [sympy.Integer(0)], [sympy.Integer(1)]))
            self.seeds[device] = (Seeds(device), buf)
            self.buffers.append(ir.ExternKernel(self.new_name("extern"), self.seeds[device][0], (), {}, [buf], False,
                                                False, origins=("random seeds",)))
        seeds, buf = self.seeds[device]
        seeds.count += 1
        buf.layout.sizes[0] = sympy.Integer(seeds.count)
        return View(buf, [sympy.Integer(1)], [sympy.Integer(1)], sympy.Integer(seeds.count - 1))

    def frozen_value(self, name, tensor):
        """A frozen parameter, or what was computed from parameters only (kiln.freezing): a buffer that the
        wrapper reads from its globals, as it reads an input, and never writes or reuses."""
        layout = ir.Layout(tensor.dtype, tensor.device, [sym(s) for s in tensor.shape],
                           [sym(s) for s in tensor.stride()])
        buf = ir.InputBuffer(name, layout, sym(tensor.storage_offset()))
        self.frozen[name] = (buf, tensor)
        return View(buf, buf.layout.sizes, buf.layout.strides)

    def call_function(self, target, args, kwargs):
        if target is operator.getitem:
            return args[0][args[1]]
        if target in SCALAR_FUNCTIONS:
            return SCALAR_FUNCTIONS[target](*args)
        val = self.current_node.meta.get("val")
        if isinstance(val, (torch.SymInt, torch.SymFloat, torch.SymBool)) and target not in LOWERINGS:
            # any other Python function of sizes (math.ceil, math.floor, sym_ite, ...): its value as torch's
            # symbolic shapes computed it, over the same size symbols kiln's buffers are laid out in
            return val.node.expr
        if target is torch.ops.higher_order.with_effects:
            return lower_with_effects(self, *args, **kwargs)
        if target in EFFECT_TOKEN_ENDS:   # nothing to compute: the wrapper calls effectful ops in program order
            return None
        args, kwargs = torch.utils._pytree.tree_map(self.float_scalar, (args, kwargs))
        lowering = LOWERINGS.get(target) or LOWERINGS.get(getattr(target, "overloadpacket", None)) or \
            self.spelled_pointwise(target)
        if lowering is not None and eager_refuses(target, self.current_node):
            return self.fallback(target, args, kwargs, "eager's kernel refuses the arguments of")
        # kernels have no complex types, so ops on complex tensors run eagerly; library calls take any
        if lowering is not None and (target in LIBRARY_CALLS or not touches_complex(self.current_node)):
            first_new = len(self.buffers)
            result = lowering(self.current_node.meta.get("val"), *args, **kwargs)
            if result is not NotImplemented:
                # named by the op the user's graph had before decomposition (batch_norm, not its add and rsqrt)
                source = self.current_node.meta.get("original_aten") or target
                return tag_origins(result, source, args, self.buffers[first_new:])
        return self.fallback(target, args, kwargs)

    def float_scalar(self, x):
        """A float computed from symbolic sizes (1 / s0) as a symbol the wrapper binds to its value, computed
        in Python as eager computes it: kernels see sizes as integers, and would divide as integers."""
        if not isinstance(x, sympy.Expr) or x.is_number or x.is_integer:
            return x
        for name, expr in self.float_scalars.items():
            if expr == x:
                return name
        name = sympy.Symbol(f"{ir.FLOAT_SCALAR}{len(self.float_scalars)}", real=True)
        self.float_scalars[name] = x
        return name

    def on_triton(self, device):
        """Whether values on device become Triton code (else C++)."""
        return self.target == "triton" or device.type == "cuda"

    def spelled_pointwise(self, target):
        """A lowering for a pointwise ATen op that the code generator spells by the op's own name, like the
        special functions C++ takes from ATen's scalar code; None where it has no spelling."""
        out = self.current_node.meta.get("val")
        name = getattr(getattr(target, "overloadpacket", None), "__name__", None)
        if torch.Tag.pointwise not in getattr(target, "tags", ()) or not isinstance(out, torch.Tensor) or \
                not out.dtype.is_floating_point:
            return None
        from kiln.codegen import cpp, triton_ops
        spelled = triton_ops.target_ops() if self.on_triton(out.device) else cpp.CPP_OPS
        if name not in spelled:
            return None
        return lambda out, *args: pointwise_value(out, ops_fn(name), *args)

    def output(self, target, args, kwargs):
        vals = self.current_node.args[0]
        saved_from = len(vals) if self.saved_from is None else self.saved_from
        self.graph_outputs = [None] * len(vals)
        position = {n: k for k, n in enumerate(self.module.graph.nodes)}
        placeholders = [n for n in self.module.graph.nodes if n.op == "placeholder"]
        input_storages = {}   # the first input of each storage
        for inp, p in zip(self.graph_inputs, placeholders):
            if isinstance(inp, ir.InputBuffer) and isinstance(p.meta.get("val"), torch.Tensor):
                input_storages.setdefault(StorageWeakRef(p.meta["val"].untyped_storage()), (inp, p.meta["val"]))
        placeholder_storages = {StorageWeakRef(p.meta["val"].untyped_storage()) for p in placeholders
                                 if isinstance(p.meta.get("val"), torch.Tensor) and p.meta["val"].layout == torch.strided}
        # bases before their views, so that a view of another output is that output's buffer seen so
        for i in sorted(range(len(vals)), key=lambda i: position.get(vals[i], -1)):
            eager_strides = self.eager_output_strides.get(i)
            value = args[0][i]
            if self.reads_input_unchanged(value, vals[i], placeholder_storages):
                value = as_lazy(value)   # (stored anew by output_value)
            self.graph_outputs[i] = self.view_of_input(vals[i], input_storages) or \
                self.view_of_output(vals[i], vals, eager_strides) or \
                self.output_value(value, vals[i], i >= saved_from, eager_strides)
        return self.graph_outputs

    def reads_input_unchanged(self, value, node, placeholder_storages):
        """Whether value is a graph input's memory as it is, where eager returns a tensor of its own: a lowering that
        computes nothing (sign of a bool) must not hand out the input, which a write to the output would change."""
        meta = node.meta.get("val") if isinstance(node, torch.fx.Node) and node.op != "placeholder" else None
        return isinstance(value, View) and value.buffer.name in self.input_names and \
            isinstance(meta, torch.Tensor) and meta.layout == torch.strided and \
            StorageWeakRef(meta.untyped_storage()) not in placeholder_storages

    @staticmethod
    def view_of_input(node, input_storages):
        """node as the view of a graph input it is in the trace (sharing the input's storage: input_storages maps
        each input's storage to it and its traced tensor), with its traced sizes, strides and offset. AOTAutograd
        regenerates such an output from the input with the sizes, strides and storage offset of the tensor kiln
        returns: a copy laid out otherwise named other elements, and x[:, 3::3].flatten(0) of a [1, 5] x came
        back as x[0, 0] (fuzz seed 271295). None where the input is given laid out otherwise than traced (a
        backward's saved activation, restrided by AOTAutograd to the layout the forward reported): the traced
        strides would name other elements of it (a custom backward returning a view of a channels-last saved
        activation); computed, the output reads the input as given."""
        meta = node.meta.get("val") if isinstance(node, torch.fx.Node) and node.op != "placeholder" else None
        if not isinstance(meta, torch.Tensor) or meta.layout != torch.strided:
            return None
        inp, traced = input_storages.get(StorageWeakRef(meta.untyped_storage()), (None, None))
        if inp is None or list(inp.layout.strides) != [sym(st) for st in traced.stride()] or \
                inp.storage_offset != sym(traced.storage_offset()):
            return None
        return View(inp, [sym(n) for n in meta.shape], [sym(st) for st in meta.stride()],
                    sym(meta.storage_offset()) - sym(traced.storage_offset()))

    def view_of_output(self, node, vals, eager_strides=None):
        """node as a view of the buffer of an earlier output it is a view of (through view ops), as eager returns
        y and y.t(): sharing storage, not as a copy; None where it is not one, where that output is laid out
        otherwise than traced and the view ops cannot be replayed on its layout (the view's traced strides would
        read it wrongly; a base AOTAutograd regenerates views from is laid out as eager's,
        capture.intermediate_base_strides), or where the view's strides are not eager's (the base is a
        saved activation laid out as traced, where eager's differs: x.clone() of a transposed x, then
        y[..., ::2] = 5, is traced row-major; y.t() must come back as eager's)."""
        base, views = node, []
        while isinstance(base, torch.fx.Node) and base.op == "call_function" and \
                isinstance(base.target, torch._ops.OpOverload) and base.args and \
                any(r.alias_info is not None and not r.alias_info.is_write for r in base.target._schema.returns):
            views.append(base)
            base = base.args[0]
            if base in vals:
                break
        done = [self.graph_outputs[k] for k, v in enumerate(vals) if v is base]
        if base is node or not done or not isinstance(done[0], View) or not isinstance(node.meta.get("val"), torch.Tensor):
            return None
        base_view, base_meta, meta = done[0], base.meta["val"], node.meta["val"]
        if base_view.offset != 0 or base_meta.storage_offset() != 0 or \
                StorageWeakRef(meta.untyped_storage()) != StorageWeakRef(base_meta.untyped_storage()):
            return None
        if base_view.strides != [sym(st) for st in base_meta.stride()]:
            meta = replay_views(views, base_view, base_meta)
            if meta is None:
                return None
        strides = [sym(st) for st in meta.stride()]
        if eager_strides is not None and not same_strides([sym(st) for st in eager_strides], strides, meta.shape):
            return None
        return View(base_view.buffer, [sym(n) for n in meta.shape], strides, sym(meta.storage_offset()))

    def output_value(self, value, node, saved, eager_strides=None):
        """The output laid out as eager's; a saved activation may keep kiln's layout (static, at offset 0)."""
        if not isinstance(value, (Lazy, View)):
            return value
        meta = node.meta["val"]
        strides = [sym(s) for s in meta.stride()]
        if eager_strides is not None and len(eager_strides) == len(strides):
            strides = [sym(s) for s in eager_strides]
        if isinstance(value, View) and (value.strides == strides or ir.static_numel(value.sizes) == 0 or (
                saved and value.offset == 0 and meta.storage_offset() == 0 and static_ints(value.strides))):
            return value
        if saved and isinstance(value, Lazy) and static_ints(value.sizes) and self.stored_as_read(node, value):
            strides = channels_last_strides(value.sizes)   # (a ReLU that its backward reads)
        return self.realize_strided(value, strides)

    def output_strides(self):
        """The strides of each graph output, for AOTAutograd (None where not a tensor)."""
        return [static_ints(o.strides) if isinstance(o, View) else None for o in self.graph_outputs]

    # -- realization
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

    def extern(self, target, args, kwargs, fallback, out_strides=None, arg_nodes=None, metas=None):
        """`target(*args, **kwargs)` run by the wrapper; tensor outputs get eager's layouts, or out_strides.

        Tensor arguments get the layouts they had when the graph was traced: an op's output layout may
        follow its inputs' (attention, convolution), and the outputs' layouts are taken from the trace.
        With out_strides, the caller has chosen the layouts of the arguments and of the outputs. arg_nodes: the
        fx nodes of args, where they are not the current node's args (a call in place of the traced op). metas:
        the outputs' fake tensors, where they are not the current node's (a product computing part of it)."""
        node = self.current_node
        relaid = []   # whether kiln passes an argument laid out otherwise than when the graph was traced

        def to_ref(a, fx=None, matrix=False):
            if isinstance(a, (Lazy, View)):
                meta = fx.meta.get("val") if isinstance(fx, torch.fx.Node) and out_strides is None else None
                ref = self.share(fx, a, self.realize_as_traced(a, meta, target, matrix)).ref(meta)
                relaid.append(not isinstance(meta, torch.Tensor) or not same_strides(
                    ref.strides, [sym(s) for s in meta.stride()], ref.sizes))
                return ref
            if isinstance(a, (list, tuple)):
                fxs = fx if isinstance(fx, (list, tuple)) and len(fx) == len(a) else [None] * len(a)
                return type(a)(to_ref(x, f) for x, f in zip(a, fxs))
            if isinstance(a, float) and (a != a or abs(a) == float("inf")):
                return SpelledFloat(a)   # the wrapper spells floats with repr(): inf is no Python name
            return a
        fx_args = tuple(arg_nodes) if arg_nodes is not None else \
            tuple(node.args) if node is not None and len(node.args) == len(args) else [None] * len(args)
        fx_kwargs = node.kwargs if node is not None else {}
        args = tuple(to_ref(a, fx, k in MATMULS.get(target, ())) for k, (a, fx) in enumerate(zip(args, fx_args)))
        kwargs = {k: to_ref(v, fx_kwargs.get(k)) for k, v in kwargs.items()}
        meta = self.current_node.meta.get("val") if metas is None else metas
        returns_tuple = isinstance(meta, (list, tuple))
        metas = list(meta) if returns_tuple else [meta]
        strides = out_strides or (any(relaid) and propagated_strides(meta, target, args, kwargs)) or \
            [[sym(s) for s in m.stride()] if isinstance(m, torch.Tensor) else None for m in metas]
        outputs = [ir.Buffer(self.new_name(), ir.Layout(m.dtype, m.device, [sym(s) for s in m.shape], st))
                   if isinstance(m, torch.Tensor) else None for m, st in zip(metas, strides)]
        # a library call's output layout may follow its arguments', which kiln may have laid out otherwise than
        # the trace did: unless kiln fixed the layouts itself, the wrapper checks what the call returned
        kernel = ir.ExternKernel(self.new_name("extern"), target, args, kwargs, outputs, returns_tuple, fallback,
                                 origins=(str(target),),
                                 check_strides=out_strides is None and target not in LAYOUT_AGNOSTIC)
        self.buffers.append(kernel)
        views = [View(o, o.layout.sizes, o.layout.strides) if o is not None else None for o in outputs]
        return views if returns_tuple else views[0]

    def share(self, fx, value, realized):
        """realized, which now also stands for fx's value in the rest of the graph: later users of a
        value computed for a library call load it instead of computing it again."""
        if isinstance(value, Lazy) and isinstance(fx, torch.fx.Node) and self.env.get(fx) is value:
            self.env[fx] = realized
        return realized

    def realize_as_traced(self, value, meta, target, matrix=False):
        """value as a buffer laid out as the traced argument `meta` was (row-major where unknown), gaps and
        broadcasts included: a library call may need them. Memory-efficient attention reads a bias whose rows
        the graph padded to 16 bytes and expanded over the batch (Swin's training step failed "attn_bias is not
        correctly aligned" on a densely packed copy)."""
        strides = dense_meta_strides(meta, value.sizes) or traced_meta_strides(meta, value.sizes)
        if isinstance(value, View) and (strides is None or target in LAYOUT_AGNOSTIC):
            return value
        strides = strides or ir.contiguous_strides(value.sizes)
        broadcast = [d for d, (st, n) in enumerate(zip(strides, value.sizes)) if st == 0 and n != 1]
        if isinstance(value, Lazy) and matrix:   # (a matrix computed for this matmul alone)
            rank = len(value.sizes)
            strides = aligned_layout(strides, value.sizes, value.dtype, value.device, (rank - 2, rank - 1)) or strides
        if not broadcast:
            return self.realize_strided(value, strides)
        if isinstance(value, View) and same_strides(value.strides, strides, value.sizes):
            return value

        def one_copy(idx):   # the value at index 0 of each broadcast dim
            return value.load([sympy.Integer(0) if d in broadcast else i for d, i in enumerate(idx)])
        sizes = [1 if d in broadcast else n for d, n in enumerate(value.sizes)]
        copy = self.realize(Lazy(sizes, value.dtype, value.device, one_copy, value.opcount, value.origins), strides)
        return View(copy.buffer, list(value.sizes), strides, copy.offset)

    def realize_strided(self, value, strides):
        """value as a buffer with these strides: a copy if it is a view laid out otherwise. The copy of a frozen
        constant is made now, once (a convolution's channels-last weight), not by the wrapper at every call."""
        if isinstance(value, View):
            live = [(a, b) for a, b, s in zip(value.strides, strides, value.sizes) if s != 1]
            if all(sympy.expand(a - b) == 0 for a, b in live):
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

    def frozen_view(self, value):
        """The real tensor that value, a view of a frozen constant with static sizes, reads; else None."""
        if not isinstance(value, View) or value.buffer.name not in self.frozen or \
                not all(isinstance(x, sympy.Integer) for x in (*value.sizes, *value.strides, value.offset)):
            return None
        tensor = self.frozen[value.buffer.name][1]
        with unset_fake_temporarily():
            return torch.as_strided(tensor, static_ints(value.sizes), static_ints(value.strides),
                                    tensor.storage_offset() + int(value.offset))

    def made_from_frozen(self, value, remake, kind):
        """The name of something made now from value (a view of a frozen constant), which remake(view) makes
        again where the constant is computed again (kiln.freezing.Constants.refresh)."""
        name = f"{FROZEN_PREFIX}{kind}_{len(self.frozen) + len(self.relaid)}"
        self.relaid[name] = (value.buffer.name, static_ints(value.sizes), static_ints(value.strides),
                             int(value.offset), remake)
        return name

    def fallback(self, target, args, kwargs, why="no lowering for"):
        if not isinstance(target, torch._ops.OpOverload):
            raise LoweringError(f"cannot lower {target}")
        self.fallback_ops.append(str(target))
        log.info("kiln: %s %s; it runs eagerly inside the compiled graph", why, target)
        result = self.extern(target, args, kwargs, fallback=True)
        if any(r.alias_info is not None for r in target._schema.returns):
            self.buffers[-1].target = unaliased(target)
        return result


# library calls whose outputs are row-major whatever their inputs' layouts
LAYOUT_AGNOSTIC = set(MATMULS)


def replay_views(views, base_view, base_meta):
    """The meta tensor that the view ops in views (outermost first) give on base_meta's sizes laid out as
    base_view; None where a size is symbolic, an op reads another node (a size), or the views do not apply to
    that layout (a view the traced layout allowed)."""
    strides = static_ints(base_view.strides)
    if strides is None or static_ints(base_view.sizes) is None or any(v.all_input_nodes[1:] for v in views):
        return None
    t = torch.empty_strided(static_ints(base_view.sizes), strides, dtype=base_meta.dtype, device="meta")
    try:
        for v in reversed(views):
            t = v.target(t, *v.args[1:], **v.kwargs)
    except RuntimeError:
        return None
    return t


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


def propagated_strides(meta, target, args, kwargs):
    """The strides of target's outputs for the arguments as kiln lays them out, found by running it on fake
    tensors of those layouts; None where the sizes are symbolic or the op cannot run on fake tensors (the
    wrapper then checks the layout the call returns). Only a torch op (or an OpThen of one) runs there: kiln's
    runtime functions may launch kernels of its own (its Triton matmul, the aligned-rows blocks' transposed
    copy), which would write through a fake tensor's null pointer."""
    first = meta[0] if isinstance(meta, (list, tuple)) and meta else meta
    fake_mode = getattr(first, "fake_mode", None)
    refs = list(ir.tensor_refs((args, kwargs)))
    op = target.op if isinstance(target, OpThen) else target
    if fake_mode is None or not isinstance(op, torch._ops.OpOverload) or \
            not all(static_ints(r.sizes) is not None and static_ints(r.strides) is not None for r in refs):
        return None

    def fake(a):
        if isinstance(a, ir.TensorRef):
            lay = a.buffer.layout   # (the offset does not change an output's layout)
            return torch.empty_strided(static_ints(a.sizes), static_ints(a.strides), dtype=lay.dtype,
                                       device=lay.device)
        if isinstance(a, (list, tuple)):
            return type(a)(fake(x) for x in a)
        return int(a) if isinstance(a, sympy.Integer) else a
    try:
        with fake_mode:
            result = target(*fake(args), **{k: fake(v) for k, v in kwargs.items()})
    except Exception:
        return None
    results = list(result) if isinstance(result, (list, tuple)) else [result]
    return [[sym(s) for s in r.stride()] if isinstance(r, torch.Tensor) else None for r in results]


def tag_origins(result, target, args, new_buffers):
    """Values and buffers remember the ATen ops (target) inlined into them, to name kernels and explain them."""
    lazies = [a for a in args if isinstance(a, Lazy) and a.origins]
    name = getattr(getattr(target, "overloadpacket", None), "__name__", str(target))
    for value in result if isinstance(result, (list, tuple)) else [result]:   # max_pool's values and indices too
        if isinstance(value, Lazy):
            value.origins = tuple(dict.fromkeys([o for a in lazies for o in a.origins] + list(value.origins) + [name]))
    unnamed = [b for b in new_buffers if isinstance(b, ir.ComputedBuffer) and not b.origins]
    arg_reads = [(a, reads_of(a)) for a in lazies] if unnamed else []
    for b in unnamed:
        # the ops of the arguments it reads: a conv weight's relayout inlines none of the activation's
        seen = [o for a, reads in arg_reads if reads & b.reads() for o in a.origins]
        b.origins = tuple(dict.fromkeys(seen + [name]))
    return result


SCALAR_FUNCTIONS = {
    operator.add: lambda a, b: a + b, operator.sub: lambda a, b: a - b, operator.mul: lambda a, b: a * b,
    operator.floordiv: lambda a, b: ir.FloorDiv(a, b), operator.truediv: lambda a, b: sympy.sympify(a) / b,
    operator.neg: lambda a: -a, operator.mod: lambda a, b: sympy.Mod(a, b),
    aten.sym_size.int: lambda x, d: x.sizes[d], aten.sym_stride.int: lambda x, d: x.strides[d],
    aten.sym_numel.default: lambda x: product(x.sizes),
    aten.sym_storage_offset.default: lambda x: x.offset,
}
for _name in ("sym_float", "sym_int", "sym_max", "sym_min", "sym_sqrt", "sym_not"):
    _fn = getattr(torch, _name, None)
    if _fn is not None:
        SCALAR_FUNCTIONS[_fn] = {"sym_float": lambda a: a, "sym_int": lambda a: a, "sym_max": sympy.Max,
                                 "sym_min": sympy.Min, "sym_sqrt": sympy.sqrt, "sym_not": sympy.Not}[_name]


def touches_complex(node):
    """Whether an FX node reads or makes complex tensors, which kiln's code generators have no types for."""
    vals = [node.meta.get("val")] + [a.meta.get("val") for a in node.all_input_nodes]
    return any(isinstance(v, torch.Tensor) and v.is_complex() for v in torch.utils._pytree.tree_leaves(vals))


# The first effect token of a graph and the sink of its last ones, where AOTAutograd makes them inside the graph
# (capture's unlift_effect_tokens): the tokens only order the effectful ops, as lower_with_effects passes them on
EFFECT_TOKEN_ENDS = (torch.ops.prims._make_token.default, torch.ops.prims._sink_tokens.default)


def lower_with_effects(low, token, op, *args, **kwargs):
    """An op with side effects (linalg's error checks, prints), threaded by a token: an eager call in
    program order, a fallback unless it is a library call. Only ops that return nothing; for the others
    the graph falls back."""
    meta = low.current_node.meta.get("val")
    if not isinstance(op, torch._ops.OpOverload) or not isinstance(meta, (list, tuple)) or \
            any(m is not None for m in meta[1:]):
        raise LoweringError(f"cannot lower with_effects of {op}")

    def ref(a):
        if isinstance(a, (Lazy, View)):
            return low.realize(a).ref()
        return type(a)(ref(x) for x in a) if isinstance(a, (list, tuple)) else a
    fallback = op not in LIBRARY_CALLS
    if fallback:
        low.fallback_ops.append(str(op))
        log.info("kiln: no lowering for %s; it runs eagerly inside the compiled graph", op)
    low.buffers.append(ir.ExternKernel(low.new_name("extern"), op, ref(tuple(args)),
                                       {k: ref(v) for k, v in kwargs.items()}, [None], False, fallback,
                                       origins=(str(op),)))
    return (token,) + (None,) * (len(meta) - 1)


class Seeds:
    """The extern drawing a graph's random seeds at each call, from torch's default generator of the device:
    torch.manual_seed makes runs repeatable."""

    def __init__(self, device):
        self.device, self.count = device, 0

    def __call__(self):
        return torch.randint(2 ** 31 - 1, (self.count,), dtype=torch.int64, device=self.device)

    def __repr__(self):
        return f"random seeds ({self.count})"


class Constant:
    """A graph constant (torch.tensor(...) in traced code), materialized by the wrapper: a fresh copy
    per call, since the wrapper may reuse a dead buffer's memory for later results."""

    def __init__(self, value):
        self.value = value

    def __call__(self):
        return self.value.clone()

    def __repr__(self):
        return f"constant({str(self.value.dtype).replace('torch.', '')}{list(self.value.shape)})"


def constant_value(low, value):
    """A one-element constant is inlined into kernels, an empty one (a language model's empty key cache,
    concatenated with the keys) has nothing to read; a larger one is an extern the wrapper runs."""
    sizes = [sym(s) for s in value.shape]
    with unset_fake_temporarily():   # lowering runs under AOTAutograd's fake mode; value is real
        if value.numel() <= 1 and not value.is_complex():
            scalar = value.item() if value.numel() else 0
            return Lazy(sizes, value.dtype, value.device, lambda idx: ops.constant(scalar, value.dtype), 1)
        strides = value.clone().stride()
    layout = ir.Layout(value.dtype, value.device, sizes, [sym(s) for s in strides])
    buf = ir.Buffer(low.new_name(), layout)
    low.buffers.append(ir.ExternKernel(low.new_name("extern"), Constant(value), (), {}, [buf], False, False,
                                       origins=("constant",)))
    return View(buf, buf.layout.sizes, buf.layout.strides)


class SpelledFloat(float):
    """A non-finite float whose repr() is valid Python, for extern arguments (cdist's p=inf)."""

    def __repr__(self):
        return f"float('{float(self)}')"
