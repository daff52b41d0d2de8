"""kiln's loop-level IR, defined by run.

A buffer's body is a Python function of SymPy indices that calls `ops.load`, `ops.add`, ...
Which handler stands behind `ops` decides what running the body means: C++ or Triton code,
the list of reads, or an op count. Every analysis and code generator reads this one form.
"""
import contextlib
import dataclasses
import functools
import operator

import sympy
import torch
from torch.utils._sympy.functions import FloorDiv, Max as TorchMax, Min as TorchMin, ModularIndexing

__all__ = ["ops", "use_handler", "FloorDiv", "ModularIndexing"]


class _OpsDispatch:
    """`ops.name(...)` forwards to the innermost handler installed by `use_handler`."""
    stack = []

    def __getattr__(self, name):
        # resolved at call time, so `ops.exp` may be passed around before any handler is installed
        return lambda *args, **kwargs: getattr(self.stack[-1], name)(*args, **kwargs)


ops = _OpsDispatch()


@contextlib.contextmanager
def use_handler(handler):
    _OpsDispatch.stack.append(handler)
    try:
        yield handler
    finally:
        _OpsDispatch.stack.pop()


# ---------------------------------------------------------------- index helpers

def at_point(expr, values):
    """expr with symbols replaced by numbers ({symbol: int}), evaluated: by the expression's integer evaluator where
    it has one (evaluator), else by xreplace."""
    evaluate = evaluator(expr)
    if evaluate is not None:
        try:
            return sympy.Integer(evaluate(values))
        except (KeyError, ZeroDivisionError):   # a symbol left free (a symbolic size), or a division by zero:
            pass                                # SymPy's answer (an expression, zoo)
    return expr.xreplace({s: sympy.Integer(v) for s, v in values.items()})


