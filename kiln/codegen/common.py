"""What every code generator shares: values with dtypes, CSE scopes, and the `ops` handler skeleton.

A backend subclasses KernelWriter and supplies how to spell loads, stores, loops and the ops table.
"""
import collections
import dataclasses
import functools
import hashlib
import math
import re

import sympy
import torch
from sympy.printing.c import C99CodePrinter
from sympy.printing.precedence import PRECEDENCE

from torch.utils._sympy.functions import (CeilToInt, FloorDiv, FloorToInt, IntTrueDiv, ModularIndexing, RoundToInt,
                                         TruncToInt)
from torch.utils._sympy.functions import Max as TorchMax, Min as TorchMin
from torch.utils._sympy.value_ranges import ValueRanges, bound_sympy

from kiln import ir
from kiln.runtime.autotune import span

LOOP_AND_TEMP_PREFIXES = ("x", "r", "idx", "tmp")   # generated names; other symbols are kernel arguments
BOOL_OPS = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "logical_not",
            "isnan", "isinf", "signbit"}
# a comparison of integer ranges a = (least, greatest) and b -> (whether it holds for every pair of values, whether
# it holds for none)
DECIDED_BY_RANGES = {
    "lt": lambda a, b: (a[1] < b[0], a[0] >= b[1]),
    "le": lambda a, b: (a[1] <= b[0], a[0] > b[1]),
    "gt": lambda a, b: (a[0] > b[1], a[1] <= b[0]),
    "ge": lambda a, b: (a[0] >= b[1], a[1] < b[0]),
    "eq": lambda a, b: (a[0] == a[1] == b[0] == b[1], a[1] < b[0] or b[1] < a[0]),
    "ne": lambda a, b: (a[1] < b[0] or b[1] < a[0], a[0] == a[1] == b[0] == b[1]),
}


@dataclasses.dataclass(frozen=True)
class Value:
    """A generated variable, with the torch dtype it stands for (fp16/bf16 live in float32)."""
    name: str
    dtype: torch.dtype

    def __str__(self):
        return self.name


def result_dtype(op, args):
    if op in BOOL_OPS:
        return torch.bool
    dtypes = [a.dtype for a in args if isinstance(a, Value)]
    out = dtypes[0]
    for d in dtypes[1:]:
        if d != out:
            out = torch.promote_types(out, d)
    return out


def integer_constant(value, dtype):
    """The value a constant of an integer or bool dtype holds: a Python scalar wrapped into the dtype's range, as
    eager converts one (uint8's -1 is 255; for bool, anything nonzero is True, -inf too); an infinity in an integer
    dtype is its greatest or least value, the identity of a min or max (max pooling and split max reductions start
    from -inf in every dtype: a user's infinity does not convert to an integer, eager raises)."""
    if dtype == torch.bool:
        return bool(value)
    info = torch.iinfo(dtype)
    if isinstance(value, float) and math.isinf(value):
        return info.max if value > 0 else info.min
    return (int(value) - info.min) % (info.max - info.min + 1) + info.min


@functools.lru_cache(maxsize=1 << 16)
def argument_symbols(expr):
    """The names of the symbols of an index that are the kernel's arguments (sizes), not its loop variables.
    (Remembered: SymPy walks the whole tree for free_symbols, and codegen asks at every load and store.)"""
    return frozenset(s.name for s in expr.free_symbols if not s.name.startswith(LOOP_AND_TEMP_PREFIXES))


class Scope:
    """Generated lines plus a CSE table; child scopes see their parents' values."""

    def __init__(self, parent=None, indent=0):
        self.parent, self.lines, self.cse, self.indent = parent, [], {}, indent

    def lookup(self, key):
        scope = self
        while scope is not None:
            if key in scope.cse:
                return scope.cse[key]
            scope = scope.parent
        return None

    def line(self, text):
        self.lines.append("    " * self.indent + text)


