"""The generated Python wrapper: `call(args)` binds sizes, allocates, launches kernels and externs,
frees or reuses dead buffers, and returns the graph's outputs with eager's strides."""
import math
import re

import sympy
import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily
from torch.utils._sympy.printers import PythonPrinter

from kiln import ir
from kiln.lowering.externs import copy_exact
from kiln.lowering.values import OpThen
from kiln.scheduler import Kernel


class PyIndexPrinter(PythonPrinter):
    """Size expressions as Python: torch's printer knows every function symbolic shapes make (FloorDiv,
    CeilToInt, IntTrueDiv, ToFloat, ...); 1 / s0 and the square root of a size (float scalars of a graph:
    torch.sym_sqrt, math.sqrt(d) in BigBird, is SymPy's Pow(d, 1/2)), which torch's printer refuses, are spelled
    here, the root as eager's math.sqrt (correctly rounded, as x ** 0.5 is not always)."""

    def _print_Pow(self, e):
        base, exp = e.args
        if exp.is_Integer and exp < 0:
            return f"(1 / ({self._print(base ** -exp)}))"
        if exp.is_Rational and abs(exp) == sympy.Rational(1, 2):
            root = f"math.sqrt({self._print(base)})"
            return root if exp > 0 else f"(1 / {root})"
        return super()._print_Pow(e)


def pyexpr(e):
    return PyIndexPrinter().doprint(sympy.sympify(e))


# what a graph computes from sizes, spelled by pyexpr: numbers, and truth values (a returned n != 3 is SymPy's
# Ne(s0, 3), whose repr named no function the wrapper knows)
SIZE_VALUES = (sympy.Expr, sympy.logic.boolalg.Boolean)


# torch's fast paths for what a wrapper does most (Dynamo's guards module, in C++): a strided view at an
# offset from the base's own, and allocations on the current device, without the dispatcher's per-call cost
view = torch._C._dynamo.guards._reinterpret_tensor


def restrided(t, sizes, strides):
    """An extern's result t laid out with the strides kiln planned for it (and compiled its readers for):
    a copy where the library returned another layout."""
    if t.numel() == 0 or all(n == 1 or a == b for a, b, n in zip(t.stride(), strides, sizes)):
        return t
    return torch.empty_strided(sizes, strides, dtype=t.dtype, device=t.device).copy_(t)


RUN_BYTES = 1 << 20   # the most a run's steps allocate: its buffers are held from its call's start to its end


def follow(holders, name):
    while name in holders:
        name = holders[name]
    return name


def reads_only_where_written(kernel, out, src):
    """Whether kernel may write out over src: each element of src is read only at the element of out stored
    over it (same memory offset), before that store, by the node that stores out or by pointwise nodes whose
    values flow into it. So the program that overwrites an element has read it first, and no other program
    reads it. (A GELU or SwiGLU over a matmul's output is fused with the views around it: the node that
    reads src is then the view's producer, not the stored view.)"""
    produced = kernel.produced()
    writer = produced.get(out)
    if kernel.product is not None and src in kernel.product.step.reads():   # (every program reads the operands)
        return False
    if writer is None or writer.node.is_reduction or writer.node.scatter or writer.node.scan or \
            writer.node.writes_into:
        return False
    feeding, todo = set(), [out]
    while todo:
        for r in produced[todo.pop()].node.reads:
            if r in produced and r not in feeding:
                feeding.add(r)
                todo.append(r)
    store = writer.remap()(writer.node.buf.analysis.store_index)
    # (a value computed again at another index reads its inputs there: a layer norm's shift, the first element
    # of a residual sum, read the matmul output that the sum was written over, and GPT-2 lost its accuracy)
    reads = {p: [index for _, index in p.loads(only=src)] for p in kernel.placements}
    readers = [p for p in kernel.placements if reads[p]]
    for p in readers:
        n = p.node
        if (p is not writer and n.name not in feeding) or n.is_reduction or n.scatter or n.scan or \
                (p.level, p.segment) != (writer.level, writer.segment):
            return False
        if any(ir.expand(index - store) != 0 for index in reads[p]):
            return False
    return bool(readers)