_INTEGER_OPS = {sympy.Add: sum, sympy.Max: max, sympy.Min: min, TorchMax: max, TorchMin: min,   # (torch's, in strides)
                sympy.Mul: lambda factors: functools.reduce(operator.mul, factors, 1),
                FloorDiv: lambda args: args[0] // args[1], ModularIndexing: lambda args: args[0] // args[1] % args[2]}


@functools.lru_cache(maxsize=1 << 16)
def evaluator(expr):
    """A function of {symbol: int} computing an integer index expression with Python's integers, whose // and % floor
    as FloorDiv and ModularIndexing do; None where expr holds anything else (a rational, another function). Probing
    a load's steps evaluated it at a few points by xreplace, which builds SymPy trees: ~0.5 ms a probe,
    EfficientNet-B0's GPU training graphs spent ~10% of their lowering, scheduling and codegen there."""
    if isinstance(expr, sympy.Integer):
        value = int(expr)
        return lambda values: value
    if isinstance(expr, sympy.Symbol):
        return lambda values: values[expr]
    combine = _INTEGER_OPS.get(type(expr))
    parts = [evaluator(a) for a in expr.args] if combine is not None else None
    if parts is None or None in parts:
        return None
    return lambda values: combine([part(values) for part in parts])


def steps_at(expr, point, along):
    """How far an index moves when each symbol of `along` goes one up from point ({symbol: int}), probed
    numerically: divisions and moduli (of reshaped views) hide a step from symbolic inspection."""
    start = at_point(expr, point)
    return [at_point(expr, {**point, v: point[v] + 1}) - start for v in along]


def step_at(expr, point, var):
    return steps_at(expr, point, [var])[0]


def index_vars(prefix, n):
    return list(_index_vars(prefix, n))


@functools.lru_cache(maxsize=None)
def _index_vars(prefix, n):
    """(Remembered: a Symbol with assumptions takes ~60 us to make, and every body's analysis asks for its vars.)"""
    return tuple(sympy.Symbol(f"{prefix}{i}", integer=True, nonnegative=True) for i in range(n))


def product(xs):
    return functools.reduce(operator.mul, xs, sympy.Integer(1))


def contiguous_strides(sizes):
    strides, acc = [], sympy.Integer(1)
    for s in reversed(sizes):
        strides.append(acc)
        acc = acc * s
    return strides[::-1]


def expand(expr):
    """sympy.expand, returning expr itself where it is expanded already (most index expressions): expand walks and
    rebuilds every subexpression to find nothing to distribute, a third of the SymPy time of EfficientNet-B0's GPU
    lowering, scheduling and codegen."""
    return expr if isinstance(expr, sympy.Basic) and is_expanded(expr) else sympy.expand(expr)


@functools.lru_cache(maxsize=1 << 16)
def is_expanded(expr):
    """Whether expr is a sum of products of numbers, symbols, and floor divisions and moduli of such sums, which
    sympy.expand returns as they are."""
    return all(f.is_Atom or isinstance(f, (FloorDiv, ModularIndexing)) and all(map(is_expanded, f.args))
               for t in (expr.args if expr.is_Add else (expr,)) for f in (t.args if t.is_Mul else (t,)))


def strided_index(index, strides, offset=0):
    return expanded_index(tuple(index), tuple(strides), offset)


@functools.lru_cache(maxsize=1 << 16)
def expanded_index(index, strides, offset):
    """strided_index, remembered: a body's loads are expanded again at each of its runs (analysis, scheduling,
    codegen), a depthwise convolution's 25 taps each time."""
    return expand(offset + sum((i * s for i, s in zip(index, strides)), sympy.Integer(0)))


def unflatten(flat, sizes):
    """Indices of each dim of a row-major `sizes` box at linear position `flat`."""
    live = [i for i, s in enumerate(sizes) if s != 1]
    out, div = [sympy.Integer(0)] * len(sizes), sympy.Integer(1)
    for i in reversed(live):
        # the outermost live dim needs no modulus: flat never reaches past the box
        out[i] = FloorDiv(flat, div) if i == live[0] else ModularIndexing(flat, div, sizes[i])
        div = div * sizes[i]
    return out


def _index_atom(term):
    """term as (coeff, base, divisor, modulus or None) when it is coeff * (base // d) or coeff * (base // d % m)."""
    atoms = [f for f in sympy.Mul.make_args(term) if isinstance(f, (FloorDiv, ModularIndexing))]
    if len(atoms) != 1:
        return None
    a = atoms[0]
    base, div, mod = (a.args[0], a.args[1], None) if isinstance(a, FloorDiv) else a.args
    return sympy.cancel(term / a), base, div, mod


@functools.lru_cache(maxsize=1 << 16)
def simplify_index(expr):
    """Expand, and fold the pieces that unflattening leaves behind back together:
    c*(a//d % m) + c*m*(a//(d*m)) is c*(a//d), and c*a//1 is c*a. (Remembered: scheduling and codegen remap
    the same loads again and again, 0.75 s of EfficientNet-B0's 1.7.)"""
    expr = expand(expr)
    while True:
        terms = sympy.Add.make_args(expr)
        atoms = [(t, _index_atom(t)) for t in terms]
        pair = next(((ti, tj, ai) + (aj,) for ti, ai in atoms if ai and ai[3] is not None
                     for tj, aj in atoms if aj and tj is not ti and aj[1] == ai[1]
                     and expand(aj[2] - ai[2] * ai[3]) == 0 and expand(aj[0] - ai[0] * ai[3]) == 0), None)
        if pair is None:
            return expr
        ti, tj, (c, base, div, mod), (_, _, _, outer_mod) = pair
        merged = FloorDiv(base, div) if outer_mod is None else ModularIndexing(base, div, mod * outer_mod)
        expr = expand(expr - ti - tj + c * merged)


INDEX_FLAGS = "kiln_flags"   # the graph's int64[4] error flags: site, index, size, and 1 while no index failed
DIVISION_BY_ZERO = -1        # the size in the flags when an integer division by zero failed (the C++ target)


def index_check_site(graph, kernel):
    """The number a kernel reports an out-of-bounds index with (its kernel is named in the error)."""
    return graph.index_checks.setdefault(kernel.name, (len(graph.index_checks) + 1, kernel.origins()))[0]


FLOAT_SCALAR = "scalar"   # names the symbols that stand for float scalars the wrapper computes from sizes


def is_float_scalar(name):
    return name.startswith(FLOAT_SCALAR)


FLOAT_SIZE = "fsize"   # names the symbols that stand for integer sizes the wrapper computes through floats


def sym(x):
    """A torch size (int, SymInt, or already a SymPy expression: a size argument that came from a
    symbolic graph input) as a SymPy expression."""
    if isinstance(x, torch.SymInt):
        return x.node.expr
    if isinstance(x, sympy.Expr):
        return x
    return sympy.Integer(int(x))


# ---------------------------------------------------------------- buffers

@dataclasses.dataclass
class Layout:
    dtype: torch.dtype
    device: torch.device
    sizes: list
    strides: list
    offset: object = sympy.Integer(0)

    def index(self, idx):
        return strided_index([i for i, s in zip(idx, self.sizes) if s != 1],
                             [st for s, st in zip(self.sizes, self.strides) if s != 1], self.offset)

    @property
    def numel(self):
        return product(self.sizes)

    def is_dense(self):
        """Whether the elements (static sizes and strides) fill exactly numel elements of memory, each once."""
        if not all(is_static(e) for e in (*self.sizes, *self.strides, self.offset)) or self.offset != 0:
            return False
        span = 1
        for stride, size in sorted((int(st), int(sz)) for sz, st in zip(self.sizes, self.strides) if sz != 1):
            if stride != span:
                return False
            span *= size
        return True

    def key(self):
        """What two buffers of the same layout share: sizes, strides, dtype and device (not the offset)."""
        return tuple(self.sizes), tuple(self.strides), self.dtype, self.device   # (SymPy's equality is structural)

    def same_memory(self, other):
        """Whether a buffer of this layout can hold other's memory: the same layout, or two dense layouts of as
        many elements (a matmul's [rows, n] output and the [batch, tokens, n] view a GELU of it stores)."""
        if (self.dtype, self.device) != (other.dtype, other.device):
            return False
        if self.key() == other.key() and self.offset == other.offset:
            return True
        return self.is_dense() and other.is_dense() and self.numel == other.numel


@dataclasses.dataclass(eq=False)
class Buffer:
    """A named allocation. Graph inputs, computed buffers and extern outputs are all Buffers."""
    name: str
    layout: Layout

    @property
    def dtype(self):
        return self.layout.dtype

    def reads(self):
        return set()


@dataclasses.dataclass(eq=False)
class InputBuffer(Buffer):
    storage_offset: object = 0        # where the caller's tensor starts in its storage


@dataclasses.dataclass(eq=False)
class Pointwise:
    """out[idx] = body(idx) for every idx in `sizes`."""
    sizes: list
    body: object          # fn(idx) -> ops value

    rsizes = ()

    def run(self, idx, ridx=()):
        return self.body(idx)

    def out_index(self, idx, ridx=()):
        """Where the value at (idx, ridx) is stored, per output dim."""
        return idx


@dataclasses.dataclass(eq=False)
class Reduction:
    """out[idx] = reduce_{ridx in rsizes} body(idx, ridx), with `reduction_type` naming the combine."""
    sizes: list
    rsizes: list
    reduction_type: str   # sum prod max min any all argmax argmin
    body: object          # fn(idx, ridx) -> ops value
    src_dtype: torch.dtype

    def run(self, idx, ridx):
        return self.body(idx, ridx)

    def out_index(self, idx, ridx):
        return idx


@dataclasses.dataclass(eq=False)
class Scatter:
    """out[target(idx)] = body(idx), or combined with what is there by `reduce`, for every idx in `sizes`.

    out is the buffer `base`, updated in place: the lowering makes `base` a fresh copy of the tensor
    scattered into, so nothing else reads it. Several idx may share a target; the kernel runs them in order."""
    sizes: list
    body: object          # fn(idx) -> ops value
    target: object        # fn(idx) -> the output's index per dim (may hold indirect indices)
    reduce: str | None    # None (store), "sum", "prod", "max", "min"
    base: str

    rsizes = ()

    def run(self, idx, ridx=()):
        return self.body(idx)

    def out_index(self, idx, ridx=()):   # loads the indices: run it under the handler that writes the store
        return self.target(idx)


@dataclasses.dataclass(eq=False)
class Scan:
    """out[idx, r at dim] = combine of body(idx, (r',)) over r' <= r: cumulative sums, products, logsumexp."""
    sizes: list           # every dim but the scanned one
    rsizes: list          # [the scanned dim's size]
    combine: str          # sum prod logaddexp
    body: object          # fn(idx, ridx) -> ops value
    dim: int

    def run(self, idx, ridx):
        return self.body(idx, ridx)

    def out_index(self, idx, ridx):
        return list(idx[:self.dim]) + list(ridx) + list(idx[self.dim:])


@dataclasses.dataclass(eq=False)
class ComputedBuffer(Buffer):
    node: object = None               # Pointwise, Reduction, Scan or Scatter
    origins: tuple = ()               # the ATen ops this buffer computes, for names and the trace
    mutates: str | None = None        # the graph input whose memory this buffer is written into (copy_)

    @functools.cached_property
    def analysis(self):
        return BodyAnalysis.of(self)

    def reads(self):
        return self.analysis.reads


@dataclasses.dataclass(eq=False)
class ExternKernel:
    """A library call (mm, conv) or an eager fallback: `outputs = target(*args, **kwargs)`.

    Tensor arguments are TensorRefs; outputs are Buffers with the layouts eager gives."""
    name: str
    target: object
    args: tuple
    kwargs: dict
    outputs: list                      # list[Buffer | None], one per returned tensor (a single one for a tensor)
    returns_tuple: bool
    fallback: bool
    origins: tuple = ()
    check_strides: bool = False        # the wrapper restrides an output that the call returned laid out otherwise
    completes: tuple = ()              # buffers whose values are final only after this call (a collective's wait)
    reads_in_background: bool = False  # reads its arguments after it returns (a collective): their memory is kept

    def reads(self):
        return set(self.read_names)

    @functools.cached_property
    def read_names(self):   # (its arguments are set once, when lowering makes it; the scheduler asks again and again)
        return frozenset(r.buffer.name for r in tensor_refs((self.args, self.kwargs)))


@dataclasses.dataclass(eq=False)
class TensorRef:
    """A strided view of a buffer, as an extern call receives it."""
    buffer: Buffer
    sizes: list
    strides: list
    offset: object


def tensor_refs(tree):
    if isinstance(tree, TensorRef):
        yield tree
    elif isinstance(tree, (list, tuple)):
        for t in tree:
            yield from tensor_refs(t)
    elif isinstance(tree, dict):
        for t in tree.values():
            yield from tensor_refs(t)


# ---------------------------------------------------------------- analysis

class BodyAnalysis:
    """What a body reads and the index expressions it uses, found by running it symbolically."""

    def __init__(self):
        self.reads = set()
        self.loads = []          # (buffer name, index expr)
        self.index_exprs = []    # index expressions used as values (iota, masks)
        self.opcount = 0

    @staticmethod
    def of(buf):
        node = buf.node
        handler = BodyAnalysis()
        idx, ridx = index_vars("d", len(node.sizes)), index_vars("r", len(node.rsizes))
        with use_handler(_AnalysisHandler(handler)):
            node.run(idx, ridx)
            handler.store_index = buf.layout.index(node.out_index(idx, ridx))
        if isinstance(node, Scatter):
            handler.reads.add(node.base)
        handler.vars = (idx, ridx)
        return handler


def unrolled_fold(count, step, init):
    """What `ops.fold(count, step, init)` computes: step(k, value) for k = 0, 1, ..., count - 1, value starting at
    init and each step's result the next one's. A handler that writes no loop (analyses, C++) runs the steps one
    after another, each at its integer k; Triton's writer loops over k instead (a depthwise window's rows)."""
    value = init
    for k in range(count):
        value = step(sympy.Integer(k), value)
    return value


class _AnalysisHandler:
    def __init__(self, out):
        self.out = out
        self.n = 0

    def load(self, name, index):
        self.out.reads.add(name)
        self.out.loads.append((name, index))
        return self._value()

    def index_expr(self, expr, dtype):
        self.out.index_exprs.append(expr)
        return self._value()

    def indirect_indexing(self, value, size, check=True, wrap=False):
        self.n += 1
        return sympy.Symbol(f"indirect{self.n}", integer=True)

    def masked(self, cond, body, other):
        # the loads under the mask are reads too (cat, constant_pad_nd): run the body to record them
        body()
        return self._value()

    def fold(self, count, step, init):
        return unrolled_fold(count, step, init)   # each step's loads, at its own k

    def _value(self, *args, **kwargs):
        self.out.opcount += 1
        return "v"

    def __getattr__(self, name):
        return self._value


def is_static(expr):
    return isinstance(expr, (int, sympy.Integer)) or (isinstance(expr, sympy.Expr) and expr.is_number)


def at_hints(expr, hints):
    """expr with each size symbol named in hints ({name: value}, the sizes a graph was traced with) replaced by its
    value; index variables and sizes without a hint stay. For choices that only shape the code (how a reduction
    walks memory, its split, its tiles), which a kernel traced at these sizes keeps, correct at any size."""
    expr = sympy.sympify(expr)
    return expr.xreplace({s: hints[s.name] for s in expr.free_symbols if s.name in hints})


def static_numel(sizes, default=None):
    n = product(sizes)
    return int(n) if is_static(n) else default


def dtype_is_low_precision(dtype):
    return dtype in (torch.float16, torch.bfloat16)



# ---------------------------------------------------------------- a readable dump

class _TextHandler:
    """Runs a body into numbered lines, one per value (common subexpressions once): nested expressions
    grow exponentially where a value is read twice at each step (a max-pool window)."""

    def __init__(self, remap=lambda index: index):
        self.lines, self.names, self.remap = [], {}, remap

    def value(self, text):
        if text not in self.names:
            self.names[text] = f"v{len(self.names)}"
            self.lines.append(f"{self.names[text]} = {text}")
        return self.names[text]

    def load(self, name, index):
        return self.value(f"load({name}, {self.remap(index)})")

    def index_expr(self, expr, dtype):
        return self.value(f"index({self.remap(expr)}, {dtype})")

    def constant(self, value, dtype):
        return f"{repr(value)}:{str(dtype).replace('torch.', '')}"   # (0.1 in float16 is not 0.1 in float32)

    def to_dtype(self, x, dtype, src_dtype=None):
        return self.value(f"to_{str(dtype).replace('torch.', '')}({x})")

    def indirect_indexing(self, value, size, check=True, wrap=False):
        return sympy.Symbol(f"({value})", integer=True)

    def masked(self, cond, body, other):
        return self.value(f"masked({cond}, {body()}, {other})")

    def fold(self, count, step, init):
        return unrolled_fold(count, step, init)

    def __getattr__(self, op):
        return lambda *args: self.value(f"{op}({', '.join(map(str, args))})")


def body_text(buf, dvars, rvars, remap=lambda index: index):
    """What a computed buffer's body computes, as text, its indices passed through remap (into a kernel's
    vars): where two texts are equal, the values are."""
    handler = _TextHandler(remap)
    with use_handler(handler):
        value = buf.node.run(dvars, rvars)
    return "\n".join(handler.lines + [f"return {value}"])


def format_ir(lowering):
    lines = []
    for b in lowering.graph_inputs:
        if isinstance(b, InputBuffer):
            lines.append(f"{b.name}: input {b.dtype} sizes={b.layout.sizes} strides={b.layout.strides}")
    for b in lowering.buffers:
        if isinstance(b, ExternKernel):
            outs = ", ".join(o.name for o in b.outputs if o is not None)
            kind = "fallback" if b.fallback else "extern"
            lines.append(f"{outs} = {kind} {b.target}({', '.join(sorted(b.reads()))})")
            continue
        node = b.node
        idx, ridx = index_vars("d", len(node.sizes)), index_vars("r", len(node.rsizes))
        text = _TextHandler()
        with use_handler(text):
            body = node.run(idx, ridx)
            at = node.out_index(idx, ridx)
        head = f"{b.name}: {type(node).__name__} {b.dtype} sizes={node.sizes}"
        if isinstance(node, Reduction):
            head += f" {node.reduction_type} over r{list(range(len(node.rsizes)))} sizes={node.rsizes}"
        if isinstance(node, Scan):
            head += f" {node.combine} scan along dim {node.dim}"
        if isinstance(node, Scatter):
            head += f" into {node.base}" + (f", {node.reduce} where targets repeat" if node.reduce else "")
        lines.append(f"{head}  # {', '.join(map(str, b.origins))}")
        lines += [f"    {line}" for line in text.lines] + [f"    {b.name}[{', '.join(map(str, at))}] = {body}"]
    return "\n".join(lines) + "\n"