def integer_form(expr):
    """expr with symbolic shapes' rounding functions of a quotient of sizes (math.ceil(s0 / 3) is
    CeilToInt(IntTrueDiv(s0, 3))) as floor divisions, which kernels spell in integer arithmetic: C would
    print ceil((int)s0 / (int)3), a floor. Sizes are nonnegative and divisors positive."""
    def rounded(f, quotient):
        if not isinstance(quotient, IntTrueDiv):
            return f(quotient)
        a, b = quotient.args
        return FloorDiv(a + b - 1, b) if f is CeilToInt else FloorDiv(a, b)
    return expr.replace(lambda e: isinstance(e, (CeilToInt, FloorToInt, TruncToInt)),
                        lambda e: rounded(type(e), e.args[0]))


@functools.lru_cache(maxsize=1 << 16)
def sizes_through_floats(expr):
    """An index in integer form, and its outermost subexpressions that round a float of sizes to an integer
    (int((n - 1) ** 0.5)) and name no loop variable: the wrapper computes those (GraphLowering.float_size)."""
    expr = integer_form(expr)
    roundings = [e for e in expr.atoms(CeilToInt, FloorToInt, TruncToInt, RoundToInt) if not any(
        s.name.startswith(LOOP_AND_TEMP_PREFIXES) for s in e.free_symbols)]
    return expr, tuple(e for e in roundings if not any(e != o and o.has(e) for o in roundings))


@functools.lru_cache(maxsize=1 << 16)
def printed(printer, expr):
    """An index expression's spelling by a (stateless) printer, remembered: kernels of one shape print the same
    indices (0.75 s of EfficientNet-B0's 1.7 s of Triton lowering, scheduling and codegen)."""
    return printer.doprint(expr)