def index_assert_message(graph, sites):
    """The message of the GPU's asynchronous index check: CUDA's assert takes at most 254 characters (T5's
    graph named so many ops that its first call failed)."""
    ops = ", ".join(sorted({o for _, ops in sites.values() for o in ops}))
    message = f"kiln: an index read by {graph} is out of bounds (ops: {ops})"
    return message if len(message) < 255 else message[:250] + "...)"


def index_error(flags, sites):
    site, index, size, _ = flags.tolist()
    flags.copy_(torch.tensor([0, 0, 0, 1]))   # the next call starts clean
    kernel, ops = sites[site]
    if size == ir.DIVISION_BY_ZERO:   # eager's message for an integer division by zero
        raise RuntimeError(f"ZeroDivisionError (in kiln kernel {kernel}: {', '.join(ops)})")
    raise IndexError(f"index {index} is out of bounds for size {size} (in kiln kernel {kernel}: {', '.join(ops)})")


def graph_devices(graph):
    """The devices of the graph's inputs and buffers."""
    return {b.layout.device for b in graph.graph_inputs if hasattr(b, "layout")} | {
        o.layout.device for b in graph.buffers for o in getattr(b, "outputs", [b]) if o is not None}


def graph_device(graph):
    """The graph's CUDA device (where its kernels run and its index checks are made), else the CPU."""
    return next((d for d in graph_devices(graph) if d.type == "cuda"), torch.device("cpu"))


def check_storage_read(x, first, last, itemsize):
    """first and last: positions from x's first element."""
    held, offset = x.untyped_storage().nbytes() // itemsize, x.storage_offset()
    if not 0 <= offset + first <= offset + last < held:
        raise RuntimeError(f"as_strided reads storage positions {offset + first} to {offset + last} of an input "
                           f"whose storage holds {held} elements: out of bounds for its storage (kiln)")


def base_globals():
    """What every wrapper's source names."""
    return {"torch": torch, "math": math, "_view": view, "_restrided": restrided,
            "_check_storage_read": check_storage_read,
            "_copy_exact": copy_exact, "_empty_cpu": torch._C._dynamo.guards._empty_strided_cpu,
            "_empty_cuda": torch._C._dynamo.guards._empty_strided_cuda}


def index_globals(graph, index_checks):
    """The error flags of a graph's checked indices (fresh for each loaded wrapper) and what reports them."""
    if index_checks is None:
        return {}
    device, sites = index_checks
    with unset_fake_temporarily():   # (AOTAutograd compiles under its fake mode)
        flags = index_flags(device)
        ok = flags.numpy()[3:] if device.type == "cpu" else flags[3]
    return {ir.INDEX_FLAGS: flags, "_index_ok": ok, "_index_error": index_error, "_index_sites": sites,
            "_index_message": index_assert_message(graph, sites)}


def index_flags(device):
    """The flags a graph's kernels set where an index is out of bounds (none set yet; the last one reads "ok")."""
    return torch.tensor([0, 0, 0, 1], dtype=torch.int64, device=device)


