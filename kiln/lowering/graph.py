"""The graph walk: GraphLowering runs an ATen FX graph with IR values instead of tensors and dispatches each node
to its lowering. What it decides and makes along the way lives in the modules of its mixins: which values are
stored (realization.py) and in which layout (layouts_for_users.py), the graph's outputs (outputs.py), library
calls and ops without a lowering as externs (extern_calls.py), and seeds and constants (seeds_and_constants.py)."""
import contextlib
import operator

import sympy
import torch

from kiln import ir
from kiln.freezing import is_frozen
from kiln.ir import product, sym
from kiln.lowering.values import as_lazy, RUNNING, Lazy, LOWERINGS, meta_strides, reads_of, static_ints, View
from kiln.lowering.pointwise import eager_refuses, ops_fn, pointwise_value
from kiln.lowering.externs import LIBRARY_CALLS
from kiln.lowering.realization import Realization
from kiln.lowering.layouts_for_users import LayoutsForUsers
from kiln.lowering.outputs import GraphOutputs
from kiln.lowering.extern_calls import cpu_values_run_eagerly, EFFECT_TOKEN_ENDS, ExternCalls, lower_with_effects
from kiln.lowering.seeds_and_constants import constant_value, SeedsAndConstants

aten = torch.ops.aten


# ---------------------------------------------------------------- the graph walk