def index_bounds(expr, counts):
    """The least and greatest values of an integer index expression over its variables' ranges (from 0, counts[v]
    values each), by interval arithmetic over sums, integer multiples, products of nonnegative ranges, floor
    divisions and moduli by positive constants (FloorDiv, ModularIndexing), Max and Min; None for anything else.
    bound_sympy gives the same or looser bounds at ~1 ms an expression: a depthwise convolution's 25 taps are
    masked loads to prove, and the unflattened indices of every kernel hold divisions and moduli."""
    if isinstance(expr, sympy.Integer):
        return int(expr), int(expr)
    if isinstance(expr, sympy.Symbol):
        return (0, counts[expr] - 1) if expr in counts else None
    parts = [index_bounds(a, counts) for a in expr.args]
    if None in parts:
        return None
    if isinstance(expr, sympy.Add):
        return sum(lo for lo, _ in parts), sum(hi for _, hi in parts)
    if isinstance(expr, sympy.Mul):
        lower, upper = 1, 1
        for lo, hi in parts:
            corners = (lower * lo, lower * hi, upper * lo, upper * hi)
            lower, upper = min(corners), max(corners)
        return lower, upper
    if isinstance(expr, (sympy.Max, sympy.Min, TorchMax, TorchMin)):   # (SymPy's, or torch's own in strides)
        pick = max if isinstance(expr, (sympy.Max, TorchMax)) else min
        return pick(lo for lo, _ in parts), pick(hi for _, hi in parts)
    if isinstance(expr, FloorDiv) and parts[1][0] == parts[1][1] > 0:
        (lo, hi), (d, _) = parts
        return lo // d, hi // d
    if isinstance(expr, ModularIndexing) and parts[1][0] == parts[1][1] > 0 and parts[2][0] == parts[2][1] > 0:
        (lo, hi), (d, _), (m, _) = parts
        if hi // d - lo // d < m and (lo // d) % m <= (hi // d) % m:   # no wrap-around within the range
            return (lo // d) % m, (hi // d) % m
        return 0, m - 1
    return None


class IndexPrinter(C99CodePrinter):
    """SymPy index expressions as integer C code. An index is nonnegative, but not every part of it: SymPy
    moves multiples of the divisor out of a floor division, (6 - r0) // 3 is 2 + (-r0) // 3, and C's and
    Triton's integer / and % round toward zero. A base that may be negative is divided by kiln's floor
    division helpers (a reversed view read the wrong elements: fuzz seed 72226, prod's gradient)."""
    DIV, MAX, MIN = "/", "kiln_imax", "kiln_imin"
    FLOORDIV, MOD = "kiln_floordiv<int64_t>", "kiln_remainder<int64_t>"
    REFUSED = ()   # size functions the target has no spelling for (the graph runs eagerly)

    def doprint(self, expr, assign_to=None):
        expr = integer_form(sympy.sympify(expr))
        if self.REFUSED and expr.has(*self.REFUSED):
            raise NotImplementedError(f"kiln: no kernel spelling for the size expression {expr}")
        return super().doprint(expr, assign_to)

    def _print_Function(self, e):
        # a function of sizes with no spelling here (symbolic shapes' PythonMod, RoundToInt, ...) is refused,
        # and kiln runs the graph eagerly, rather than printed as a C or Triton call of that name
        if type(e).__name__ not in self.known_functions:
            raise NotImplementedError(f"kiln: no kernel spelling for the size expression {e}")
        return super()._print_Function(e)

    def _print_FloorDiv(self, e):
        base, div = e.args
        if not base.is_nonnegative:
            return f"{self.FLOORDIV}({self.dividend(base)}, {self._print(div)})"
        return f"(({self._print(base)}) {self.DIV} ({self._print(div)}))"   # a divisor may be a sum

    def _print_ModularIndexing(self, e):
        base, div, mod = e.args
        if not base.is_nonnegative:
            return f"{self.MOD}({self.dividend(FloorDiv(base, div))}, {self._print(mod)})"
        inner = f"({self._print(base)})" if div == 1 else f"(({self._print(base)}) {self.DIV} ({self._print(div)}))"
        return f"({inner} % ({self._print(mod)}))"

    def dividend(self, e):
        """A floor division or modulus helper's first operand."""
        return self._print(e)

    def _print_Pow(self, e):
        base, exp = e.args
        if exp.is_Integer and exp > 0:   # each factor parenthesized: (s0 + 1)**2 is not s0 + 1 * s0 + 1
            return "(" + " * ".join([self.parenthesize(base, PRECEDENCE["Mul"])] * int(exp)) + ")"
        return super()._print_Pow(e)

    def _print_Integer(self, e):
        return str(int(e))

    def _print_Symbol(self, e):
        return e.name

    def _print_Max(self, e):
        return self._nest(self.MAX, e.args)

    def _print_Min(self, e):
        return self._nest(self.MIN, e.args)

    def _nest(self, fn, args):
        if len(args) == 1:
            return self._print(args[0])
        return f"{fn}({self._print(args[0])}, {self._nest(fn, args[1:])})"


class KernelWriter:
    """The `ops` handler that turns node bodies into code for one kernel.

    Subclasses define: OPS (op name -> format), spell_load/spell_store, spell_constant,
    spell_cast, declare (a new variable), and the loop structure in `generate`."""

    OPS = {}
    printer = IndexPrinter()

    def __init__(self, kernel, graph):
        self.kernel, self.graph = kernel, graph
        self.index_checks = {}    # a checked indirect index -> the name of its in-bounds test
        self.scope = Scope()
        self.counter = 0
        self.args = {}            # buffer name -> "in" / "out"
        self.symbols = set()      # size symbols the kernel needs as arguments
        self.placement = None
        self.remap = None
        self.r_offset = 0         # added to the reduction index r0 (a lane of a split row loop)
        self.ranges = {}          # an integer or bool value's text -> its (least, greatest) on every lane in range
        self.loops = {}           # the symbol of a loop being written (ops.fold's) -> how many values it takes, from 0

    @staticmethod
    def store_target(node):
        """The buffer a node's value is stored into: an input that it writes over (an optimizer's parameter or
        state, updated in place) by that input's own name, so that the kernel takes one pointer for what it
        reads and writes there, not two (each pointer costs a launch about a microsecond on the host: GPT-2's
        AdamW step passed 1184)."""
        return node.buf.mutates or node.name

    # -- variables and scopes
    def fresh(self, prefix="tmp"):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, expr, dtype, key=None):
        """A variable holding expr, reusing one that already holds the same expression."""
        key = key or expr
        found = self.scope.lookup(key)
        if found is not None:
            return found
        v = Value(self.fresh(), dtype)
        self.declare(v, expr)
        self.scope.cse[key] = v
        return v

    def push(self, indent=1):
        self.scope = Scope(self.scope, self.scope.indent + indent)
        return self.scope

    def pop(self):
        inner, self.scope = self.scope, self.scope.parent
        return inner

    def close(self):
        """Leave the innermost scope, its lines kept in the enclosing one (its values stay private to it)."""
        inner = self.pop()
        self.scope.lines += inner.lines

    def index(self, expr):
        expr = self.with_float_sizes(self.remapped(expr))
        self.symbols |= argument_symbols(expr)
        return expr

    def with_float_sizes(self, expr):
        """expr with the sizes it computes through floats as the wrapper's symbols for them (the kernel's
        arguments)."""
        expr, roundings = sizes_through_floats(expr)
        if not roundings:
            return expr
        named = {e: self.graph.float_size(e) for e in roundings}
        self.symbols |= {s.name for s in named.values()}
        return expr.xreplace(named)

    def remapped(self, expr):
        """A node's index at this kernel's loop variables."""
        expr = self.remap(expr) if self.remap else expr
        return expr.subs(self.kernel.r, self.kernel.r + self.r_offset) if self.r_offset else expr

    def within_buffer(self, name, expr, counts):
        """Whether name[expr] lies within name's elements for every value of its index variables, counts being
        {variable: how many values it takes, from 0}: static sizes and strides, none negative, no offset."""
        try:
            layout = self.graph.buffer(name).layout
        except KeyError:
            return False
        if expr.free_symbols - set(counts) or min(counts.values(), default=1) < 1 or layout.offset != 0 or \
                not all(ir.is_static(e) for e in (*layout.sizes, *layout.strides)) or \
                any(int(st) < 0 for st in layout.strides) or layout.numel == 0:
            return False
        bounds = index_bounds(expr, counts)
        if bounds is None:
            found = bound_sympy(expr, {v: ValueRanges(0, n - 1) for v, n in counts.items()})
            bounds = found.lower, found.upper
        return bounds[0] >= 0 and bounds[1] < span(layout.sizes, layout.strides, 0)

    def print_index(self, expr):
        return printed(self.printer, self.with_float_sizes(expr))

    # -- the ops handler
    def load(self, name, index):
        again = self.placement.recomputed.get((name, index)) if self.placement else None
        if again is not None:
            return self.recompute(*again)
        # a value this kernel computed earlier in scope is reused: the scheduler checked its index
        local = self.scope.lookup(("local", name))
        if local is not None:
            return local
        self.args.setdefault(name, "in")
        dtype = self.graph.buffer_dtype(name)
        return self.emit(self.spell_load(name, self.print_index(self.index(index)), dtype), dtype)

    def index_expr(self, expr, dtype):
        v = self.emit(self.spell_index_value(self.print_index(self.index(expr)), dtype), dtype)
        # bounded over the whole row, before a split row loop's lane adds its offset (remapped): each lane's r0 + its
        # offset stays in the row, and every lane is decided alike (the C++ writer keeps one lane for a row whose
        # body is masked: a lane masked where the others were not summed its stretch over the whole row)
        counts = self.lane_counts()
        at = self.remap(expr) if self.remap else expr
        bounds = index_bounds(at, counts) if counts and dtype in (torch.int32, torch.int64) else None
        if bounds is not None and torch.iinfo(dtype).min <= bounds[0] and bounds[1] <= torch.iinfo(dtype).max:
            self.ranges[v.name] = bounds
        return v

    def lane_counts(self):
        """{the kernel's lane variable: how many values it takes in range, from 0} where both counts are static,
        else None, with the loops' variables being written. Lanes past them compute nothing that is stored, and load
        nothing unmasked."""
        N, R = (ir.static_numel([e]) for e in (self.kernel.numel, self.kernel.rnumel))
        return {self.kernel.x: N, self.kernel.r: R, **self.loops} if N and R else None

    def constant(self, value, dtype):
        v = Value(self.spell_constant(value, dtype), dtype)
        if dtype is not None and not dtype.is_floating_point:
            self.ranges[v.name] = (int(integer_constant(value, dtype)),) * 2
        return v

    def decided(self, op, args):
        """A comparison or logical op that the index bounds of its integer arguments decide, as a constant, or
        the one argument of a logical and/or or a select that decides it (None where they do not): a padded window's
        bounds test that no tap can fail (a stride-2 convolution's taps never pass the input's far edge; the
        middle tap of a 3-wide window never leaves the input) costs nothing, and its region needs no mask."""
        ranges = [self.ranges.get(str(a)) for a in args]
        if op in DECIDED_BY_RANGES and None not in ranges:
            always, never = DECIDED_BY_RANGES[op](*ranges)
            return self.constant(True, torch.bool) if always else self.constant(False, torch.bool) if never else None
        if op == "where" and ranges[0] in ((0, 0), (1, 1)) and \
                getattr(args[1], "dtype", None) == getattr(args[2], "dtype", False):
            return args[1] if ranges[0] == (1, 1) else args[2]
        if op in ("logical_and", "logical_or") and all(getattr(a, "dtype", None) == torch.bool for a in args):
            deciding, neutral = ((0, 0), (1, 1)) if op == "logical_and" else ((1, 1), (0, 0))
            for a, b, ra in ((args[0], args[1], ranges[0]), (args[1], args[0], ranges[1])):
                if ra in (deciding, neutral):
                    return a if ra == deciding else b
        return None

    def reduction_result(self, p, value):
        """A reduction's value in its own dtype: a bf16/fp16 sum accumulates in float32 and is rounded once, as
        eager's result is, also where a consumer in the same kernel reads it (x.sum().float() kept the float32
        sum: fuzz seed 144317, a bf16 gradient summed to a float32 0-dim input's shape)."""
        dtype = p.node.buf.dtype
        return self.to_dtype(value, dtype) if ir.dtype_is_low_precision(dtype) and value.dtype != dtype else value

    def to_dtype(self, x, dtype, src_dtype=None):
        if x.dtype == dtype:
            return x
        return self.emit(self.spell_cast(x, dtype), dtype)

    def indirect_indexing(self, value, size, check=True, wrap=False):
        """An index read from memory; with wrap, negative ones count from the end (x[i], not gather). Out-of-bounds ones are
        replaced by 0, so that no load reads outside its buffer; stores through them are skipped, and the
        kernel reports the index through the graph's error flags, which the wrapper turns into an
        IndexError (kiln_index_error). The same value into the same size is declared (and checked) once where
        it is in scope: a max-pool's backward reads each window's index for its gradient and for its argmax.
        A dim of size 0 has no stand-in in bounds: lowering leaves ops that index one to eager
        (indexing.indexes_an_empty_dim), and one that gets here fails the graph's compile rather than reading
        outside a buffer."""
        size = sympy.sympify(size)
        if size == 0:
            raise NotImplementedError(f"{self.kernel} reads through an index into a dim of size 0")
        size = self.print_index(self.index(size))
        key = ("indirect", str(value), size, check, wrap)
        found = self.scope.lookup(key)
        if found is not None:
            return found
        name = self.fresh("idx")
        if check:
            self.index_checks[name] = f"{name}_ok"
            self.args.setdefault(ir.INDEX_FLAGS, "out")
        self.declare_index(name, value, size, check, wrap, ir.index_check_site(self.graph, self.kernel))
        self.scope.cse[key] = symbol = sympy.Symbol(name, integer=True)
        return symbol

    def index_tests(self, index):
        """The in-bounds tests of the checked indirect indices a store's address uses."""
        return [ok for name, ok in self.index_checks.items() if re.search(rf"\b{name}\b", index)]

    def masked(self, cond, body, other):
        """body() only where cond holds (its loads may be out of bounds elsewhere), else other; body() alone
        where cond holds on every lane in range."""
        if self.ranges.get(str(cond)) == (1, 1):
            return body()
        return self.region(cond, body, other)

    def region(self, cond, body, other):
        self.push()
        result = body()
        inner = self.pop()
        return self.spell_masked(cond, inner, result, other)

    def fold(self, count, step, init):
        return ir.unrolled_fold(count, step, init)

    def rand(self, seed, offset):
        return self._random("rand", seed, offset)

    def randn(self, seed, offset):
        return self._random("randn", seed, offset)

    def _random(self, kind, seed, offset):
        """seed: the value loaded from the graph's seeds (GraphLowering.new_seed)"""
        return self.emit(self.OPS[kind].format(seed, self.print_index(self.index(offset))), torch.float32)

    def __getattr__(self, op):
        if op not in self.OPS:
            raise NotImplementedError(f"kiln codegen: no {type(self).__name__} spelling for ops.{op}")

        def apply(*args):
            decided = self.decided(op, args)
            return self.apply(op, args) if decided is None else decided
        return apply

    def apply(self, op, args):
        return self.emit(self.OPS[op].format(*args), result_dtype(op, args))

    # -- running bodies
    def run_body(self, placement):
        """The node's value at the kernel's current indices (its body under this handler)."""
        self.placement, self.remap = placement, placement.remap()
        node = placement.node
        with ir.use_handler(self):
            value = node.buf.node.run(node.dvars, node.rvars)
        return value

    def recompute(self, src, at):
        """src's value computed again at another index (scheduler.Kernel.recompute_at): its body, its index
        substituted by at, read from memory where the node being generated reads it."""
        remap, self.remap = self.remap, src.remap_at(at)
        try:
            node = src.node
            return node.buf.node.run(node.dvars, node.rvars)
        finally:
            self.remap = remap

    def store_index(self, placement):
        self.remap = placement.remap()
        node = placement.node
        with ir.use_handler(self):   # a scatter's target loads its indices here
            at = node.buf.node.out_index(node.dvars, node.rvars)
        return self.print_index(self.index(node.buf.layout.index(at)))