class WrapperCode:
    def __init__(self, graph, sched, launch, name, profiled=False, launched_externs=frozenset(), merge=None):
        self.graph, self.sched, self.launch, self.name = graph, sched, launch, name
        # library calls that the target's module makes into outputs allocated here, launched as its kernels are
        # (a CPU graph's products: codegen.cpp_products)
        self.launched_externs = launched_externs
        # merge(steps, holder): the call of one function of the target's module that launches steps in turn, each
        # buffer's memory read off holder(buffer name) (the C++ module's runs); None: a call per launch. Each
        # launch through the wrapper costs ~0.5 us of Python (ctypes, pointer reads): a transformer's quick CPU
        # training step makes 75.
        self.merge = None if profiled else merge
        self.profiled = profiled   # every launch and extern call through _profile (options={"trace_profile": True})
        self.lines = []
        self.device_guard = None   # the CUDA device index, once a buffer is allocated there
        self.globals = {}          # the objects the source names (extern ops, dtypes, ...), beyond base_globals()
        self.index_checks = None   # (device, sites) of the graph's checked indices: index_globals() makes their flags
        self.consts = 0

    def const(self, value):
        self.consts += 1
        key = f"_c{self.consts}"
        self.globals[key] = value
        return key

    def arg(self, a):
        """Python source for an extern argument."""
        if isinstance(a, ir.TensorRef):
            return self.tensor(a.buffer, a.sizes, a.strides, a.offset)
        if isinstance(a, (list, tuple)):
            inner = ", ".join(self.arg(x) for x in a)
            return f"[{inner}]" if isinstance(a, list) else f"({inner}{',' if len(a) == 1 else ''})"
        if isinstance(a, SIZE_VALUES):
            return pyexpr(a)
        if a is None or isinstance(a, (bool, int, float, str)):
            return repr(a)
        return self.const(a)

    def tensor(self, buf, sizes, strides, offset):
        lay = buf.layout
        if list(sizes) == list(lay.sizes) and list(strides) == list(lay.strides) and offset == 0:
            return buf.name
        return f"_view({buf.name}, {self.shape(sizes)}, {self.shape(strides)}, {pyexpr(offset)})"

    def shape(self, xs):
        return "(" + "".join(f"{pyexpr(x)}, " for x in xs) + ")"

    def generate(self):
        g = self.graph
        w = self.lines.append
        names = [b.name if isinstance(b, ir.InputBuffer) else f"_sym{i}" for i, b in enumerate(g.graph_inputs)]
        w("def call(args):")
        w(f"    {', '.join(names)}{',' if len(names) == 1 else ''} = args" if names else "    pass")
        w("    args.clear()")
        bound = self.bind_symbols(names)
        self.check_storage_reads(bound)
        for name, expr in g.float_scalars.items():
            w(f"    {name} = float({pyexpr(expr)})")
        for name, expr in g.float_sizes.items():
            w(f"    {name} = int({pyexpr(expr)})")
        reuse, in_place, dead_after = self.plan_memory()
        self.read = {o.buffer.name for o in g.graph_outputs if hasattr(o, "buffer")} | {
            r for step in self.sched.steps for r in step.reads()}
        steps = self.sched.steps
        for run in self.runs():
            holders = {}   # a buffer -> the one whose name holds its memory at the run's call (reused under it)
            for i in run:
                self.prepare(steps[i], reuse, in_place, holders)
            if len(run) > 1:   # (what the call launches, as the lines it stands for)
                for i in run:
                    w(f"    # {self.launch(steps[i])}{self.label(steps[i])}")
                w("    " + self.merge([steps[i] for i in run], lambda name: follow(holders, name)))
            elif self.launched(steps[run[0]]):
                w(f"    {self.timed(steps[run[0]].name, self.launch(steps[run[0]]))}{self.label(steps[run[0]])}")
            else:
                self.extern(steps[run[0]])
            dead = set().union(*(dead_after.get(i, ()) for i in run))
            if dead:
                w(f"    del {', '.join(sorted(dead))}")
        if g.index_checks:
            self.check_indices()
        rets = [self.output(o) for o in g.graph_outputs]
        w(f"    return ({', '.join(rets)}{',' if len(rets) == 1 else ''})")
        if self.device_guard is not None:   # the fast CUDA allocator allocates on the current device
            start = self.lines.index("    args.clear()") + 1
            self.lines[start:] = [f"    with torch.cuda._DeviceGuard({self.device_guard}):"] + [
                "    " + line for line in self.lines[start:]]
        source = "\n".join(self.lines) + "\n"
        if g.frozen:
            # frozen constants are read by name, as inputs: only those the source names are held (not a
            # convolution's weight that only its channels-last copy, or oneDNN's packed one, was made from)
            named = set(re.findall(r"\w+", source))
            self.globals.update({name: tensor for name, (_, tensor) in g.frozen.items() if name in named})
        return source

    def prepare(self, step, reuse, in_place, holders):
        """The lines before a step's launch or call: its buffers allocated (or a dead one's memory taken over), and a
        kernel's aliases."""
        w = self.lines.append
        for buf in self.allocations(step):
            if buf.name in reuse:
                w(f"    {buf.name} = {reuse[buf.name]}; del {reuse[buf.name]}  # reuses a dead buffer")
                holders[reuse[buf.name]] = buf.name
            elif buf.name in in_place:
                over = in_place[buf.name]
                w(f"    {buf.name} = {self.tensor(over, buf.layout.sizes, buf.layout.strides, 0)}  "
                  f"# written over {over.name}, which dies here")
            else:
                w(f"    {buf.name} = {self.allocation(buf.layout)}")
        if isinstance(step, Kernel):
            produced = step.produced()
            for m, n in sorted(step.aliases.items()):
                lay = produced[m].node.buf.layout
                w(f"    {m} = {self.tensor(produced[n].node.buf, lay.sizes, lay.strides, 0)}  "
                  f"# the values of {n}, at the same offsets")
            for node in step.nodes:
                if node.writes_into:
                    w(f"    {node.name} = {node.writes_into}")

    def launched(self, step):
        return isinstance(step, Kernel) or step.name in self.launched_externs

    def label(self, step):
        """The library op a launched extern stands for, as a comment after its launch."""
        return f"  # {step.target}" if step.name in self.launched_externs else ""

    def runs(self):
        """The steps in runs, each made by one call: with a merge (the C++ module's), consecutive launches whose
        buffers have static sizes, RUN_BYTES of them at most (a run's buffers are all allocated before its call, and
        those that die inside it freed after it); else one step each."""
        runs, run_bytes, joins = [], 0, False   # joins: whether the last step may be followed in its run
        for i, step in enumerate(self.sched.steps):
            allocated = self.run_bytes(step)
            if joins and allocated is not None and run_bytes + allocated <= RUN_BYTES:
                runs[-1].append(i)
                run_bytes += allocated
            else:
                runs.append([i])
                run_bytes = allocated or 0
            joins = allocated is not None
        return runs

    def run_bytes(self, step):
        """The bytes a step allocates where it can be part of a run (a launch of static sizes, with a merge), else
        None."""
        if self.merge is None or not self.launched(step):
            return None
        buffers = self.allocations(step)
        counts = [ir.static_numel(b.layout.sizes) for b in buffers]
        return None if None in counts else sum(n * b.layout.dtype.itemsize for n, b in zip(counts, buffers))

    def check_indices(self):
        """The kernels that read indices from memory report an out-of-bounds one in the graph's flags (and
        neither read nor write through it): the call raises as eager does, on the CPU an IndexError naming the
        index and the kernel's ops. On a GPU, reading the flags would wait for the kernels, so an asynchronous
        assert reports it at the next synchronization, as eager's device-side asserts do."""
        g = self.graph
        device = graph_device(g)
        self.index_checks = (device, {site: (name, ops) for name, (site, ops) in g.index_checks.items()})
        if device.type == "cpu":
            self.lines.append(f"    if not _index_ok[0]: _index_error({ir.INDEX_FLAGS}, _index_sites)")
        else:
            self.lines.append("    torch._assert_async(_index_ok, _index_message)")

    def allocation(self, lay):
        device = lay.device
        if device.type == "cuda" and self.device_guard in (None, device.index):
            self.device_guard = device.index or 0
        elif device.type != "cpu":
            return (f"torch.empty_strided({self.shape(lay.sizes)}, {self.shape(lay.strides)}, dtype={lay.dtype}, "
                    f"device={self.const(device)})")
        return f"_empty_{device.type}({self.shape(lay.sizes)}, {self.shape(lay.strides)}, {lay.dtype})"

    def plan_memory(self):
        """Which allocations take over a dead buffer of the same layout (reuse), which are written over the
        memory of a buffer that dies in the very kernel that writes them (in_place: name to the dying buffer),
        and what to free after each step.

        Freeing at last use keeps peak memory at or under eager's; writing in place keeps it under, where
        eager holds an op's input and output at once (a GELU's). A dead buffer waits for reuse only until
        something else allocates: a library call, or an allocation of another layout. Held past that, it
        would add to the peak what eager's freed memory would have served (ConvNeXt held a dead 31 MiB
        buffer while cuDNN allocated the next 31 MiB output)."""
        g = self.graph
        outputs = {o.buffer.name for o in g.graph_outputs if hasattr(o, "buffer")}
        inputs = g.input_names
        owned = {}   # buffers this wrapper allocates or receives from externs
        aliases = {m: n for step in self.sched.steps if isinstance(step, Kernel) for m, n in step.aliases.items()}
        viewed = set(aliases.values())
        last = {}
        bases = set()  # updated in place by a scatter, which owns the memory from then on
        for i, step in enumerate(self.sched.steps):
            if isinstance(step, Kernel):
                owned.update({b.name: b for b in self.allocations(step)})
                owned.update({n.name: n.buf for n in step.nodes if n.scatter})
                bases |= {n.scatter.base for n in step.nodes if n.scatter}
                used = step.reads() | {b.name for b in self.allocations(step)} | set(step.stores) | {
                    n.writes_into for n in step.nodes if n.writes_into}
            else:
                owned.update({o.name: o for o in step.outputs if o is not None})
                used = step.reads() | {o.name for o in step.outputs if o is not None}
            for n in sorted(used):   # (in a fixed order: which dead buffer a later one reuses follows it)
                last[n] = i
                if n in aliases:   # a view keeps the memory it views
                    last[aliases[n]] = i
        # a collective may read its arguments until its wait, which may be in another graph: their memory goes to
        # no other buffer (they are let go at their last use here: the collective holds them itself)
        kept = {n for step in self.sched.steps if getattr(step, "reads_in_background", False) for n in step.reads()}
        kept |= {aliases[n] for n in kept if n in aliases}
        last_used_by = {}   # step -> the names it reads last, in the order of `last`
        for n, at in last.items():
            last_used_by.setdefault(at, []).append(n)
        free, reuse, in_place, dead_after = {}, {}, {}, {}
        for i, step in enumerate(self.sched.steps):
            ending = last_used_by.get(i, ())
            # (a buffer that an alias views is read under two names: the in-place check sees one)
            dying = {n for n in ending if n in owned and n not in outputs and n not in bases and n not in viewed
                     and n not in kept}
            if not self.launched(step):
                free.clear()
            for buf in self.allocations(step):
                pool = free.get(buf.layout.key())
                if pool:
                    reuse[buf.name] = pool.pop()
                    dead_after[last[reuse[buf.name]]].discard(reuse[buf.name])
                    continue
                over = next((n for n in sorted(dying) if isinstance(step, Kernel) and
                             owned[n].layout.same_memory(buf.layout) and reads_only_where_written(step, buf.name, n)),
                            None)
                if over is not None:
                    in_place[buf.name] = owned[over]
                    dying.discard(over)   # its memory lives on as buf's
                else:
                    free.clear()
            for n in ending:
                if n in owned and n not in outputs:
                    if n in dying:
                        free.setdefault(owned[n].layout.key(), []).append(n)
                    dead_after.setdefault(i, set()).add(n)
                elif (n in inputs or n in aliases) and n not in outputs:
                    # never reused (the caller may hold an input; an alias views another buffer's memory), but
                    # let go: a backward graph's inputs are the activations saved for it, which eager frees one
                    # by one as the backward goes
                    dead_after.setdefault(i, set()).add(n)
        return reuse, in_place, dead_after

    def check_storage_reads(self, bound):
        """An input that an as_strided reads beyond its elements is read in the caller's storage: a call whose
        storage does not hold the positions read raises, as eager's as_strided does, rather than reading past it
        (a slice returned by another compiled graph may keep its elements alone). Positions of sizes the wrapper
        does not bind are not checked, nor frozen parameters' (kiln.freezing checks those)."""
        inputs = {b.name: b for b in self.graph.graph_inputs if isinstance(b, ir.InputBuffer)}
        for name, spans in self.graph.inputs_read_in_storage.items():
            for first, last in filter(None, spans) if name in inputs else ():
                if (sympy.sympify(first).free_symbols | sympy.sympify(last).free_symbols) <= bound:
                    self.lines.append(f"    _check_storage_read({name}, {pyexpr(first)}, {pyexpr(last)}, "
                                      f"{inputs[name].layout.dtype.itemsize})")

    def bind_symbols(self, names):
        """Each size symbol is read off the first input that carries it as a size, a stride or itself (the symbols
        bound, returned)."""
        bound = set()
        for name, inp in zip(names, self.graph.graph_inputs):
            if isinstance(inp, sympy.Symbol) and inp not in bound:
                self.lines.append(f"    {inp.name} = {name}")
                bound.add(inp)
        for name, inp in zip(names, self.graph.graph_inputs):
            if not isinstance(inp, ir.InputBuffer):
                continue
            for d, (size, stride) in enumerate(zip(inp.layout.sizes, inp.layout.strides)):
                for expr, getter in ((size, "size"), (stride, "stride")):
                    if isinstance(expr, sympy.Symbol) and expr not in bound:
                        self.lines.append(f"    {expr.name} = {name}.{getter}({d})")
                        bound.add(expr)
        return bound

    def allocations(self, step):
        if step.name in self.launched_externs:
            return [o for o in step.outputs if o is not None]
        if isinstance(step, Kernel):
            product = [step.product.buffer] if step.product is not None and step.product.stored else []
            return product + [p.node.buf for p in step.placements if p.node.name in step.stores and
                              not p.node.writes_into]
        return []

    def extern(self, step):
        args = [self.arg(a) for a in step.args] + [f"{k}={self.arg(v)}" for k, v in step.kwargs.items()]
        target = step.target   # a library call through its Python binding where that is the same op
        if isinstance(target, OpThen) and not step.fallback:
            target = OpThen(python_binding(target.op, step.args, step.kwargs), target.then, target.label)
        elif not step.fallback:
            target = python_binding(target, step.args, step.kwargs)
        fn = self.const(target)
        outs = [o.name if o is not None else "_" for o in step.outputs]
        lhs = (", ".join(outs) + ("," if len(outs) == 1 else "")) if step.returns_tuple else outs[0]
        call = self.timed(step.name, f"{fn}({', '.join(args)})")
        self.lines.append(f"    {lhs} = {call}  # {step.target}")
        for o in step.outputs if step.check_strides else ():
            if o is not None and o.name in self.read:
                strides = self.shape(o.layout.strides)
                self.lines.append(f"    if {o.name}.stride() != {strides}: "
                                  f"{o.name} = _restrided({o.name}, {self.shape(o.layout.sizes)}, {strides})")

    def timed(self, name, call):
        return f"_profile({name!r}, lambda: {call})" if self.profiled else call

    def output(self, o):
        if isinstance(o, ir.TensorRef) or hasattr(o, "buffer"):
            value = self.tensor(o.buffer, o.sizes, o.strides, o.offset)
            # a frozen constant is the same tensor at every call: the caller gets a copy of its own
            return f"_copy_exact({value})" if o.buffer.name in self.graph.frozen else value
        if isinstance(o, SIZE_VALUES):
            return pyexpr(o)
        return repr(o)


