"""Lowering: each ATen op of an AOT graph becomes IR.

Values flow through the graph in two forms:
  Lazy     a pointwise body not yet stored anywhere; consumers inline it;
  View     a strided window on a Buffer (an input, a computed buffer or an extern output).
Views (view, permute, expand, slice, ...) are index transforms, so they never copy.
`LOWERINGS` maps an ATen op to a small function; ops missing from it become eager fallbacks.
"""
import contextlib
import dataclasses
import functools
import itertools
import logging
import math
import operator

import sympy
import torch
from torch._prims_common import (ELEMENTWISE_TYPE_PROMOTION_KIND, elementwise_dtypes,
                                 is_non_overlapping_and_dense_or_false)
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils.checkpoint import CheckpointPolicy

from kiln import ir
from kiln.ir import ops, product, sym

aten = torch.ops.aten
prims = torch.ops.prims
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


EQUALITY = (aten.eq.Tensor, aten.ne.Tensor)


def compared_for_equality(n):
    """Whether every user of n must read the same bits of it: n has several users and one compares it for
    equality (x == max(x) in max's gradient), or the backward compares it (capture.partition marks it saved).
    Each user's recomputed copy could round otherwise: a C++ loop's vectorized expm1 against its scalar tail."""
    if n.meta.get("recompute") == CheckpointPolicy.MUST_SAVE:
        return True
    return len(n.users) > 1 and any(u.target in EQUALITY for u in n.users)


class LoweringError(Exception):
    pass


EMPTY_REDUCTION = {"sum": 0, "prod": 1, "any": False, "all": True}