def unread_values_dropped(lines, declaration):
    """lines without the declarations of values no other line reads, until none is left (declaration: a pattern
    whose group 1 is the declared name, at a line's start; an update names its target twice): the index values
    whose bounds tests their bounds decided (KernelWriter.decided), and on the C++ target the inputs of a kept value
    computed again in a later loop before the value itself was found in its row buffer. The compilers would drop
    them too; a reader should not meet them."""
    while True:
        uses = collections.Counter(re.findall(r"\btmp\d+\b", "\n".join(lines)))
        kept = [line for line in lines if not ((m := declaration.match(line)) and uses[m.group(1)] == 1)]
        if len(kept) == len(lines):
            return lines
        lines = kept


# an identifier of its own, never an attribute or a qualified name: a buffer may be named as an op (a saved `where`),
# which tl.where and std::max must keep (one pattern for every kernel: one of each kernel's names took 4% of BERT's
# codegen to compile)
IDENTIFIER = re.compile(r"(?<![\w.:])[A-Za-z_]\w*")


def named_by_content(text, functions, args, salt=""):
    """A kernel's source as it is built and run: its buffer arguments renamed by position (in_ptr0, out_ptr1,
    ...) and its functions (the kernel's first, then its parts') named kernel_<the ops they compute>_<a hash of
    the text>, so that identical kernels (a model's repeated layers) have identical source, defined and built
    once in a graph and found in the build caches by other graphs and processes. salt: what else the kernel is
    built with (Triton's warps), hashed into the name. Returns (name, text)."""
    stand_ins = {b: f"{mode}_ptr{i}" for i, (b, mode) in enumerate(args.items())}
    stand_ins |= {f: f"kiln_function{j}" for j, f in enumerate(functions)}
    text = IDENTIFIER.sub(lambda m: stand_ins.get(m.group(0), m.group(0)), text)
    digest = hashlib.sha256((salt + "\n" + text).encode()).hexdigest()[:10]
    name = f"kernel_{re.sub(r'^kernel[0-9_]*', '', functions[0]).strip('_')}_{digest}".replace("__", "_")
    names = {f"kiln_function{j}": name if j == 0 else f"{name}_part{j}" for j in range(len(functions))}
    return name, re.sub(r"\bkiln_function\d+\b", lambda m: names[m.group(0)], text)