def python_binding(op, args, kwargs):
    """The ATen op's Python binding (torch.convolution for aten.convolution.default), which parses its arguments
    in C++: a convolution's call costs 3 us of host time where the OpOverload's boxed call costs 7, and a CNN
    calls a hundred. Only for default overloads (the binding may not offer the others), and where no other
    overload of the op could take these arguments (mm.dtype takes three), so that the binding resolves to this
    one; else the op itself."""
    if not isinstance(op, torch._ops.OpOverload) or op.namespace != "aten" or op._overloadname != "default":
        return op
    name = op._schema.name.split("::")[1]
    binding = getattr(torch._C._VariableFunctions, name, None)
    packet = getattr(torch.ops.aten, name)
    others = [getattr(packet, o)._schema for o in packet.overloads() if o != op._overloadname]
    if binding is None or any(takes(schema, len(args), kwargs) for schema in others):
        return op
    return binding


def takes(schema, positional, kwargs):
    """Whether a schema binds a call of this many positional arguments and these keywords."""
    params = [a for a in schema.arguments if not a.kwarg_only]
    given = {a.name for a in params[:positional]} | set(kwargs)
    return positional <= len(params) and set(kwargs) <= {a.name for a in schema.arguments} and \
        all(a.name in given or a.has_default_value() for a in schema.arguments)