@dataclasses.dataclass(eq=False)
class Lazy:
    sizes: list
    dtype: torch.dtype
    device: torch.device
    loader: object
    opcount: int = 1
    origins: tuple = ()
    strides: list = None      # the layout eager gives this value, used if it is ever stored

    def load(self, idx):
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
        in kiln's index arithmetic, since libraries read it: the traced argument's (eager's), else the span of
        the others. (cuDNN attention's backward wants its [B, H, N, 1] logsumexp's last stride to be 1.)"""
        span = sympy.Max(1, *[st * s for st, s in zip(self.strides, self.sizes) if s != 1])
        eager = static_ints([sym(s) for s in traced.stride()]) if isinstance(traced, torch.Tensor) and \
            traced.dim() == len(self.sizes) else None
        strides = [st if s != 1 else eager[d] if eager else span
                   for d, (st, s) in enumerate(zip(self.strides, self.sizes))]
        return ir.TensorRef(self.buffer, list(self.sizes), strides, self.offset)


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
        self.fallback_ops = []
        self.rng_seeds = []           # sympy symbols the wrapper binds to fresh seeds each call
        self.float_scalars = {}       # symbol -> a non-integer expression of sizes, which the wrapper computes
        self.index_checks = {}        # kernel name -> (its site number, its ops): kernels that check indices
        self.size_hints = {}          # symbolic size name -> its value in the traced example (see size_hint)
        self._names = 0
        self.current_node = None

    def buffer(self, name):
        """The graph input or computed buffer of that name."""
        for b in self.graph_inputs:
            if isinstance(b, ir.InputBuffer) and b.name == name:
                return b
        for b in self.buffers:
            for o in (b.outputs if isinstance(b, ir.ExternKernel) else [b]):
                if o is not None and o.name == name:
                    return o
        raise KeyError(name)

    def buffer_dtype(self, name):
        return torch.int64 if name == ir.INDEX_FLAGS else self.buffer(name).dtype

    def size_hint(self, expr):
        """expr's value if static, else its value at the sizes the graph was traced with (None where a symbol has
        no hint): for tile sizes, and for sizes the trace found to be 1 (broadcasts)."""
        expr = sympy.sympify(expr)
        hints = {s: self.size_hints[s.name] for s in expr.free_symbols if s.name in self.size_hints}
        return ir.static_numel([expr.xreplace(hints)])

    def new_name(self, prefix="buf"):
        self._names += 1
        return f"{prefix}{self._names}"

    @contextlib.contextmanager
    def in_effect(self):
        """current() is this graph: while it is lowered, and while the scheduler and code generators run the
        loaders of its buffers, which read its size hints (broadcasts)."""
        _active.append(self)
        try:
            yield self
        finally:
            _active.pop()

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
                                                              self.computed_reads(value) > REALIZE_SHARED_READS)):
            value = self.realize(value, self.strides_for_users(n, value))
        return value

    def strides_for_users(self, n, value):
        """The layout to store a value in: the channels-last one that a convolution reading it will run in,
        where one does (its other users read any layout). Stored as eager lays it out, it would be copied
        for the convolution, and a training step would save both copies for its backward."""
        if any(u.target is aten.convolution.default and u.args[0] is n and runs_channels_last(self, u.meta.get("val"))
               for u in n.users):
            return channels_last_strides(value.sizes)
        return None

    def computed_reads(self, value):
        """How many buffers computed in this graph a value reads (graph inputs stay alive regardless)."""
        inputs = {b.name for b in self.graph_inputs if isinstance(b, ir.InputBuffer)}
        return len(reads_of(value) - inputs)

    def placeholder(self, target, args, kwargs):
        val = self.current_node.meta["val"]
        given = self.example_inputs[len(self.graph_inputs)] if len(self.graph_inputs) < len(self.example_inputs) \
            else None
        if isinstance(val, torch.Tensor) and isinstance(given, torch.Tensor) and given.dim() == val.dim() and \
                static_ints(given.stride()) and static_ints(given.shape):   # (no guards on symbolic sizes)
            val = given
        self.record_hints([val] if isinstance(val, torch.SymInt) else
                          [*val.shape, *val.stride()] if isinstance(val, torch.Tensor) else [])
        if isinstance(val, torch.Tensor):
            buf = ir.InputBuffer(target, ir.Layout(val.dtype, val.device, [sym(s) for s in val.shape],
                                                   [sym(s) for s in val.stride()]), sym(val.storage_offset()))
            self.graph_inputs.append(buf)
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
            return constant_value(self, value)
        return value

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
        args, kwargs = torch.utils._pytree.tree_map(self.float_scalar, (args, kwargs))
        lowering = LOWERINGS.get(target) or LOWERINGS.get(getattr(target, "overloadpacket", None)) or \
            self.spelled_pointwise(target)
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
        from kiln.codegen import cpp, triton
        spelled = triton.target_ops() if self.on_triton(out.device) else cpp.CPP_OPS
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
        # bases before their views, so that a view of another output is that output's buffer seen so
        for i in sorted(range(len(vals)), key=lambda i: position.get(vals[i], -1)):
            eager_strides = self.eager_output_strides.get(i)
            self.graph_outputs[i] = self.view_of_input(vals[i], input_storages) or \
                self.view_of_output(vals[i], vals, eager_strides) or \
                self.output_value(args[0][i], vals[i], i >= saved_from, eager_strides)
        return self.graph_outputs

    @staticmethod
    def view_of_input(node, input_storages):
        """node as the view of a graph input it is in the trace (sharing the input's storage: input_storages maps
        each input's storage to it and its traced tensor), with its traced sizes, strides and offset. AOTAutograd
        regenerates such an output from the input with the sizes, strides and storage offset of the tensor kiln
        returns: a copy laid out otherwise named other elements, and x[:, 3::3].flatten(0) of a [1, 5] x came
        back as x[0, 0] (fuzz seed 271295)."""
        meta = node.meta.get("val") if isinstance(node, torch.fx.Node) and node.op != "placeholder" else None
        if not isinstance(meta, torch.Tensor) or meta.layout != torch.strided:
            return None
        inp, traced = input_storages.get(StorageWeakRef(meta.untyped_storage()), (None, None))
        if inp is None:
            return None
        return View(inp, [sym(n) for n in meta.shape], [sym(st) for st in meta.stride()],
                    sym(meta.storage_offset()) - sym(traced.storage_offset()))

    def view_of_output(self, node, vals, eager_strides=None):
        """node as a view of the buffer of an earlier output it is a view of (through view ops), as eager returns
        y and y.t(): sharing storage, not as a copy; None where it is not one, where that output is not laid out
        otherwise than traced and its static view ops cannot be replayed on its layout (the view's traced strides
        would read it wrongly; a base AOTAutograd regenerates views from is laid out as eager's,
        capture.intermediate_base_strides), or where the view's traced strides are not eager's (the base is a
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

    def keep_old_values(self, name):
        """Before graph input `name` is overwritten: values still to be used that read it are computed now."""
        dying = set(self.user_to_last_uses.get(self.current_node, ()))

        def kept(v):
            if isinstance(v, (list, tuple)):
                return type(v)(kept(x) for x in v)
            if not is_tensor(v) or name not in reads_of(v):
                return v
            return self.realize(v if isinstance(v, Lazy) else as_lazy(v))
        for fx in list(self.env):
            if fx not in dying:
                self.env[fx] = kept(self.env[fx])

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

    def extern(self, target, args, kwargs, fallback, out_strides=None):
        """`target(*args, **kwargs)` run by the wrapper; tensor outputs get eager's layouts, or out_strides.

        Tensor arguments get the layouts they had when the graph was traced: an op's output layout may
        follow its inputs' (attention, convolution), and the outputs' layouts are taken from the trace.
        With out_strides, the caller has chosen the layouts of the arguments and of the outputs."""
        node = self.current_node
        relaid = []   # whether kiln passes an argument laid out otherwise than when the graph was traced

        def to_ref(a, fx=None):
            if isinstance(a, (Lazy, View)):
                meta = fx.meta.get("val") if isinstance(fx, torch.fx.Node) and out_strides is None else None
                ref = self.share(fx, a, self.realize_as_traced(a, meta, target)).ref(meta)
                relaid.append(not isinstance(meta, torch.Tensor) or not same_strides(
                    ref.strides, [sym(s) for s in meta.stride()], ref.sizes))
                return ref
            if isinstance(a, (list, tuple)):
                fxs = fx if isinstance(fx, (list, tuple)) and len(fx) == len(a) else [None] * len(a)
                return type(a)(to_ref(x, f) for x, f in zip(a, fxs))
            if isinstance(a, float) and (a != a or abs(a) == float("inf")):
                return SpelledFloat(a)   # the wrapper spells floats with repr(): inf is no Python name
            return a
        fx_args = tuple(node.args) if node is not None and len(node.args) == len(args) else [None] * len(args)
        fx_kwargs = node.kwargs if node is not None else {}
        args = to_ref(tuple(args), fx_args)
        kwargs = {k: to_ref(v, fx_kwargs.get(k)) for k, v in kwargs.items()}
        meta = self.current_node.meta.get("val")
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

    def realize_as_traced(self, value, meta, target):
        """value as a buffer laid out as the traced argument `meta` was (row-major where unknown), gaps and
        broadcasts included: a library call may need them. Memory-efficient attention reads a bias whose rows
        the graph padded to 16 bytes and expanded over the batch (Swin's training step failed "attn_bias is not
        correctly aligned" on a densely packed copy)."""
        strides = dense_meta_strides(meta, value.sizes) or traced_meta_strides(meta, value.sizes)
        if isinstance(value, View) and (strides is None or target in LAYOUT_AGNOSTIC):
            return value
        strides = strides or ir.contiguous_strides(value.sizes)
        broadcast = [d for d, (st, n) in enumerate(zip(strides, value.sizes)) if st == 0 and n != 1]
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
        """value as a buffer with these strides: a copy if it is a view laid out otherwise."""
        if isinstance(value, View):
            live = [(a, b) for a, b, s in zip(value.strides, strides, value.sizes) if s != 1]
            if all(sympy.expand(a - b) == 0 for a, b in live):
                return value
            value = as_lazy(value)
        return self.realize(value, strides)

    def fallback(self, target, args, kwargs):
        if not isinstance(target, torch._ops.OpOverload):
            raise LoweringError(f"cannot lower {target}")
        self.fallback_ops.append(str(target))
        log.info("kiln: no lowering for %s; it runs eagerly inside the compiled graph", target)
        result = self.extern(target, args, kwargs, fallback=True)
        if any(r.alias_info is not None for r in target._schema.returns):
            self.buffers[-1].target = unaliased(target)
        return result


# library calls whose outputs are row-major whatever their inputs' layouts
LAYOUT_AGNOSTIC = {aten.mm.default, aten.addmm.default, aten.bmm.default, aten.baddbmm.default}


def static_ints(exprs):
    """The expressions as a tuple of ints if they are all numbers, else None."""
    return tuple(int(e) for e in exprs) if all(isinstance(e, (int, sympy.Integer)) for e in exprs) else None


def dense_meta_strides(meta, sizes):
    """The traced tensor's strides if it matches sizes and is dense (a permutation of row-major), else None."""
    if isinstance(meta, torch.Tensor) and [sym(s) for s in meta.shape] == list(sizes):
        try:
            if is_non_overlapping_and_dense_or_false(meta):
                return [sym(s) for s in meta.stride()]
        except Exception:   # symbolic strides we cannot decide on
            pass
    return None


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
    return len(a) == len(b) and all(n == 1 or sympy.expand(x - y) == 0 for x, y, n in zip(a, b, sizes))


def replay_views(views, base_view, base_meta):
    """The meta tensor that the view ops in views (outermost first) give on base_meta's sizes laid out as
    base_view; None where a size is symbolic or an op reads another node."""
    strides = static_ints(base_view.strides)
    if strides is None or static_ints(base_view.sizes) is None or any(
            isinstance(a, torch.fx.Node) for v in views for a in (*v.args[1:], *v.kwargs.values())):
        return None
    t = torch.empty_strided(static_ints(base_view.sizes), strides, dtype=base_meta.dtype, device="meta")
    for v in reversed(views):
        t = v.target(t, *v.args[1:], **v.kwargs)
    return t


def propagated_strides(meta, target, args, kwargs):
    """The strides of target's outputs for the arguments as kiln lays them out, found by running it on fake
    tensors of those layouts; None where the sizes are symbolic or the op cannot run on fake tensors (the
    wrapper then checks the layout the call returns)."""
    first = meta[0] if isinstance(meta, (list, tuple)) and meta else meta
    fake_mode = getattr(first, "fake_mode", None)
    refs = list(ir.tensor_refs((args, kwargs)))
    if fake_mode is None or not all(static_ints(r.sizes) is not None and static_ints(r.strides) is not None
                                    for r in refs):
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


def meta_strides(meta, sizes):
    """Eager's strides when the meta tensor matches and is dense, else row-major."""
    return dense_meta_strides(meta, sizes) or ir.contiguous_strides(sizes)


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


_active = []


def current():
    """The GraphLowering being run; lowerings read the current FX node from it."""
    return _active[-1]


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


def reads_of(value):
    """The buffers a value loads."""
    if isinstance(value, View):
        return {value.buffer.name}
    probe = ir.ComputedBuffer("probe", ir.Layout(value.dtype, value.device, list(value.sizes),
                                                 ir.contiguous_strides(value.sizes)), node=ir.Pointwise(value.sizes, value.load))
    return probe.reads()


def opmath(dtype):
    return torch.float32 if ir.dtype_is_low_precision(dtype) else dtype


def broadcasts(s, full):
    """Whether a dim of size s is broadcast against one of size full: s is 1, or a symbolic size that the trace
    found to be 1 where full is another size (x[2::3] of a 5-long x against x: torch broadcast it and guarded
    (s0 + 1) // 3 == 1; read as s0 long, it read past x's end)."""
    return s == 1 or (isinstance(s, sympy.Expr) and bool(s.free_symbols) and sympy.expand(s - full) != 0
                      and current().size_hint(s) == 1)


def broadcast_index(idx, sizes, full_sizes):
    """The index into a tensor of sizes, right-aligned under an index idx over full_sizes."""
    lead = len(full_sizes) - len(sizes)
    return [sympy.Integer(0) if broadcasts(s, n) else i for i, s, n in zip(idx[lead:], sizes, full_sizes[lead:])]


def as_value(x, idx, out_sizes, dtype):
    """x (tensor or scalar) at output index idx, broadcast and cast to dtype."""
    if is_tensor(x):
        v = x.load(broadcast_index(idx, x.sizes, out_sizes))
        return v if x.dtype == dtype else ops.to_dtype(v, dtype, x.dtype)
    if isinstance(x, sympy.Expr) and not x.is_number:
        src = torch.int64 if x.is_integer else torch.float64   # (a float is a symbol: see float_scalar)
        return ops.to_dtype(ops.index_expr(x, src), dtype, src)
    return ops.constant(x, dtype)


def promoted(*args, kind=ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT):
    """The dtype eager computes in, from type promotion over tensors and scalars."""
    def fake(a):
        if is_tensor(a):
            return torch.empty([1] * len(a.sizes), dtype=a.dtype, device="meta")
        if isinstance(a, sympy.Expr):
            return 1 if a.is_integer else 1.0
        return a
    fakes = [fake(a) for a in args if a is not None]
    return elementwise_dtypes(*fakes, type_promotion_kind=kind)[0]


def pointwise_value(out, fn, *args, compute=None):
    """A Lazy computing fn over broadcast args in `compute` dtype, then cast to the output dtype."""
    sizes = [sym(s) for s in out.shape]
    compute = compute or (opmath(out.dtype) if out.dtype != torch.bool else promoted(*args))
    tensors = [a for a in args if is_tensor(a)]

    def loader(idx):
        result = fn(*[as_value(a, idx, sizes, compute) if a is not None else None for a in args])
        produced = getattr(fn, "result_dtype", None) or compute
        return result if produced == out.dtype else ops.to_dtype(result, out.dtype, produced)

    return Lazy(sizes, out.dtype, out.device, loader, 1 + sum(t.opcount for t in tensors))


def boolean(fn):
    fn.result_dtype = torch.bool
    return fn


def pointwise(targets, fn):
    """Register elementwise ops: `fn` takes ops values (and keyword scalars) and returns one."""
    def lower(out, *args, **kwargs):
        def body(*values):
            return fn(*values, **kwargs)
        body.result_dtype = getattr(fn, "result_dtype", None)
        return pointwise_value(out, body, *args)
    register(*targets)(lower)


def ops_fn(name):
    return lambda *values: getattr(ops, name)(*values)


UNARY = ["abs", "neg", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos",
         "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc",
         "lgamma", "floor", "ceil", "trunc", "sigmoid", "reciprocal", "bitwise_not", "relu", "round"]
for _name in UNARY:
    pointwise([getattr(aten, _name).default], ops_fn(_name))
pointwise([aten.logical_not.default], boolean(lambda x: ops.logical_not(x)))
pointwise([aten.isnan.default], boolean(lambda x: ops.isnan(x)))
pointwise([aten.isinf.default], boolean(lambda x: ops.isinf(x)))
pointwise([aten.signbit.default], boolean(lambda x: ops.signbit(x)))


@register(aten.sign.default)
def lower_sign(out, x):
    """(x > 0) - (x < 0), as eager computes it: NaN and -0.0 give 0."""
    if out.dtype == torch.bool:
        return x
    compute = opmath(out.dtype)

    def fn(v):
        zero = ops.constant(0, compute)
        return ops.sub(ops.to_dtype(ops.gt(v, zero), compute, torch.bool),
                       ops.to_dtype(ops.lt(v, zero), compute, torch.bool))
    return pointwise_value(out, fn, x, compute=compute)

BINARY = {"mul": "mul", "maximum": "maximum", "minimum": "minimum", "atan2": "atan2", "remainder": "remainder",
          "fmod": "fmod", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
          "bitwise_xor": "bitwise_xor", "bitwise_left_shift": "lshift", "bitwise_right_shift": "rshift",
          "copysign": "copysign", "hypot": "hypot", "floor_divide": "floordiv"}
for _aten_name, _op in BINARY.items():
    packet = getattr(aten, _aten_name)
    pointwise([getattr(packet, o) for o in packet.overloads() if "out" not in o], ops_fn(_op))


def shares_out(node):
    """Whether an FX mul node is mask * (grad / mask.sum()), evenly_distribute_backward's traced spelling (the
    backward of max(), min(), median()). Eager's CPU kernel puts the share into the selected elements only, so
    the others stay 0 even where the share is NaN or inf; NaN * 0 would spread a NaN grad to every element.
    (amax's backward, (grad / mask.sum(dims, keepdim)) * mask, multiplies in eager too: it keeps its mul.)"""
    mask, share = node.args
    total = share.args[1] if isinstance(share, torch.fx.Node) and share.target is aten.div.Tensor else None
    return (isinstance(mask, torch.fx.Node) and getattr(mask.meta.get("val"), "dtype", None) == torch.bool
            and isinstance(total, torch.fx.Node) and total.target in (aten.sum.dim_IntList, aten.sum.default)
            and total.args[0] is mask and total.args[1:2] in ((), ([],), (None,)) and len(total.args) <= 2
            and not total.kwargs.get("keepdim"))   # a sum over every dim


@register(aten.mul.Tensor)
def lower_mul(out, a, b):
    if not shares_out(current().current_node):
        return pointwise_value(out, ops.mul, a, b)
    compute = opmath(out.dtype)
    return pointwise_value(out, lambda m, v: ops.where(ops.ne(m, ops.constant(0, compute)), v,
                                                       ops.constant(0, compute)), a, b)


for _aten_name in ("eq", "ne", "lt", "le", "gt", "ge"):
    packet = getattr(aten, _aten_name)
    pointwise([getattr(packet, o) for o in packet.overloads() if "out" not in o], boolean(ops_fn(_aten_name)))


def _logical(name):
    """Logical ops see their operands as bools (nonzero, NaN included, is true): xor of 0.5 and 0.3 is false."""
    def lower(out, *args):
        return pointwise_value(out, boolean(ops_fn(name)), *args, compute=torch.bool)
    return lower


for _aten_name in ("logical_and", "logical_or", "logical_xor"):
    packet = getattr(aten, _aten_name)
    register(*[getattr(packet, o) for o in packet.overloads() if "out" not in o])(_logical(_aten_name))


SMALL_POWERS = {2: lambda x: ops.mul(x, x), 3: lambda x: ops.mul(ops.mul(x, x), x), 1: lambda x: x,
                0.5: lambda x: ops.sqrt(x), -0.5: lambda x: ops.rsqrt(x), -1: lambda x: ops.reciprocal(x)}


@register(aten.pow.Tensor_Tensor, aten.pow.Tensor_Scalar, aten.pow.Scalar)
def lower_pow(out, base, exponent):
    """Common constant exponents become multiplies and roots: cheaper than pow, and exact where pow is."""
    if is_tensor(base) and not is_tensor(exponent) and exponent in SMALL_POWERS and (
            out.dtype.is_floating_point or exponent in (1, 2, 3)):
        return pointwise_value(out, SMALL_POWERS[exponent], base)
    return pointwise_value(out, lambda a, b: ops.pow(a, b), base, exponent)


@register(aten.add.Tensor, aten.add.Scalar, aten.sub.Tensor, aten.sub.Scalar)
def lower_add_sub(out, a, b, alpha=1):
    op = "add" if "add" in str(current().current_node.target) else "sub"
    return pointwise_value(out, lambda x, y, *al: getattr(ops, op)(x, y if not al else ops.mul(y, al[0])), a, b,
                           *([] if alpha == 1 else [alpha]))


@register(aten.div.Tensor, aten.div.Scalar, aten.div.Tensor_mode, aten.div.Scalar_mode)
def lower_div(out, a, b, rounding_mode=None):
    if rounding_mode is None:
        return pointwise_value(out, ops.truediv, a, b)
    compute = promoted(a, b)
    cpu = out.device.type == "cpu"
    single_divisor = not is_tensor(b) or ir.static_numel(b.sizes) == 1
    # eager's bf16/fp16 kernels compute each step in the dtype: the CPU's floor and trunc division and CUDA's trunc
    # (CUDA's floor division computes in float32, as kiln's helper). CPU eager divides by a single value (a scalar,
    # a 0-dim or one-element tensor) in float32 instead, with the value as given (a float32 0-dim tensor beside a
    # bf16 one is not rounded), and rounds once
    in_the_dtype = (rounding_mode == "trunc" or cpu) and not (cpu and single_divisor)
    if ir.dtype_is_low_precision(out.dtype) and in_the_dtype:
        op = functools.partial(floordiv_rounded if rounding_mode == "floor" else truncdiv_rounded, dtype=out.dtype)
    else:
        op = ops.floordiv if rounding_mode == "floor" else ops.truncdiv
    return pointwise_value(out, op, a, b, compute=opmath(compute))


def rounded_to(dtype):
    return lambda v: ops.to_dtype(ops.to_dtype(v, dtype), opmath(dtype))


def truncdiv_rounded(x, y, dtype):
    """x / y truncated, as eager's bf16/fp16 kernel: the quotient rounded to the dtype first (112.78 -> 113)."""
    return ops.trunc(rounded_to(dtype)(ops.truediv(x, y)))


def floordiv_rounded(x, y, dtype):
    """x // y as eager's bf16/fp16 CPU kernel: div_floor_floating (the float formula of the kiln_floordiv
    helpers), each step computed in the dtype's arithmetic."""
    r, f = rounded_to(dtype), opmath(dtype)
    zero, one = ops.constant(0.0, f), ops.constant(1.0, f)
    mod = ops.fmod(x, y)   # exact
    div = r(ops.truediv(r(ops.sub(x, mod)), y))
    mod_sign_differs = ops.logical_and(ops.ne(mod, zero), ops.ne(ops.lt(y, zero), ops.lt(mod, zero)))
    div = ops.where(mod_sign_differs, r(ops.sub(div, one)), div)
    q = ops.floor(div)
    q = ops.where(ops.gt(ops.sub(div, q), ops.constant(0.5, f)), r(ops.add(q, one)), q)
    quotient = r(ops.truediv(x, y))
    q = ops.where(ops.eq(div, zero), ops.copysign(zero, quotient), q)
    return ops.where(ops.eq(y, zero), quotient, q)


@register(aten.where.self, aten.where.ScalarSelf, aten.where.ScalarOther, aten.where.Scalar)
def lower_where(out, cond, a, b):
    compute = opmath(out.dtype)
    sizes = [sym(s) for s in out.shape]
    return Lazy(sizes, out.dtype, out.device, lambda idx: ops.to_dtype(ops.where(
        as_value(cond, idx, sizes, torch.bool), as_value(a, idx, sizes, compute), as_value(b, idx, sizes, compute)),
        out.dtype, compute), 1 + sum(x.opcount for x in (cond, a, b) if is_tensor(x)))


@register(aten.clamp.default, aten.clamp.Tensor, aten.clamp_min.default, aten.clamp_max.default,
          aten.clamp_min.Tensor, aten.clamp_max.Tensor, aten.hardtanh.default)
def lower_clamp(out, x, lo=None, hi=None):
    name = str(current().current_node.target)
    if "clamp_max" in name:
        lo, hi = None, lo
    if "hardtanh" in name:
        lo, hi = (-1.0 if lo is None else lo), (1.0 if hi is None else hi)

    def fn(v, *bounds):
        bounds = list(bounds)
        if lo is not None:
            v = ops.maximum(v, bounds.pop(0))
        if hi is not None:
            v = ops.minimum(v, bounds.pop(0))
        return v
    return pointwise_value(out, fn, x, *[b for b in (lo, hi) if b is not None])


@register(aten.alias.default)
def lower_alias(out, x):
    return x


@register(aten._to_copy.default, aten.clone.default, aten.lift_fresh_copy.default,
          prims.convert_element_type.default, aten.contiguous.default)
def lower_copy(out, x, *args, **kwargs):
    if not is_tensor(x) or out.device != x.device:
        return NotImplemented
    sizes = [sym(s) for s in out.shape]
    return Lazy(sizes, out.dtype, out.device, lambda idx: as_value(x, idx, sizes, out.dtype), x.opcount + 1)


@register(aten.copy.default)
def lower_functional_copy(out, dst, src, non_blocking=False):
    return lower_copy(out, src)


@register(aten.copy_.default)
def lower_copy_into_input(out, dst, src, non_blocking=False):
    """An input mutation that AOTAutograd keeps in the graph (batch norm's running stats): src is stored
    straight into the input's memory. The scheduler orders that store after every read of the old value."""
    g = current()
    whole = isinstance(dst, View) and isinstance(dst.buffer, ir.InputBuffer) and dst.offset == 0 and \
        list(dst.sizes) == list(dst.buffer.layout.sizes) and list(dst.strides) == list(dst.buffer.layout.strides)
    if not whole or not is_tensor(src) or src.device != dst.device:
        return NotImplemented
    sizes, name = list(dst.sizes), dst.buffer.name
    g.keep_old_values(name)

    def store(value):
        buf = ir.ComputedBuffer(g.new_name(), dst.buffer.layout, mutates=name, node=ir.Pointwise(
            sizes, lambda idx: as_value(value, idx, sizes, dst.dtype)))
        a = buf.analysis
        return buf if all(sympy.expand(e - a.store_index) == 0 for n, e in a.loads if n == name) else None
    # a value that reads the input elsewhere than where it is stored (a flip) is computed in full first
    buf = store(src) or store(g.realize(as_lazy(src)))
    g.buffers.append(buf)
    return View(buf, sizes, dst.strides)


@register(aten.full.default, aten.scalar_tensor.default, aten.full_like.default, aten.zeros.default,
          aten.ones.default, aten.empty.memory_format, aten.empty_strided.default, aten.zeros_like.default,
          aten.ones_like.default, aten.empty_like.default, aten.new_zeros.default, aten.new_ones.default,
          aten.new_full.default, aten.new_empty.default, aten.new_empty_strided.default)
def lower_full(out, *args, **kwargs):
    name = current().current_node.target.overloadpacket.__name__
    value = {"zeros": 0, "ones": 1, "zeros_like": 0, "ones_like": 1, "new_zeros": 0, "new_ones": 1}.get(name, 0)
    if name in ("full", "new_full", "full_like"):
        value = args[1] if name == "full" or name == "full_like" else args[2]
    elif name == "scalar_tensor":
        value = args[0]
    sizes = [sym(s) for s in out.shape]
    return Lazy(sizes, out.dtype, out.device, lambda idx: as_value(value, idx, sizes, out.dtype), 1)


@register(prims.iota.default)
def lower_iota(out, length, *, start, step, dtype, device, requires_grad=False):
    return Lazy([sym(length)], dtype, out.device,
                lambda idx: ops.index_expr(start + idx[0] * step, dtype), 1)


@register(aten.rand.default, aten.randn.default, aten.rand_like.default, aten.randn_like.default)
def lower_rand(out, *args, **kwargs):
    low = current()
    seed = sympy.Symbol(f"seed{len(low.rng_seeds)}", integer=True, nonnegative=True)
    low.rng_seeds.append(seed)
    sizes = [sym(s) for s in out.shape]
    op = ops.randn if "randn" in str(low.current_node.target) else ops.rand
    return Lazy(sizes, out.dtype, out.device, lambda idx: ops.to_dtype(
        op(seed, ir.strided_index(idx, ir.contiguous_strides(sizes))), out.dtype, torch.float32), 1)


# ---------------------------------------------------------------- views: index transforms

def view_of(x, sizes, reindex):
    """x seen through reindex(new_idx) -> old_idx. Strided stays strided when the map is affine."""
    sizes = list(sizes)
    if isinstance(x, View):
        new = ir.index_vars("v", len(sizes))
        expr = ir.strided_index(reindex(new), x.strides, x.offset) if x.sizes else x.offset
        # a dim of size 1 is only ever indexed at 0 (a slice of one q out of q, k, v stays a view)
        expr = sympy.sympify(expr).xreplace({v: sympy.Integer(0) for v, s in zip(new, sizes) if s == 1})
        if expr.has(ir.FloorDiv, ir.ModularIndexing):   # a reshape across dims: fold what fits back together
            expr = ir.simplify_index(expr)
        strides = [expr.coeff(v) if s != 1 else sympy.Integer(0) for v, s in zip(new, sizes)]
        rest = sympy.expand(expr - sum(v * st for v, st in zip(new, strides)))
        if all(not rest.has(v) for v in new) and all(not st.has(*new) for st in strides):
            return View(x.buffer, sizes, strides, rest)
    return Lazy(sizes, x.dtype, x.device, lambda idx: x.load(reindex(idx)), x.opcount, x.origins)


def divides(a, b):
    """Whether a divides b, for sizes that may be symbolic."""
    num, den = sympy.fraction(sympy.cancel(sympy.sympify(b) / a))
    return den == 1


def reshape_index(new_sizes, old_sizes):
    """new_idx -> old_idx for a row-major reshape, group by group so that most dims map directly.

    Sizes whose products SymPy cannot match (symbolic sizes such as (a*b)//4 and a*b//((a*b)//4) from a
    dynamic view(-1, 4)) fall back to one group: the flat index over all new dims, unflattened into the old."""
    try:
        groups = _reshape_groups(new_sizes, old_sizes)
    except LoweringError:
        if all(ir.is_static(s) for s in list(new_sizes) + list(old_sizes)):
            raise
        groups = [(list(range(len(new_sizes))), list(range(len(old_sizes))))]

    def reindex(idx):
        old = [sympy.Integer(0)] * len(old_sizes)
        for gi, gj in groups:
            flat = ir.strided_index([idx[k] for k in gi], ir.contiguous_strides([new_sizes[k] for k in gi]))
            for k, v in zip(gj, ir.unflatten(flat, [old_sizes[k] for k in gj])):
                old[k] = v
        return old
    return reindex


def _reshape_groups(new_sizes, old_sizes):
    groups, i, j = [], 0, 0
    while i < len(new_sizes) or j < len(old_sizes):
        if i < len(new_sizes) and new_sizes[i] == 1:
            groups.append(([i], []))
            i += 1
            continue
        if j < len(old_sizes) and old_sizes[j] == 1:
            groups.append(([], [j]))
            j += 1
            continue
        if i == len(new_sizes) or j == len(old_sizes):
            raise LoweringError(f"cannot reshape {old_sizes} to {new_sizes}")
        gi, gj, pi, pj = [i], [j], new_sizes[i], old_sizes[j]
        i, j = i + 1, j + 1
        while pi != pj:   # grow the side whose product divides the other's
            if divides(pi, pj) and i < len(new_sizes):
                gi.append(i)
                pi, i = pi * new_sizes[i], i + 1
            elif j < len(old_sizes):
                gj.append(j)
                pj, j = pj * old_sizes[j], j + 1
            else:
                raise LoweringError(f"cannot reshape {old_sizes} to {new_sizes}")
        groups.append((gi, gj))
    return groups


@register(aten.view.default, aten._unsafe_view.default, aten.reshape.default, aten.view_copy.default)
def lower_view(out, x, shape):
    sizes = [sym(s) for s in out.shape]
    if ir.static_numel(sizes) == 0:   # nothing to load, and no reshape grouping to find
        return Lazy(sizes, out.dtype, out.device, lambda idx: ops.constant(0, out.dtype))
    return view_of(x, sizes, reshape_index(sizes, list(x.sizes)))


@register(aten.permute.default, aten.permute_copy.default)
def lower_permute(out, x, dims):
    dims = [d % max(len(x.sizes), 1) for d in dims]
    inverse = [dims.index(i) for i in range(len(dims))]
    return view_of(x, [x.sizes[d] for d in dims], lambda idx: [idx[inverse[i]] for i in range(len(dims))])


@register(aten.t.default, aten.transpose.int)
def lower_transpose(out, x, d0=0, d1=1):
    n = len(x.sizes)
    if n < 2:
        return x
    perm = list(range(n))
    perm[d0 % n], perm[d1 % n] = perm[d1 % n], perm[d0 % n]
    return lower_permute(out, x, perm)


@register(aten.expand.default, aten.expand_copy.default, aten.broadcast_to.default)
def lower_expand(out, x, shape, *, implicit=False):
    sizes = [sym(s) for s in out.shape]
    return view_of(x, sizes, lambda idx: broadcast_index(idx, x.sizes, sizes))


@register(aten.squeeze.dim, aten.squeeze.dims, aten.squeeze.default, aten.unsqueeze.default,
          aten.unsqueeze_copy.default, aten.squeeze_copy.dims)
def lower_squeeze(out, x, *dims):
    sizes = [sym(s) for s in out.shape]
    return view_of(x, sizes, reshape_index(sizes, list(x.sizes)))


@register(aten.slice.Tensor, aten.slice_copy.Tensor)
def lower_slice(out, x, dim=0, start=None, end=None, step=1):
    dim %= len(x.sizes)
    sizes = [sym(s) for s in out.shape]
    start = start or 0
    if isinstance(start, int) and start < 0:
        start = max(start + x.sizes[dim], 0) if x.sizes[dim].is_number else start + x.sizes[dim]
    return view_of(x, sizes, lambda idx: [i * step + start if d == dim else i for d, i in enumerate(idx)])


@register(aten.select.int, aten.select_copy.int)
def lower_select(out, x, dim, index):
    dim %= len(x.sizes)
    if isinstance(index, int) and index < 0:
        index = index + x.sizes[dim]
    return view_of(x, [sym(s) for s in out.shape], lambda idx: idx[:dim] + [index] + idx[dim:])


@register(aten.as_strided.default, aten.as_strided_copy.default)
def lower_as_strided(out, x, size, stride, storage_offset=None):
    """Offsets are absolute in the storage; a graph input's data pointer already points at its own offset."""
    base = current().realize(x)
    if storage_offset is None:
        offset = base.offset
    else:
        offset = sym(storage_offset) - getattr(base.buffer, "storage_offset", 0)
    return View(base.buffer, [sym(s) for s in size], [sym(s) for s in stride], offset)


@register(aten.split_with_sizes.default, aten.split.Tensor)
def lower_split(out, x, split_sizes, dim=0):
    dim %= len(x.sizes)
    starts, acc = [], 0
    for m in out:
        starts.append(acc)
        acc = acc + sym(m.shape[dim])
    return [view_of(x, [sym(s) for s in m.shape],
                    (lambda st: lambda idx: [i + st if d == dim else i for d, i in enumerate(idx)])(st))
            for m, st in zip(out, starts)]


@register(aten.unbind.int)
def lower_unbind(out, x, dim=0):
    dim %= len(x.sizes)
    return [view_of(x, [sym(s) for s in m.shape], (lambda k: lambda idx: idx[:dim] + [k] + idx[dim:])(k))
            for k, m in enumerate(out)]


# ---------------------------------------------------------------- data movement

@register(aten.cat.default)
def lower_cat(out, tensors, dim=0):
    """Each element loads from the one input whose range along dim holds it; the others are masked off."""
    sizes = [sym(s) for s in out.shape]
    dim %= len(sizes)
    parts = [t for t in tensors if is_tensor(t) and not (len(t.sizes) == 1 and t.sizes[0] == 0)]
    bounds, acc = [], sympy.Integer(0)
    for t in parts:
        bounds.append((acc, acc + t.sizes[dim]))
        acc = acc + t.sizes[dim]

    def loader(idx):
        pos = ops.index_expr(idx[dim], torch.int64)
        value = ops.constant(0, out.dtype)
        for k, (t, (start, end)) in enumerate(zip(parts, bounds)):
            conds = ([ops.ge(pos, ops.index_expr(start, torch.int64))] if k > 0 else []) + \
                    ([ops.lt(pos, ops.index_expr(end, torch.int64))] if k < len(parts) - 1 else [])
            shifted = [i - start if d == dim else i for d, i in enumerate(idx)]
            load = (lambda t=t, s=shifted: as_value(t, s, sizes, out.dtype))
            value = load() if not conds else ops.masked(all_of(conds), load, value)
        return value
    return Lazy(sizes, out.dtype, out.device, loader, 1 + sum(t.opcount for t in parts))


def all_of(conds):
    cond = conds[0]
    for c in conds[1:]:
        cond = ops.logical_and(cond, c)
    return cond


@register(aten.constant_pad_nd.default)
def lower_pad(out, x, pad, value=0):
    sizes = [sym(s) for s in out.shape]
    n = len(sizes)
    lows = [0] * n
    for k in range(len(pad) // 2):
        lows[n - 1 - k] = pad[2 * k]

    def loader(idx):
        src = [i - lo for i, lo in zip(idx, lows)]
        conds = []
        for d, (i, lo) in enumerate(zip(src, lows)):
            if lo != 0 or sizes[d] != x.sizes[d]:
                e = ops.index_expr(i, torch.int64)
                conds += [ops.ge(e, ops.constant(0, torch.int64)), ops.lt(e, ops.index_expr(x.sizes[d], torch.int64))]
        if not conds:
            return x.load(src)
        return ops.masked(all_of(conds), lambda: x.load(src), ops.constant(value, out.dtype))
    return Lazy(sizes, out.dtype, out.device, loader, x.opcount + 2)


def indirect(value, size, wrap=False):
    """The index value loads, into a dim of this size; negative ones count from the end where wrap is set (as
    x[i] and put count them; gather, scatter and embedding raise), and out-of-bounds ones raise an IndexError."""
    return ops.indirect_indexing(value, size, wrap=wrap)


def broadcast_sizes(shapes):
    """The broadcast of several shapes (right-aligned; a size-1 dim takes the other's size)."""
    n = max(len(sh) for sh in shapes)
    out = [sympy.Integer(1)] * n
    for sh in shapes:
        for k, s in enumerate(sh):
            if s != 1 and (out[n - len(sh) + k] == 1 or current().size_hint(s) != 1):
                out[n - len(sh) + k] = s
    return out


def advanced_indexing(x_sizes, indices):
    """x[indices] with index tensors (None: a whole dim), as (its sizes, a function from its index to x's).

    The indexed dims are replaced by the broadcast shape of the index tensors: in place when they are
    adjacent, in front otherwise."""
    indices = list(indices) + [None] * (len(x_sizes) - len(indices))
    positions = [d for d, i in enumerate(indices) if i is not None]
    bshape = broadcast_sizes([indices[d].sizes for d in positions])
    nb = len(bshape)
    first = positions[0] if positions == list(range(positions[0], positions[-1] + 1)) else 0
    rest_sizes = [s for d, s in enumerate(x_sizes) if indices[d] is None]

    def position(idx):
        bidx = idx[first:first + nb]
        rest = iter(idx[:first] + idx[first + nb:])
        src = []
        for d, t in enumerate(indices):
            if t is None:
                src.append(next(rest))
                continue
            tidx = broadcast_index(bidx, t.sizes, bshape)
            src.append(indirect(t.load(tidx), x_sizes[d], wrap=True))
        return src
    return rest_sizes[:first] + bshape + rest_sizes[first:], position


@register(aten.index.Tensor)
def lower_index(out, x, indices):
    """x[i0, :, i2]: an indirect load."""
    if any(i is not None and i.dtype == torch.bool for i in indices):
        return NotImplemented
    _, position = advanced_indexing(x.sizes, indices)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, lambda idx: x.load(position(idx)),
                x.opcount + 2)


@register(aten.embedding.default)
def lower_embedding(out, weight, indices, *args):
    sizes = [sym(s) for s in out.shape]
    n = len(indices.sizes)
    return Lazy(sizes, out.dtype, out.device,
                lambda idx: weight.load([indirect(indices.load(idx[:n]), weight.sizes[0]), idx[n]]), 2)


@register(aten.gather.default)
def lower_gather(out, x, dim, index, sparse_grad=False):
    dim %= max(len(x.sizes), 1)
    sizes = [sym(s) for s in out.shape]
    if not x.sizes:   # a 0-d x has one element: every index is 0
        return Lazy(sizes, out.dtype, out.device, lambda idx: x.load([]), 1)
    if not sizes:     # a 0-d index into a 1-d x
        return Lazy(sizes, out.dtype, out.device, lambda idx: x.load([indirect(index.load([]), x.sizes[0])]), 2)
    return Lazy(sizes, out.dtype, out.device, lambda idx: x.load(
        [indirect(index.load(idx), x.sizes[d]) if d == dim else i for d, i in enumerate(idx)]), 2)


@register(aten.index_select.default)
def lower_index_select(out, x, dim, index):
    dim %= max(len(x.sizes), 1)
    sizes = [sym(s) for s in out.shape]
    return Lazy(sizes, out.dtype, out.device, lambda idx: x.load(
        [indirect(index.load([i]), x.sizes[d]) if d == dim else i for d, i in enumerate(idx)]), 2)


# ---------------------------------------------------------------- scatters

SCATTER_REDUCE = {"sum": "sum", "add": "sum", "prod": "prod", "multiply": "prod", "amax": "max", "amin": "min"}


def scatter(out, x, sizes, value, target, reduce=None):
    """A copy of x with out[target(idx)] = value(idx), or combined by `reduce`, for idx over sizes (ir.Scatter).

    value(idx) gives the value in the output's compute dtype."""
    g = current()
    if not can_scatter(out, reduce):
        return NotImplemented
    base = g.realize(Lazy(list(x.sizes), x.dtype, x.device, x.load), meta_strides(out, x.sizes))
    if ir.static_numel(sizes, 1) == 0 or ir.static_numel(base.sizes, 1) == 0:
        return base
    buf = ir.ComputedBuffer(g.new_name(), base.buffer.layout,
                            node=ir.Scatter(list(sizes), value, target, reduce, base.buffer.name))
    g.buffers.append(buf)
    return View(buf, buf.layout.sizes, buf.layout.strides)


def can_scatter(out, reduce):
    """Whether the target can combine repeated targets this way (Triton: only with its atomics)."""
    if not reduce or not current().on_triton(out.device):
        return True
    from kiln.codegen.triton import ATOMIC_DTYPES, SCATTER_ATOMICS
    return reduce in SCATTER_ATOMICS and out.dtype in ATOMIC_DTYPES


def scatter_reduced(out, x, sizes, value, target, reduce, include_self=True):
    """scatter with a reduction; without include_self, the targets first get the reduction's identity,
    and a mean divides by the number of values each target received."""
    dtype = opmath(out.dtype)
    combine = "sum" if reduce == "mean" else SCATTER_REDUCE[reduce]
    if not can_scatter(out, combine):   # checked before any scatter, so none is left behind unused
        return NotImplemented
    if not include_self:
        identity = reduction_identity(combine, out.dtype)
        x = scatter(out, x, sizes, lambda idx: ops.constant(identity, dtype), target)
    total = scatter(out, x, sizes, value, target, combine)
    if reduce != "mean":
        return total
    start = Lazy(list(x.sizes), out.dtype, out.device, lambda idx: ops.constant(int(include_self), out.dtype))
    count = scatter(out, start, sizes, lambda idx: ops.constant(1, dtype), target, "sum")
    divide = ops.truediv if out.dtype.is_floating_point else ops.floordiv
    return Lazy(list(x.sizes), out.dtype, out.device, lambda idx: ops.to_dtype(divide(
        as_value(total, idx, x.sizes, dtype),
        ops.maximum(as_value(count, idx, x.sizes, dtype), ops.constant(1, dtype))), out.dtype, dtype), 3)


def reduction_identity(combine, dtype):
    if combine in ("sum", "prod"):
        return int(combine == "prod")
    if dtype.is_floating_point:
        return -math.inf if combine == "max" else math.inf
    if dtype == torch.bool:
        return combine == "min"
    return torch.iinfo(dtype).min if combine == "max" else torch.iinfo(dtype).max


def along(dim, index, x_sizes):
    """Scatter targets along dim: idx with its dim-th entry replaced by index[idx]."""
    if not x_sizes:   # a 0-d tensor has one element
        return lambda idx: []
    return lambda idx: [indirect(index.load(idx), x_sizes[d]) if d == dim else i for d, i in enumerate(idx)]


def src_value(src, sizes, dtype):
    """The value a scatter writes at idx: src (a tensor, or a scalar) there."""
    return lambda idx: as_value(src, idx, sizes, dtype)


@register(aten.index_put.default)
def lower_index_put(out, x, indices, values, accumulate=False):
    if any(i is not None and i.dtype == torch.bool for i in indices):
        return NotImplemented
    sizes, position = advanced_indexing(x.sizes, indices)
    return scatter(out, x, sizes, src_value(values, sizes, opmath(out.dtype)), position,
                   "sum" if accumulate else None)


@register(aten.put.default)
def lower_put(out, x, index, source, accumulate=False):
    """x.flatten()[index] = source.flatten(), with x row-major whatever its layout."""
    sizes = index.sizes
    numel = product(x.sizes)

    def target(idx):
        return ir.unflatten(indirect(index.load(idx), numel, wrap=True), x.sizes)

    def value(idx):   # source has as many elements as index, in any shape
        flat = ir.strided_index(idx, ir.contiguous_strides(sizes))
        return as_value(source, ir.unflatten(flat, source.sizes), source.sizes, opmath(out.dtype))
    return scatter(out, x, sizes, value, target, "sum" if accumulate else None)


@register(aten.scatter.src, aten.scatter.value, aten.scatter.reduce, aten.scatter.value_reduce,
          aten.scatter_add.default)
def lower_scatter(out, x, dim, index, src, reduce=None):
    dim %= max(len(x.sizes), 1)
    reduce = "sum" if current().current_node.target is aten.scatter_add.default else reduce
    return scatter(out, x, index.sizes, src_value(src, index.sizes, opmath(out.dtype)), along(dim, index, x.sizes),
                   SCATTER_REDUCE.get(reduce))


@register(aten.scatter_reduce.two)
def lower_scatter_reduce(out, x, dim, index, src, reduce, include_self=True):
    dim %= max(len(x.sizes), 1)
    return scatter_reduced(out, x, index.sizes, src_value(src, index.sizes, opmath(out.dtype)),
                           along(dim, index, x.sizes), reduce, include_self)


@register(aten.index_reduce.default)
def lower_index_reduce(out, x, dim, index, src, reduce, include_self=True):
    dim %= max(len(x.sizes), 1)

    def target(idx):   # source slice i goes to slice index[i]
        return [indirect(index.load([i]), x.sizes[d]) if d == dim else i for d, i in enumerate(idx)]
    return scatter_reduced(out, x, src.sizes, src_value(src, src.sizes, opmath(out.dtype)), target, reduce,
                           include_self)


# ---------------------------------------------------------------- scans

SCANS = {aten.cumsum.default: "sum", aten.cumprod.default: "prod", aten.logcumsumexp.default: "logaddexp"}


@register(*SCANS)
def lower_cumulative(out, x, dim, dtype=None):
    if not x.sizes:   # a 0-d tensor is its own scan
        return pointwise_value(out, lambda v: v, x)
    sizes = [sym(s) for s in out.shape]
    return scan(x, dim % len(x.sizes), SCANS[current().current_node.target], sizes, meta_strides(out, sizes),
                out.dtype, out.device)


def scan(x, dim, combine, sizes, strides, dtype, device):
    """x combined cumulatively along dim (ir.Scan), into a buffer of dtype laid out with strides."""
    g = current()
    if ir.static_numel(sizes, 1) == 0:
        return g.empty(sizes, strides, dtype, device)
    compute = opmath(dtype)
    body = lambda idx, ridx: as_value(x, list(idx[:dim]) + list(ridx) + list(idx[dim:]), sizes, compute)  # noqa: E731
    buf = ir.ComputedBuffer(g.new_name(), ir.Layout(dtype, device, sizes, strides),
                            node=ir.Scan(sizes[:dim] + sizes[dim + 1:], [sizes[dim]], combine, body, dim))
    g.buffers.append(buf)
    return View(buf, buf.layout.sizes, buf.layout.strides)


@register(aten.nonzero_static.default)
def lower_nonzero_static(out, x, *, size, fill_value=-1):
    """The coordinates of the first `size` nonzero elements in row-major order, padded with fill_value.
    A scan counts the nonzeros up to each element: a nonzero element writes its coordinates to that row
    of the result; the others, and nonzeros past `size`, write to a spare row past the end."""
    numel = ir.static_numel(x.sizes, None)
    if not x.sizes or numel is None:
        return NotImplemented
    rows, nd, i64 = sympy.Integer(size), len(x.sizes), torch.int64
    flat = [sympy.Integer(numel)]
    nonzero = Lazy(flat, i64, x.device, lambda idx: ops.to_dtype(
        ops.ne(x.load(ir.unflatten(idx[0], x.sizes)), ops.constant(0, x.dtype)), i64, torch.bool), 2)
    counts = scan(nonzero, 0, "sum", flat, ir.contiguous_strides(flat), i64, x.device)

    def target(idx):
        row = ops.sub(counts.load([idx[0]]), ops.constant(1, i64))
        kept = ops.logical_and(ops.ne(nonzero.load([idx[0]]), ops.constant(0, i64)),
                               ops.lt(row, ops.constant(size, i64)))
        return [indirect(ops.where(kept, row, ops.constant(size, i64)), rows + 1), idx[1]]

    def coordinate(idx):   # the idx[1]-th coordinate of flat position idx[0]
        coords = ir.unflatten(idx[0], x.sizes)
        value = ops.index_expr(coords[-1], i64)
        for d in range(nd - 2, -1, -1):
            value = ops.where(ops.eq(ops.index_expr(idx[1], i64), ops.constant(d, i64)),
                              ops.index_expr(coords[d], i64), value)
        return value

    padded = Lazy([rows + 1, sympy.Integer(nd)], i64, x.device, lambda idx: ops.constant(fill_value, i64))
    result = scatter(out, padded, flat + [sympy.Integer(nd)], coordinate, target)
    return View(result.buffer, [rows, sympy.Integer(nd)], result.strides, result.offset)   # less the spare row


# ---------------------------------------------------------------- reductions

def reduce_dims(x, dims):
    n = len(x.sizes)
    if n == 0:   # a 0-d tensor reduced over its "dim 0" is itself
        return []
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return list(range(n))
    if isinstance(dims, int):
        dims = [dims]
    return sorted({d % max(n, 1) for d in dims})


def make_reduction(out, x, dims, reduction_type, src_dtype=None, dtype=None):
    """Reduce x over dims; out (meta) gives the result's dtype and (keepdim-)shape."""
    dims = reduce_dims(x, dims) if x.sizes else []
    kept = [d for d in range(len(x.sizes)) if d not in dims]
    rsizes = [x.sizes[d] for d in dims]
    src_dtype = src_dtype or x.dtype
    out_sizes = [sym(s) for s in out.shape]
    keepdim = len(out_sizes) == len(x.sizes) and len(x.sizes) > 0 and dims

    def body(idx, ridx):
        kidx = [idx[d] for d in kept] if keepdim else idx
        full = [None] * len(x.sizes)
        for d, i in zip(kept, kidx):
            full[d] = i
        for d, r in zip(dims, ridx):
            full[d] = r
        v = x.load(full)
        if x.dtype != src_dtype:
            v = ops.to_dtype(v, src_dtype, x.dtype)
        return v

    low = current()
    if ir.static_numel(rsizes, 1) == 0 and reduction_type in ("max", "min", "argmax", "argmin"):
        raise LoweringError(f"{reduction_type} of an empty tensor")
    strides = getattr(x, "strides", None) or []
    unit = [d for d, (st, size) in enumerate(zip(strides, x.sizes)) if st == 1 and size != 1]
    interleaved = bool(unit) and unit[0] not in dims   # neighbouring rows are adjacent in memory
    splits = split_count(out_sizes, rsizes, reduction_type, out.device, interleaved)
    if splits > 1:
        return split_reduction(low, out_sizes, rsizes, reduction_type, body, dtype or out.dtype, src_dtype,
                               out.device, splits)
    return low.reduction(out_sizes, rsizes, reduction_type, body, dtype or out.dtype, src_dtype, out.device)


IDENTITY = {"sum": 0, "prod": 1, "max": float("-inf"), "min": float("inf"), "any": False, "all": True}


# (device type, rows interleaved in memory) -> (rows wanted, shortest piece, shortest row worth splitting).
# On a GPU, a program reduces one or a few contiguous rows, but 64 interleaved ones (channels-last, a
# bias gradient): those want more rows, to give each SM a few programs (768 bias columns summed over
# 16384 rows ran on 12 programs). On a CPU, the cores.
SPLITS = {("cuda", False): (8192, 1024, 1 << 16), ("cuda", True): (32768, 1024, 2048)}


def split_count(out_sizes, rsizes, reduction_type, device, interleaved):
    """Few long rows leave the machine idle: split each row into this many pieces (1: don't)."""
    n, r = ir.static_numel(out_sizes), ir.static_numel(rsizes)
    want, shortest, longest_whole = SPLITS.get((device.type, interleaved), (32, 4096, 1 << 16))
    if reduction_type not in IDENTITY or n is None or r is None or r < longest_whole:
        return 1
    return max(1, min(want // max(n, 1), r // shortest))


def split_reduction(low, out_sizes, rsizes, reduction_type, body, dtype, src_dtype, device, splits):
    """reduce(row) = reduce over pieces of reduce(piece): two reductions that each fill the machine.

    The partial results are laid out piece-major ([splits, *out]), so that neighbouring programs
    read neighbouring outputs' data when rows are interleaved in memory (channels-last)."""
    r = ir.product(rsizes)
    chunk = ir.FloorDiv(r + splits - 1, splits)
    identity = IDENTITY[reduction_type]

    def partial_body(idx, ridx):
        flat = idx[0] * chunk + ridx[0]
        inside = ops.lt(ops.index_expr(flat, torch.int64), ops.index_expr(r, torch.int64))
        return ops.masked(inside, lambda: body(idx[1:], ir.unflatten(flat, rsizes)),
                          ops.constant(identity, src_dtype))

    partial = low.reduction([sympy.Integer(splits)] + list(out_sizes), [chunk], reduction_type, partial_body,
                            src_dtype, src_dtype, device)
    combine = {"any": "any", "all": "all"}.get(reduction_type, reduction_type)
    return low.reduction(out_sizes, [sympy.Integer(splits)], combine,
                         lambda idx, ridx: partial.load([ridx[0]] + list(idx)), dtype, src_dtype, device)


def _accumulate_dtype(out):
    return opmath(out.dtype) if out.dtype.is_floating_point else out.dtype


@register(aten.sum.dim_IntList, aten.sum.default, aten.prod.dim_int, aten.prod.default)
def lower_sum(out, x, dims=None, keepdim=False, *, dtype=None):
    rtype = "prod" if "prod" in str(current().current_node.target) else "sum"
    if "prod" in str(current().current_node.target) and isinstance(dims, int):
        dims = [dims]
    return make_reduction(out, x, dims, rtype, src_dtype=_accumulate_dtype(out))


@register(aten.mean.dim, aten.mean.default)
def lower_mean(out, x, dims=None, keepdim=False, *, dtype=None):
    dims = reduce_dims(x, dims)
    total = make_reduction(out, x, dims, "sum", src_dtype=opmath(out.dtype), dtype=opmath(out.dtype))
    n = product([x.sizes[d] for d in dims])
    return pointwise_value(out, lambda s, c: ops.truediv(s, c), total, n)


@register(aten.amax.default, aten.amin.default, aten.max.default, aten.min.default)
def lower_amax(out, x, dims=None, keepdim=False):
    rtype = "max" if "max" in str(current().current_node.target) else "min"
    return make_reduction(out, x, dims, rtype)


@register(aten.any.default, aten.any.dim, aten.any.dims, aten.all.default, aten.all.dim, aten.all.dims)
def lower_any(out, x, dims=None, keepdim=False):
    rtype = "any" if "any" in str(current().current_node.target) else "all"
    return make_reduction(out, x, dims, rtype, src_dtype=torch.bool)


@register(aten.argmax.default, aten.argmin.default)
def lower_argmax(out, x, dim=None, keepdim=False):
    if dim is None:
        flat = [product(x.sizes)]
        x, dim = view_of(x, flat, reshape_index(flat, list(x.sizes))), 0
    rtype = "argmax" if "argmax" in str(current().current_node.target) else "argmin"
    return make_reduction(out, x, [dim], rtype, src_dtype=opmath(x.dtype))


@register(aten.max.dim, aten.min.dim)
def lower_max_dim(out, x, dim, keepdim=False):
    rtype = "max" if "max" in str(current().current_node.target) else "min"
    values = make_reduction(out[0], x, [dim], rtype)
    return [values, make_reduction(out[1], x, [dim], "arg" + rtype, src_dtype=opmath(x.dtype))]


LONG_ROW = 1 << 14   # rows longer than this do not stay on chip between two passes over them
SHIFT_PROBE = 256    # the shift of a one-pass variance: the mean of a long row's first elements


@register(aten.var.correction, aten.var_mean.correction)
def lower_var(out, x, dims=None, *, correction=None, keepdim=False):
    """Deviations are taken from a shift K: the row's first element, so that a row of identical values has a
    variance of exactly 0 (as eager's Welford gives; a mean of sum / n is off by rounding, and var 7e-8 made
    std's gradient noise where eager's is 0).
    Rows that stay on chip: two passes (the mean of x - K, then squared deviations), fused into one kernel.
    Longer rows: one pass over memory, summing x - K and (x - K)^2, so that s2 - s1^2/n does not cancel the
    way sum(x^2) - sum(x)^2/n does. There K moves on by the mean of the row's first SHIFT_PROBE elements'
    offsets from the first (a small reduction of its own): a single element as K can be an outlier, and an
    outlier of 10 standard deviations made layer_norm 200x less accurate than eager."""
    var_out = out[0] if isinstance(out, (list, tuple)) else out
    dims = reduce_dims(x, dims)
    kept = [d for d in range(len(x.sizes)) if d not in dims]
    n = product([x.sizes[d] for d in dims])
    acc = opmath(var_out.dtype)
    keep = len(var_out.shape) == len(x.sizes)

    def row_of(idx):   # an element's index -> its row's index in the reduced result
        return [sympy.Integer(0) if d in dims else i for d, i in enumerate(idx)] if keep else [idx[d] for d in kept]

    def first_of(ridx):   # a row's index in the reduced result -> the index of the row's first element
        it = iter(ridx)
        return [sympy.Integer(0) if d in dims else (ridx[d] if keep else next(it)) for d in range(len(x.sizes))]

    def first(ridx):   # read only where the row has elements
        return as_value(x, first_of(ridx), x.sizes, acc)

    def elementwise(fn, opcount):   # a value shaped and laid out as x
        return Lazy(list(x.sizes), acc, x.device, fn, opcount, strides=getattr(x, "strides", None))

    def square(v):
        return elementwise(lambda idx: ops.mul(v.load(idx), v.load(idx)), v.opcount + 1)
    divisor = n - (1 if correction is None else correction)
    rlen = ir.static_numel([x.sizes[d] for d in dims])
    if rlen is not None and rlen > LONG_ROW:
        def head(idx, ridx):   # the row's ridx-th element's offset from its first, for ridx < SHIFT_PROBE
            pos = iter(ir.unflatten(ridx[0], [x.sizes[d] for d in dims]))
            at = [next(pos) if d in dims else i for d, i in enumerate(first_of(idx))]
            return ops.sub(as_value(x, at, x.sizes, acc), first(idx))
        probe = sympy.Integer(SHIFT_PROBE)
        head_sum = current().reduction([sym(v) for v in var_out.shape], [probe], "sum", head, acc, acc, x.device)

        def shift(ridx):   # identical first elements: exactly the first
            return ops.add(first(ridx), ops.truediv(head_sum.load(ridx), ops.constant(float(SHIFT_PROBE), acc)))
        shifted = elementwise(lambda idx: ops.sub(as_value(x, idx, x.sizes, acc), shift(row_of(idx))), x.opcount + 3)
        s1 = make_reduction(var_out, shifted, dims, "sum", src_dtype=acc, dtype=acc)
        s2 = make_reduction(var_out, square(shifted), dims, "sum", src_dtype=acc, dtype=acc)
        mean = Lazy(s1.sizes, acc, x.device, lambda idx: ops.add(shift(idx), ops.truediv(
            s1.load(idx), as_value(n, idx, [], acc))))
        ssd = Lazy(s1.sizes, acc, x.device, lambda idx: ops.maximum(ops.sub(s2.load(idx), ops.truediv(
            ops.mul(s1.load(idx), s1.load(idx)), as_value(n, idx, [], acc))), ops.constant(0, acc)))
    else:
        shifted = elementwise(lambda idx: ops.sub(as_value(x, idx, x.sizes, acc), first(row_of(idx))), x.opcount + 2)
        total = make_reduction(var_out, shifted, dims, "sum", src_dtype=acc, dtype=acc)
        offset = Lazy(total.sizes, acc, x.device, lambda idx: ops.truediv(total.load(idx), as_value(n, idx, [], acc)))
        deviation = elementwise(lambda idx: ops.sub(shifted.load(idx), offset.load(row_of(idx))), x.opcount + 3)
        ssd = make_reduction(var_out, square(deviation), dims, "sum", src_dtype=acc, dtype=acc)
        if sympy.sympify(n).is_positive:   # K + the offset: exactly the value in a row of identical values
            mean = Lazy(total.sizes, acc, x.device, lambda idx: ops.add(first(idx), offset.load(idx)))
        elif isinstance(out, (list, tuple)):   # rows that may be empty have no first element: sum(x) / n
            plain = make_reduction(var_out, x, dims, "sum", src_dtype=acc, dtype=acc)
            mean = Lazy(plain.sizes, acc, x.device, lambda idx: ops.truediv(plain.load(idx), as_value(n, idx, [], acc)))
    var = pointwise_value(var_out, lambda s, c: ops.truediv(s, ops.maximum(c, ops.constant(0, acc))), ssd, divisor)
    if not isinstance(out, (list, tuple)):
        return var
    return [var, pointwise_value(out[1], lambda m: m, mean)]


@register(prims.broadcast_in_dim.default)
def lower_broadcast_in_dim(out, x, shape, broadcast_dimensions):
    sizes = [sym(s) for s in out.shape]
    return view_of(x, sizes, lambda idx: [sympy.Integer(0) if broadcasts(x.sizes[k], sizes[d]) else idx[d]
                                          for k, d in enumerate(broadcast_dimensions)])


@register(prims.sum.default)
def lower_prims_sum(out, x, dims, output_dtype=None):
    return make_reduction(out, x, dims, "sum", src_dtype=_accumulate_dtype(out))


@register(prims.var.default)
def lower_prims_var(out, x, dims, correction=1, output_dtype=None):
    return lower_var(out, x, dims, correction=correction)


@register(prims.div.default)
def lower_prims_div(out, a, b):
    op = ops.truediv if out.dtype.is_floating_point or out.dtype.is_complex else ops.truncdiv
    return pointwise_value(out, op, a, b)


# ---------------------------------------------------------------- found by the OpInfo coverage sweep

def touches_complex(node):
    """Whether an FX node reads or makes complex tensors, which kiln's code generators have no types for."""
    vals = [node.meta.get("val")] + [a.meta.get("val") for a in node.all_input_nodes]
    return any(isinstance(v, torch.Tensor) and v.is_complex() for v in torch.utils._pytree.tree_leaves(vals))


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


class OpThen:
    """A library call whose result the wrapper passes through `then` (named `label` in generated code)."""

    def __init__(self, op, then, label):
        self.op, self.then, self.label = op, then, label

    def __call__(self, *args, **kwargs):
        return self.then(self.op(*args, **kwargs))

    def __str__(self):
        return self.label

    __repr__ = __str__


def unaliased(op):
    """A fallback op that returns views of its inputs (view.dtype, view_as_real, ...), returning copies
    instead, laid out as the views: the wrapper reuses a dead buffer's memory for later results, and
    must not find a live view still reading it."""
    return OpThen(op, lambda result: torch.utils._pytree.tree_map(copy_exact, result), str(op))


def copy_exact(x):
    if not isinstance(x, torch.Tensor) or x.layout != torch.strided:
        return x
    if x.is_conj() or x.is_neg():   # a lazily conjugated/negated view: the storage alone has other values
        return torch.empty_strided(x.size(), x.stride(), dtype=x.dtype, device=x.device).copy_(x)
    storage = x.untyped_storage()
    fresh = torch.empty(0, dtype=x.dtype, device=x.device)
    return fresh.set_(storage.clone() if storage.nbytes() else storage, x.storage_offset(), x.size(), x.stride())


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
    """A one-element constant is inlined into kernels; a larger one is an extern the wrapper runs."""
    from torch._subclasses.fake_tensor import unset_fake_temporarily
    sizes = [sym(s) for s in value.shape]
    with unset_fake_temporarily():   # lowering runs under AOTAutograd's fake mode; value is real
        if value.numel() == 1 and not value.is_complex():
            scalar = value.item()
            return Lazy(sizes, value.dtype, value.device, lambda idx: ops.constant(scalar, value.dtype), 1)
        strides = value.clone().stride()
    layout = ir.Layout(value.dtype, value.device, sizes, [sym(s) for s in strides])
    buf = ir.Buffer(low.new_name(), layout)
    low.buffers.append(ir.ExternKernel(low.new_name("extern"), Constant(value), (), {}, [buf], False, False,
                                       origins=("constant",)))
    return View(buf, buf.layout.sizes, buf.layout.strides)


register(aten.empty_permuted.default)(lower_full)


@register(prims.rev.default)
def lower_rev(out, x, dims):
    """flip: index size-1-i along dims (a Lazy, not a View: extern calls cannot take negative strides)."""
    dims = {d % max(len(x.sizes), 1) for d in dims}
    sizes = list(x.sizes)
    return Lazy(sizes, x.dtype, x.device,
                lambda idx: x.load([sizes[d] - 1 - i if d in dims else i for d, i in enumerate(idx)]),
                x.opcount + 1)


def _fmax(name):
    """fmax/fmin: like maximum/minimum, but a NaN loses to a number."""
    pick = getattr(ops, name)
    return lambda a, b: ops.where(ops.isnan(b), a, ops.where(ops.isnan(a), b, pick(a, b)))


pointwise([aten.fmax.default, prims.fmax.default], _fmax("maximum"))
pointwise([aten.fmin.default, prims.fmin.default], _fmax("minimum"))
for _name in ("add", "sub", "mul", "neg", "abs", "round", "floor", "ceil", "trunc", "maximum", "minimum"):
    pointwise([getattr(prims, _name).default], ops_fn(_name))


@register(prims.uniform.default)
def lower_uniform(out, shape, *, low, high, dtype, device, stride=None, generator=None):
    if generator is not None:
        return NotImplemented
    lowering = current()
    seed = sympy.Symbol(f"seed{len(lowering.rng_seeds)}", integer=True, nonnegative=True)
    lowering.rng_seeds.append(seed)
    sizes = [sym(s) for s in out.shape]
    f32 = torch.float32
    return Lazy(sizes, out.dtype, out.device, lambda idx: ops.to_dtype(ops.add(ops.mul(
        ops.rand(seed, ir.strided_index(idx, ir.contiguous_strides(sizes))), ops.constant(float(high - low), f32)),
        ops.constant(float(low), f32)), out.dtype, f32), 1)


@register(aten.max_pool2d_with_indices_backward.default)
def lower_max_pool2d_backward(out, grad_output, x, kernel_size, stride, padding, dilation, ceil_mode, indices):
    """Gathers instead of scattering: each input element sums the gradients of the (at most a few) windows
    that may hold it and chose it as their maximum (Inductor's formulation)."""
    pair = lambda v, default: [default] * 2 if not v else list(v) * 2 if len(v) == 1 else list(v)  # noqa: E731
    kernel = pair(kernel_size, None)
    stride = pair(stride, None) if stride else kernel
    padding, dilation = pair(padding, 0), pair(dilation, 1)
    if not all(isinstance(v, int) for v in kernel + stride + padding + dilation):
        return NotImplemented
    windows = [max(max(h // s - max(0, (h - k) // s), 1) for h in range(2 * k)) for k, s in zip(kernel, stride)]
    sizes = [sym(s) for s in out.shape]
    pooled = list(grad_output.sizes[-2:])
    width = x.sizes[-1]
    acc = opmath(out.dtype)
    i64 = torch.int64
    c = lambda v: ops.constant(v, i64)  # noqa: E731

    def by_offset(idx):
        """Any dilation: for each kernel offset, the one window that would hold this element there."""
        *prefix, h, w = idx
        target = ops.index_expr(h * width + w, i64)
        total = ops.constant(0, acc)
        for kh in range(kernel[0]):
            for kw in range(kernel[1]):
                conds, where = [], list(prefix)
                for pos, k, s, p, d, n in zip((h, w), (kh, kw), stride, padding, dilation, pooled):
                    shifted = ops.index_expr(pos + p - k * d, i64)
                    window = ops.floordiv(shifted, c(s))
                    ok = [ops.ge(shifted, c(0)), ops.eq(ops.remainder(shifted, c(s)), c(0)),
                          ops.lt(window, ops.index_expr(n, i64))]
                    conds += ok
                    where.append(indirect(ops.where(all_of(ok), window, c(0)), n))
                hit = all_of(conds + [ops.eq(as_value(indices, where, indices.sizes, i64), target)])
                total = ops.where(hit, ops.add(total, as_value(grad_output, where, grad_output.sizes, acc)), total)
        return total if acc == out.dtype else ops.to_dtype(total, out.dtype, acc)

    if any(d != 1 for d in dilation) or windows[0] * windows[1] > 25:
        if kernel[0] * kernel[1] > 64:
            return NotImplemented
        return Lazy(sizes, out.dtype, out.device, by_offset, 8 * kernel[0] * kernel[1])

    def loader(idx):
        *prefix, h, w = idx
        target = ops.index_expr(h * width + w, i64)
        starts, ends = [], []
        for pos, k, s, p, n in zip((h, w), kernel, stride, padding, pooled):
            shifted = ops.index_expr(pos + p, i64)
            starts.append(ops.maximum(ops.floordiv(ops.add(shifted, c(s - k)), c(s)), c(0)))
            ends.append(ops.minimum(ops.add(ops.floordiv(shifted, c(s)), c(1)), ops.index_expr(n, i64)))
        total = None
        for dh in range(windows[0]):
            for dw in range(windows[1]):
                ph, pw = ops.add(starts[0], c(dh)), ops.add(starts[1], c(dw))
                where = prefix + [indirect(ops.minimum(ph, ops.sub(ends[0], c(1))), pooled[0]),
                                  indirect(ops.minimum(pw, ops.sub(ends[1], c(1))), pooled[1])]
                hit = ops.eq(as_value(indices, where, indices.sizes, i64), target)
                part = as_value(grad_output, where, grad_output.sizes, acc)
                if total is None:
                    total = ops.where(hit, part, ops.constant(0, acc))
                else:
                    hit = all_of([ops.lt(ph, ends[0]), ops.lt(pw, ends[1]), hit])
                    total = ops.where(hit, ops.add(total, part), total)
        return total if acc == out.dtype else ops.to_dtype(total, out.dtype, acc)
    return Lazy(sizes, out.dtype, out.device, loader, 4 * windows[0] * windows[1])


class SpelledFloat(float):
    """A non-finite float whose repr() is valid Python, for extern arguments (cdist's p=inf)."""

    def __repr__(self):
        return f"float('{float(self)}')"


SORT_BY_RANK_MAX = 64   # rows this short sort by counting: n^2 compares per row, no data-dependent control flow


@register(aten.sort.default, aten.sort.stable)
def lower_sort(out, x, dim=-1, descending=False, stable=None):
    """Short rows sort by rank: an element's rank is the number of elements that sort before it (equal
    ones only from earlier positions, so the order is stable), a reduction; values and indices are then
    scattered to their ranks. NaN sorts last ascending, first descending, as eager's comparators do.
    An unstable sort may order ties any way. Eager's on the CPU is stable on rows of up to 16 (libstdc++'s
    std::sort sorts those by insertion), so longer unstable sorts run eagerly rather than differ from it;
    on CUDA eager's may order ties otherwise, and kiln's stable order is as valid a result."""
    dim = dim % len(x.sizes) if x.sizes else 0
    n = ir.static_numel([x.sizes[dim]] if x.sizes else [1], None)
    if not x.sizes or n is None or n > (SORT_BY_RANK_MAX if stable else 16) or x.dtype.is_complex:
        return NotImplemented
    values_meta, indices_meta = out
    sizes, rank_dim = list(x.sizes), len(x.sizes)
    acc = torch.int64 if x.dtype == torch.bool else opmath(x.dtype)
    floating = acc.is_floating_point

    def before(idx):
        """1 if the element at position idx[-1] of idx's row sorts before the one at idx."""
        here, j = list(idx[:-1]), idx[-1]
        there = here[:dim] + [j] + here[dim + 1:]
        a, b = (as_value(x, i, sizes, acc) for i in (here, there))
        first = ops.gt(b, a) if descending else ops.lt(b, a)
        if floating:   # NaN is greater than every number here, and equal to NaN
            nan_first = ops.isnan(b) if descending else ops.isnan(a)
            first = ops.logical_or(first, ops.logical_and(nan_first, ops.logical_not(
                ops.isnan(a) if descending else ops.isnan(b))))
            tie = ops.logical_or(ops.eq(a, b), ops.logical_and(ops.isnan(a), ops.isnan(b)))
        else:
            tie = ops.eq(a, b)
        earlier = ops.lt(ops.index_expr(j, torch.int64), ops.index_expr(here[dim], torch.int64))
        return ops.to_dtype(ops.logical_or(first, ops.logical_and(tie, earlier)), torch.int64, torch.bool)

    pairs = Lazy(sizes + [sympy.Integer(n)], torch.int64, x.device, before, 12)
    rank = make_reduction(indices_meta, pairs, [rank_dim], "sum", src_dtype=torch.int64, dtype=torch.int64)
    target = along(dim, rank, sizes)
    values = scatter(values_meta, x, sizes, src_value(x, sizes, opmath(x.dtype)), target)
    positions = Lazy(sizes, torch.int64, x.device, lambda idx: ops.index_expr(idx[dim], torch.int64), 1)
    indices = scatter(indices_meta, positions, sizes, positions.load, target)
    return [values, indices]


@register(aten._cdist_forward.default)
def lower_cdist(out, x1, x2, p, compute_mode=None):
    """p-norm distances of the rows of x1 and x2: a reduction over the feature dim (eager may use a
    matrix product for p=2, which only rounds differently)."""
    sizes = [sym(s) for s in out.shape]
    features = x1.sizes[-1]
    acc = opmath(out.dtype)
    nb = len(sizes) - 2
    infinite = p == float("inf")

    def load(t, batch, row, r):
        bidx = broadcast_index(batch, t.sizes[:-2], sizes[:nb])
        v = t.load(bidx + [row, r])
        return v if t.dtype == acc else ops.to_dtype(v, acc, t.dtype)

    def term(idx):
        *batch, i, j, r = idx
        d = ops.abs(ops.sub(load(x1, batch, i, r), load(x2, batch, j, r)))
        if p == 0:
            return ops.to_dtype(ops.ne(d, ops.constant(0, acc)), acc, torch.bool)
        if p == 1 or infinite:
            return d
        if p == 2:
            return ops.mul(d, d)
        return ops.pow(d, ops.constant(float(p), acc))

    terms = Lazy(sizes + [features], acc, out.device, term, 4)
    total = make_reduction(out, terms, [len(sizes)], "max" if infinite else "sum", src_dtype=acc, dtype=acc)
    finish = {0: lambda s: s, 1: lambda s: s, 2: ops.sqrt}.get(p, (lambda s: s) if infinite else (
        lambda s: ops.pow(s, ops.constant(1.0 / p, acc))))
    return pointwise_value(out, finish, total, compute=acc)


def new_seed():
    lowering = current()
    seed = sympy.Symbol(f"seed{len(lowering.rng_seeds)}", integer=True, nonnegative=True)
    lowering.rng_seeds.append(seed)
    return seed


def random_value(kind, out):
    """A loader drawing one float32 from kind ("rand" or "randn") per element of out."""
    seed = new_seed()
    sizes = [sym(s) for s in out.shape]
    draw = getattr(ops, kind)
    return lambda idx: draw(seed, ir.strided_index(idx, ir.contiguous_strides(sizes)))


@register(prims.normal.default)
def lower_prims_normal(out, shape, *, mean, std, dtype, device, requires_grad=False, generator=None):
    return lower_normal_functional(out, None, mean, std, generator=generator)


@register(aten.normal_functional.default)
def lower_normal_functional(out, x, mean=0.0, std=1.0, *, generator=None):
    if generator is not None:
        return NotImplemented
    f32 = torch.float32
    draw = random_value("randn", out)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, lambda idx: ops.to_dtype(ops.add(ops.mul(
        draw(idx), ops.constant(float(std), f32)), ops.constant(float(mean), f32)), out.dtype, f32), 1)


@register(aten.bernoulli.p)
def lower_bernoulli(out, x, p=0.5, *, generator=None):
    if generator is not None:
        return NotImplemented
    draw = random_value("rand", out)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, lambda idx: ops.to_dtype(
        ops.lt(draw(idx), ops.constant(float(p), torch.float32)), out.dtype, torch.bool), 1)


@register(aten.randint.default, aten.randint.low, aten.randint_like.default, aten.randint_like.low_dtype)
def lower_randint(out, *args, generator=None, **kwargs):
    """low + floor(u * (high - low)), with u computed in float64 so that it stays below high."""
    if generator is not None or not (out.dtype.is_floating_point or out.dtype in (torch.int32, torch.int64)):
        return NotImplemented
    name = str(current().current_node.target)
    bounds = [a for a in args[(1 if "like" in name else 0):] if not isinstance(a, (list, tuple))]
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds[:2]
    if not all(isinstance(b, int) for b in (low, high)):
        return NotImplemented
    draw = random_value("rand", out)
    f64 = torch.float64

    def loader(idx):
        scaled = ops.floor(ops.mul(ops.to_dtype(draw(idx), f64, torch.float32), ops.constant(float(high - low), f64)))
        value = ops.add(ops.minimum(scaled, ops.constant(float(high - low - 1), f64)), ops.constant(float(low), f64))
        return ops.to_dtype(value, out.dtype, f64)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, loader, 1)


@register(aten.angle.default)
def lower_angle(out, x):
    """Of a real number: pi if negative, else 0; NaN stays NaN."""
    if not out.dtype.is_floating_point:
        return NotImplemented
    return pointwise_value(out, lambda v: ops.where(ops.isnan(v), v, ops.where(
        ops.lt(v, ops.constant(0.0, opmath(out.dtype))), ops.constant(math.pi, opmath(out.dtype)),
        ops.constant(0.0, opmath(out.dtype)))), x)


@register(aten._conj.default, aten._conj_physical.default, aten.conj_physical.default, aten.resolve_conj.default,
          aten.resolve_neg.default)
def lower_conj(out, x):
    if x.dtype.is_complex:
        return NotImplemented
    return lower_copy(out, x)


def pool_params(n, kernel_size, stride, padding):
    expand = lambda v, default: [default] * n if not v else list(v) * n if len(v) == 1 else list(v)  # noqa: E731
    kernel = expand(kernel_size, None)
    return kernel, (expand(stride, None) if stride else kernel), expand(padding, 0)


@register(aten.max_pool2d_with_indices.default, aten.max_pool3d_with_indices.default)
def lower_max_pool(out, x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """Each window's maximum and the flat spatial index of where it is, as eager's kernels pick it: the
    window's first in-bounds position to start with, then any larger value or any NaN. The window is
    unrolled, so only small static kernels."""
    n = 3 if "3d" in str(current().current_node.target) else 2
    kernel, stride, padding = pool_params(n, kernel_size, stride, [padding] if isinstance(padding, int) else padding)
    dilation = pool_params(n, [dilation] if isinstance(dilation, int) else dilation, (), 0)[0]
    if not all(isinstance(v, int) for v in kernel + stride + padding + dilation) or math.prod(kernel) > 64:
        return NotImplemented
    sizes = [sym(v) for v in out[0].shape]
    spatial_in = list(x.sizes[-n:])
    lead = len(sizes) - n
    acc, i64 = opmath(out[0].dtype), torch.int64

    def window(idx):
        zero = ops.constant(0, i64)
        starts = [o * st - p for o, st, p in zip(idx[lead:], stride, padding)]
        # the first in-bounds position along each dim: start + ceil(-start / d) * d when start < 0
        firsts = [ops.where(ops.lt(ops.index_expr(b, i64), zero),
                            ops.index_expr(b + ir.FloorDiv(-b + d - 1, d) * d, i64), ops.index_expr(b, i64))
                  for b, d in zip(starts, dilation)]
        where = flat_position(firsts, spatial_in)
        best = ops.constant(-math.inf, acc)
        for offsets in itertools.product(*[range(k) for k in kernel]):
            pos = [b + off * d for b, off, d in zip(starts, offsets, dilation)]
            inside = all_of([c for q, size in zip(pos, spatial_in) for c in (
                ops.ge(ops.index_expr(q, i64), zero), ops.lt(ops.index_expr(q, i64), ops.index_expr(size, i64)))])
            v = ops.masked(inside, lambda pos=pos: as_value(x, list(idx[:lead]) + pos, x.sizes, acc),
                           ops.constant(-math.inf, acc))
            take = ops.logical_and(inside, ops.logical_or(ops.gt(v, best), ops.isnan(v)))
            best = ops.where(take, v, best)
            where = ops.where(take, flat_position([ops.index_expr(q, i64) for q in pos], spatial_in), where)
        return best, where

    # each result walks the window (they land in one kernel; a gather of the maximum from the index
    # instead took a second kernel: the indirect load does not split into the same loops)
    opcount = x.opcount + 4 * math.prod(kernel)
    values = Lazy(sizes, out[0].dtype, out[0].device, lambda idx: ops.to_dtype(window(idx)[0], out[0].dtype, acc),
                  opcount)
    indices = Lazy(sizes, i64, out[1].device, lambda idx: window(idx)[1], opcount)
    return [values, indices]


def flat_position(positions, sizes):
    """Row-major flat index of int64 positions within sizes."""
    flat = positions[0]
    for q, size in zip(positions[1:], sizes[1:]):
        flat = ops.add(ops.mul(flat, ops.index_expr(size, torch.int64)), q)
    return flat


@register(aten.avg_pool2d.default, aten.avg_pool3d.default)
def lower_avg_pool(out, x, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
                   divisor_override=None):
    """A sum over each window's in-bounds elements, divided as eager divides (AvgPoolKernel.cpp)."""
    n = 3 if "3d" in str(current().current_node.target) else 2
    kernel, stride, padding = pool_params(n, kernel_size, stride, [padding] if isinstance(padding, int) else padding)
    if not all(isinstance(v, int) for v in kernel + stride + padding):
        return NotImplemented
    sizes = [sym(s) for s in out.shape]
    spatial_in = list(x.sizes[-n:])
    lead = len(sizes) - n
    acc = opmath(out.dtype)
    i64 = torch.int64

    def term(idx):
        outer, window = idx[:len(sizes)], idx[len(sizes):]
        src, conds = list(outer[:lead]), []
        for o, k, s, p, size in zip(outer[lead:], window, stride, padding, spatial_in):
            pos = o * s - p + k
            e = ops.index_expr(pos, i64)
            conds += [ops.ge(e, ops.constant(0, i64)), ops.lt(e, ops.index_expr(size, i64))]
            src.append(pos)
        return ops.masked(all_of(conds), lambda: as_value(x, src, x.sizes, acc), ops.constant(0, acc))

    # a window's position o * s - p + offset is at least offset - p, so no offset from size + p on reads the
    # input: the loop stops there. (HF EfficientNet pools its 1x1 map with a 320x320 window, ceil_mode, whose
    # 102,400 offsets all but one read nothing: 8x slower than eager on the CPU.)
    reach = [min(k, size + p) if isinstance(size, (int, sympy.Integer)) else k
             for k, p, size in zip(kernel, padding, spatial_in)]
    terms = Lazy(sizes + [sympy.Integer(r) for r in reach], acc, out.device, term, x.opcount + 4)
    total = make_reduction(out, terms, list(range(len(sizes), len(sizes) + n)), "sum", src_dtype=acc, dtype=acc)

    def divide(idx):
        s = as_value(total, idx, sizes, acc)
        if divisor_override:
            return ops.truediv(s, ops.constant(float(divisor_override), acc))
        whole, inside, empty = None, None, []
        for o, k, st, p, size in zip(idx[lead:], kernel, stride, padding, spatial_in):
            start = ops.index_expr(o * st - p, i64)
            end = ops.minimum(ops.add(start, ops.constant(k, i64)), ops.index_expr(size + p, i64))
            span = ops.sub(end, start)
            clipped = ops.sub(ops.minimum(end, ops.index_expr(size, i64)), ops.maximum(start, ops.constant(0, i64)))
            empty.append(ops.le(clipped, ops.constant(0, i64)))
            whole = span if whole is None else ops.mul(whole, span)
            inside = clipped if inside is None else ops.mul(inside, clipped)
        count = whole if count_include_pad else inside
        value = ops.truediv(s, ops.to_dtype(count, acc, i64))
        nothing = empty[0]
        for e in empty[1:]:
            nothing = ops.logical_or(nothing, e)
        return ops.where(nothing, ops.constant(0, acc), value)

    return Lazy(sizes, out.dtype, out.device,
                lambda idx: ops.to_dtype(divide(idx), out.dtype, acc) if acc != out.dtype else divide(idx), 8)


def adaptive_windows(in_size, out_size):
    """Eager's adaptive windows: [floor(o*I/O), ceil((o+1)*I/O)); and the longest one."""
    starts = [(o * in_size) // out_size for o in range(out_size)]
    ends = [-((-(o + 1) * in_size) // out_size) for o in range(out_size)]
    return max((e - s for s, e in zip(starts, ends)), default=0)


def adaptive_terms(x, sizes, n, acc, fill):
    """x's adaptive windows as a Lazy over out sizes + the longest window per dim (fill outside a window)."""
    spatial_in = list(x.sizes[-n:])
    lead = len(sizes) - n
    longest = [sympy.Integer(adaptive_windows(int(i), int(o))) for i, o in zip(spatial_in, sizes[lead:])]
    i64 = torch.int64

    def bounds(o, size_in, size_out):
        start = ir.FloorDiv(o * size_in, size_out)
        end = ir.FloorDiv((o + 1) * size_in + size_out - 1, size_out)
        return start, end

    def term(idx):
        outer, window = idx[:len(sizes)], idx[len(sizes):]
        src, conds = list(outer[:lead]), []
        for o, k, size_in, size_out in zip(outer[lead:], window, spatial_in, sizes[lead:]):
            start, end = bounds(o, size_in, size_out)
            conds.append(ops.lt(ops.index_expr(start + k, i64), ops.index_expr(end, i64)))
            src.append(start + k)
        return ops.masked(all_of(conds), lambda: as_value(x, src, x.sizes, acc), ops.constant(fill, acc))

    return Lazy(sizes + longest, acc, x.device, term, x.opcount + 4), longest, bounds, lead


@register(aten._adaptive_avg_pool3d.default)
def lower_adaptive_avg_pool(out, x, output_size):
    sizes = [sym(s) for s in out.shape]
    n = len(output_size)
    if not all(ir.is_static(s) for s in list(x.sizes[-n:]) + sizes):
        return NotImplemented
    acc = opmath(out.dtype)
    terms, longest, bounds, lead = adaptive_terms(x, sizes, n, acc, 0)
    total = make_reduction(out, terms, list(range(len(sizes), len(sizes) + n)), "sum", src_dtype=acc, dtype=acc)
    i64 = torch.int64

    def loader(idx):
        count = None
        for o, size_in, size_out in zip(idx[lead:], x.sizes[-n:], sizes[lead:]):
            start, end = bounds(o, size_in, size_out)
            span = ops.index_expr(end - start, i64)
            count = span if count is None else ops.mul(count, span)
        value = ops.truediv(as_value(total, idx, sizes, acc), ops.to_dtype(count, acc, i64))
        return value if acc == out.dtype else ops.to_dtype(value, out.dtype, acc)
    return Lazy(sizes, out.dtype, out.device, loader, 4)


@register(aten.adaptive_max_pool2d.default, aten.adaptive_max_pool3d.default)
def lower_adaptive_max_pool(out, x, output_size):
    """Values by a max reduction; indices by an argmax over the same windows, made absolute: the first
    maximum, as eager's strict >. (A window with several NaNs: eager points at the last, argmax the first,
    as with torch._decomp's max_pool2d_with_indices.)"""
    values_meta, indices_meta = out
    sizes = [sym(s) for s in values_meta.shape]
    n = len(output_size)
    if not all(ir.is_static(s) for s in list(x.sizes[-n:]) + sizes) or not x.dtype.is_floating_point:
        return NotImplemented
    acc = opmath(x.dtype)
    terms, longest, bounds, lead = adaptive_terms(x, sizes, n, acc, float("-inf"))
    dims = list(range(len(sizes), len(sizes) + n))
    values = make_reduction(values_meta, terms, dims, "max", src_dtype=acc, dtype=x.dtype)
    flat = make_reduction(indices_meta, terms, dims, "argmax", src_dtype=acc, dtype=torch.int64)
    i64 = torch.int64

    def index(idx):
        k = ops.to_dtype(as_value(flat, idx, sizes, i64), i64, i64)
        pos = None
        for d, (o, size_in, size_out) in enumerate(zip(idx[lead:], x.sizes[-n:], sizes[lead:])):
            inner = product(longest[d + 1:])
            offset = ops.remainder(ops.floordiv(k, ops.constant(int(inner), i64)), ops.constant(int(longest[d]), i64))
            start, _ = bounds(o, size_in, size_out)
            coord = ops.add(ops.index_expr(start, i64), offset)
            pos = coord if pos is None else ops.add(ops.mul(pos, ops.index_expr(size_in, i64)), coord)
        return pos
    return [values, Lazy(sizes, torch.int64, out[1].device, index, 6)]


@register(aten.diagonal_scatter.default)
def lower_diagonal_scatter(out, x, src, offset=0, dim1=0, dim2=1):
    """x with src written along a diagonal: the elements on it load src, the others x."""
    sizes = [sym(s) for s in out.shape]
    nd = len(sizes)
    dim1, dim2 = dim1 % nd, dim2 % nd
    rest = [d for d in range(nd) if d not in (dim1, dim2)]
    i64 = torch.int64

    def loader(idx):
        a, b = idx[dim1], idx[dim2]
        on = ops.eq(ops.index_expr(b - a, i64), ops.constant(offset, i64))
        pos = a if offset >= 0 else b
        return ops.where(on, ops.masked(on, lambda: as_value(src, [idx[d] for d in rest] + [pos], src.sizes, out.dtype),
                                        ops.constant(0, out.dtype)), as_value(x, idx, sizes, out.dtype))
    return Lazy(sizes, out.dtype, out.device, loader, 4)


@register(aten.searchsorted.Tensor, aten.searchsorted.Scalar, aten.bucketize.Tensor, aten.bucketize.Scalar)
def lower_searchsorted(out, a, b, *, out_int32=False, right=False, side=None, sorter=None):
    """Eager's binary search, unrolled: the same probes and comparisons, so the same answer for any input
    (also unsorted boundaries or NaNs, where counting would differ)."""
    values, seq = (a, b) if "bucketize" in str(current().current_node.target) else (b, a)
    length = seq.sizes[-1]
    if not ir.is_static(length) or (sorter is not None and not is_tensor(sorter)):
        return NotImplemented
    length = int(length)
    right = right or side == "right"
    sizes = [sym(s) for s in out.shape]
    compute = opmath(promoted(seq, values))
    i64 = torch.int64
    c = lambda v: ops.constant(v, i64)  # noqa: E731

    def loader(idx):
        row = list(idx[:-1]) if len(seq.sizes) > 1 else []
        v = as_value(values, idx, sizes, compute)
        start, end = c(0), c(length)
        for _ in range(length.bit_length()):
            active = ops.lt(start, end)
            mid = ops.where(active, ops.floordiv(ops.add(start, end), c(2)), c(0))
            pos = indirect(mid, length)
            if sorter is not None:
                pos = indirect(as_value(sorter, row + [pos], sorter.sizes, i64), length)
            probe = as_value(seq, row + [pos], seq.sizes, compute)
            below = ops.logical_not(ops.gt(probe, v) if right else ops.ge(probe, v))
            start = ops.where(ops.logical_and(active, below), ops.add(mid, c(1)), start)
            end = ops.where(ops.logical_and(active, ops.logical_not(below)), mid, end)
        return ops.to_dtype(start, out.dtype, i64)
    return Lazy(sizes, out.dtype, out.device, loader, 8 * max(length.bit_length(), 1))


# ---------------------------------------------------------------- externs: library calls

def channels_last_strides(sizes):
    n, c, h, w = sizes
    return [h * w * c, sympy.Integer(1), w * c, c]


# device -> whether its training forwards run convolutions channels-last too (inference graphs always do).
# cuDNN and oneDNN both run NHWC fastest. On the CPU, kiln's inference went 1.06-1.62x faster on the quick conv
# models (bench/NOTES.md 36); its training steps moved by 0.97-1.15x, so they keep eager's layout.
CHANNELS_LAST_DEVICES = {"cuda": True, "cpu": False}


def runs_channels_last(g, out):
    """Whether a convolution with this output runs channels-last in graph g."""
    return isinstance(out, torch.Tensor) and out.device.type in CHANNELS_LAST_DEVICES and \
        (g.inference or g.saved_from is not None and CHANNELS_LAST_DEVICES[out.device.type]) and \
        out.dim() == 4 and out.dtype != torch.float64


@register(aten.convolution.default)
def lower_convolution(out, x, weight, *args):
    """Inference and forward graphs run 2-D convolutions channels-last on the GPU, cuDNN's fast layout
    (its NCHW kernels transpose internally); on the CPU, inference graphs do (oneDNN's). The input and weight
    copies fuse into their producers; consumers of the output write eager's layout, and activations saved for
    the backward keep channels-last (the forward reports their strides). Backward graphs keep the traced layouts.
    A graph input (an image) is read as the caller laid it out: a channels-last copy of it would be one
    more pass over it, and a second copy held beside cuDNN's workspace at the stem (DeiT's bf16 inference
    peaked there, 9 MiB above eager)."""
    g = current()
    target = aten.convolution.default
    if not runs_channels_last(g, out) or isinstance(x, View) and isinstance(x.buffer, ir.InputBuffer) and \
            not same_strides(x.strides, channels_last_strides(x.sizes), x.sizes):
        return g.extern(target, (x, weight, *args), {}, fallback=False)
    # the weight too: cuDNN would otherwise relayout it in a copy kernel of its own on every call
    x, weight = (g.share(fx, v, g.realize_strided(v, channels_last_strides(v.sizes)))
                 for fx, v in zip(g.current_node.args[:2], (x, weight)))
    # cuDNN picks channels-last output for a channels-last input; `contiguous` makes sure (a no-op when it did)
    channels_last = OpThen(target, lambda y: y.contiguous(memory_format=torch.channels_last),
                           f"{target} (channels-last)")
    return g.extern(channels_last, (x, weight, *args), {}, fallback=False,
                    out_strides=[channels_last_strides([sym(s) for s in out.shape])])


# Library calls, like the matmuls: vendor libraries (BLAS, cuDNN, LAPACK, FFT) that no compiler generates
# code for. Unlike fallbacks, they are the intended implementation, so they are neither logged nor counted.
EXTERNS = {
    "matmul": ["mm", "addmm", "bmm", "baddbmm"],
    "convolution": ["convolution_backward"],
    "attention": ["_scaled_dot_product_flash_attention", "_scaled_dot_product_efficient_attention",
                  "_scaled_dot_product_cudnn_attention", "_scaled_dot_product_flash_attention_for_cpu",
                  "_scaled_dot_product_flash_attention_for_cpu_backward",
                  "_scaled_dot_product_flash_attention_backward", "_scaled_dot_product_efficient_attention_backward",
                  "_scaled_dot_product_cudnn_attention_backward"],
    "LAPACK": ["_linalg_svd", "_linalg_eigh", "linalg_eig", "linalg_qr", "geqrf", "ormqr",
               "linalg_householder_product", "linalg_cholesky_ex", "cholesky", "cholesky_solve", "cholesky_inverse",
               "linalg_lu", "linalg_lu_factor_ex", "linalg_lu_solve", "_linalg_solve_ex", "linalg_solve_triangular",
               "triangular_solve", "linalg_inv_ex", "_linalg_det", "_linalg_slogdet", "linalg_ldl_factor_ex",
               "linalg_ldl_solve", "linalg_pinv.atol_rtol_tensor", "_linalg_check_errors"],
    "FFT": ["_fft_r2c", "_fft_c2c", "_fft_c2r"],
}


def _overload(name):
    packet, _, overload = name.partition(".")
    return getattr(getattr(aten, packet), overload or "default")


LIBRARY_CALLS = {_overload(name) for names in EXTERNS.values() for name in names
                 if hasattr(aten, name.partition(".")[0])}
for _target in LIBRARY_CALLS:
    LOWERINGS[_target] = (lambda t: lambda out, *args, **kwargs: current().extern(t, args, kwargs, fallback=False))(
        _target)