class GraphLowering(Realization, LayoutsForUsers, GraphOutputs, ExternCalls, SeedsAndConstants, torch.fx.Interpreter):
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
        self.inputs_laid_out_anew = set()   # inputs given laid out otherwise than traced (a backward's saved values)
        # input name -> the storage positions (first, last) that an as_strided reads beyond its elements, in the
        # caller's storage (the wrapper checks the storage holds them, as eager's as_strided does)
        self.inputs_read_in_storage = {}
        # fx node -> the View of its value stored whole as eager stores it (bases_stored_whole)
        self.eager_images = {}
        # input name -> {fx node: None} whose live values read it, in the nodes' order (see keep_old_values)
        self.input_readers = None
        self.frozen = {}              # name -> (InputBuffer, tensor): constants the wrapper holds (kiln.freezing)
        # name -> (frozen name, sizes, strides, offset, remake): made from a frozen view (a copy laid out anew, a
        # library's packed weight), made again by remake(view)
        self.relaid = {}
        self.fallback_ops = []
        self.seeds = {}               # device -> (Seeds, its buffer): the random seeds drawn at each call
        self.float_scalars = {}       # symbol -> a non-integer expression of sizes, which the wrapper computes
        self.float_sizes = {}         # symbol -> an integer size computed through floats, which the wrapper computes
        self.index_checks = {}        # kernel name -> (its site number, its ops): kernels that check indices
        self.size_hints = {}          # symbolic size name -> its value in the traced example (see size_hint)
        self.shape_env = None         # the symbolic sizes' shape environment, which holds the graph's guards
        self._names = 0
        self._named = {}              # name -> graph input, frozen constant or buffer (see buffer)
        # fx node -> its argument whose value it takes: the nodes of an activation that a library call applied as
        # it wrote its output (post_ops.py), which compute nothing more
        self.passes_on = {}
        self.current_node = None
        # nodes run as eager's ops: CPU values of a graph whose kernels are Triton kernels on a GPU
        from kiln.runtime.triton_launch import interpreting
        self.run_eagerly = set() if interpreting() else cpu_values_run_eagerly(gm)

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

    def guard_equal(self, a, b):
        """Make a == b (sizes equal at the traced sizes) a guard of the graph, which Dynamo checks at each call,
        compiling again where a later call's sizes break it, as Inductor's lowering does; False where it cannot
        (no shape environment, a size without a hint, or sizes that differ here). Only graphs with symbolic sizes
        add guards, and those are never cached (graph_cache), so a cache hit never skips one."""
        hint = self.size_hint(a)
        if self.shape_env is None or hint is None or hint != self.size_hint(b):
            return False
        return bool(self.shape_env.evaluate_expr(sympy.Eq(a, b)))

    def holds(self, relation):
        """Whether a relation of sizes holds: as an expression, at every size; else at the traced sizes, where it
        becomes a guard of the graph, as guard_equal's equalities do. False where it cannot be guarded."""
        relation = sympy.sympify(relation)
        if isinstance(relation, sympy.logic.boolalg.BooleanAtom):
            return bool(relation)
        if self.shape_env is None or ir.at_hints(relation, self.size_hints) is not sympy.true:
            return False
        try:   # (in the shape environment's symbols: sizes the wrapper computes through floats are kiln's own)
            return bool(self.shape_env.evaluate_expr(relation.xreplace(self.float_sizes)))
        except Exception:
            return False

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
        self.stored_whole = self.bases_stored_whole()
        with self.in_effect():
            return super().run(enable_io_processing=False)

    # -- fx.Interpreter hooks
    def run_node(self, n):
        self.current_node = n
        value = self.env[self.passes_on[n]] if n in self.passes_on else super().run_node(n)
        if isinstance(value, Lazy) and value.strides is None:
            value.strides = meta_strides(n.meta.get("val"), value.sizes)   # eager's layout, should it be stored
        if n in self.stored_whole and isinstance(value, (Lazy, View)):
            # (a view at an offset of a larger buffer is copied: the outputs viewing it go at eager's offsets)
            value = self.realize_strided(value if isinstance(value, Lazy) or value.offset == 0 else as_lazy(value),
                                         self.stored_whole[n])
            self.eager_images[n] = value
        elif isinstance(value, Lazy) and self.worth_storing(n, value):
            value = self.realize_narrow(value, self.strides_for_users(n, value))
        if self.input_readers is not None:
            self.index_input_reads(n, value)
        return value

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
            if list(given.stride()) != list(strides):
                self.inputs_laid_out_anew.add(target)
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
                env = self.shape_env = size.node.shape_env
                # (torch 2.13 renamed var_to_val; 2.11 has only the old name)
                known = env.backed_var_to_val if hasattr(env, "backed_var_to_val") else env.var_to_val
                self.size_hints.update({str(s): int(known[s]) for s in size.node.expr.free_symbols if s in known})

    def get_attr(self, target, args, kwargs):
        value = super().get_attr(target, args, kwargs)
        if isinstance(value, torch.Tensor) and value.layout == torch.strided:
            if is_frozen(target):
                return self.frozen_value(target, value)
            meta = self.current_node.meta.get("val")
            return constant_value(self, value, inlined=self.current_node not in self.run_eagerly,
                                  device=meta.device if isinstance(meta, torch.Tensor) else None)
        return value

    def call_function(self, target, args, kwargs):
        if target is operator.getitem:
            return args[0][args[1]]
        if target in SCALAR_FUNCTIONS:
            return SCALAR_FUNCTIONS[target](*args)
        val = self.current_node.meta.get("val")
        if target in EAGER_LAYOUT_SCALARS:
            return sym(val)
        if isinstance(val, (torch.SymInt, torch.SymFloat, torch.SymBool)) and target not in LOWERINGS:
            # any other Python function of sizes (math.ceil, math.floor, sym_ite, ...): its value as torch's
            # symbolic shapes computed it, over the same size symbols kiln's buffers are laid out in
            return val.node.expr
        if target is torch.ops.higher_order.with_effects:
            return lower_with_effects(self, *args, **kwargs)
        if target in EFFECT_TOKEN_ENDS:   # nothing to compute: the wrapper calls effectful ops in program order
            return None
        args, kwargs = torch.utils._pytree.tree_map(self.float_scalar, (args, kwargs))
        if self.current_node in self.run_eagerly:
            return self.fallback(target, args, kwargs, "a CPU value of a GPU graph is computed by")
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
        in Python as eager computes it: kernels see sizes as integers, and would divide as integers. A truth value
        of sizes (s0 >= 0, torch._check's; s0 > 3 read as a number) is a symbol the wrapper binds to 0 or 1:
        no kernel or library call takes a SymPy relation."""
        if isinstance(x, sympy.Expr) and (x.is_number or x.is_integer):
            return x   # (a size: tested first, as a SymPy Symbol is also a Boolean)
        if isinstance(x, sympy.logic.boolalg.BooleanAtom):
            return bool(x)
        if isinstance(x, sympy.logic.boolalg.Boolean):
            return self.float_size(x)
        if not isinstance(x, sympy.Expr):
            return x
        return wrapper_symbol(self.float_scalars, ir.FLOAT_SCALAR, x, real=True)

    def float_size(self, expr):
        """An integer size computed through floats (HF DPT's int((n - 1) ** 0.5) is TruncToInt(FloatPow(ToFloat(
        s0 - 1), 0.5))) as a symbol the wrapper binds to its value, computed in Python as eager computes it: a
        kernel computes its indices in integers, and no target spells the float functions there. Its hint is its
        value at the traced sizes."""
        name = wrapper_symbol(self.float_sizes, ir.FLOAT_SIZE, expr, integer=True)
        if isinstance(expr, sympy.logic.boolalg.Boolean):   # (a truth value of sizes, see float_scalar)
            truth = ir.at_hints(expr, self.size_hints)
            hint = int(bool(truth)) if isinstance(truth, sympy.logic.boolalg.BooleanAtom) else None
        else:
            hint = self.size_hint(expr)
        if hint is not None:
            self.size_hints[name.name] = hint
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
        from kiln.codegen import cpp_ops, triton_ops
        spelled = triton_ops.target_ops() if self.on_triton(out.device) else cpp_ops.CPP_OPS
        if name not in spelled:
            return None
        return lambda out, *args: pointwise_value(out, ops_fn(name), *args)


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
    aten.sym_size.int: lambda x, d: x.sizes[d], aten.sym_numel.default: lambda x: product(x.sizes),
}
# eager's layout of a value, as traced: kiln's own may differ (a value stored channels-last, a slice of a value
# computed for it alone at offset 0), and what reads these addresses eager's storage (as_strided)
EAGER_LAYOUT_SCALARS = (aten.sym_stride.int, aten.sym_storage_offset.default)


def wrapper_symbol(table, prefix, expr, **assumptions):
    """The symbol standing for expr in table ({symbol: an expression of sizes the wrapper computes}), added as
    prefix + its position where expr is new."""
    for name, known in table.items():
        if known == expr:
            return name
    name = sympy.Symbol(f"{prefix}{len(table)}", **assumptions)
    table[name] = expr
    return name


for _name in ("sym_float", "sym_int", "sym_max", "sym_min", "sym_sqrt", "sym_not"):
    _fn = getattr(torch, _name, None)
    if _fn is not None:
        SCALAR_FUNCTIONS[_fn] = {"sym_float": lambda a: a, "sym_int": lambda a: a, "sym_max": sympy.Max,
                                 "sym_min": sympy.Min, "sym_sqrt": sympy.sqrt, "sym_not": sympy.Not}[_name]


def touches_complex(node):
    """Whether an FX node reads or makes complex tensors, which kiln's code generators have no types for."""
    vals = [node.meta.get("val")] + [a.meta.get("val") for a in node.all_input_nodes]
    return any(isinstance(v, torch.Tensor) and v.is_complex() for v in torch.utils._pytree.tree_leaves(vals))
