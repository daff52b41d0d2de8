"""C++/OpenMP code generation: all kernels of a graph in one translation unit.

Each kernel is `extern "C" void name(pointers..., int64_t sizes...)`:
  #pragma omp parallel for     over the outer index x0
    loops over r0              one per loop segment (a reduction's loop, or the inner pointwise loop)
fp16/bf16 values are computed in float and rounded where eager would round.
"""
import hashlib
import math
import re

import torch

from kiln import ir
from kiln.scheduler import writes
from kiln.codegen.common import (KernelWriter, Scope, Value, integer_constant, named_by_content, result_dtype,
                                 unread_values_dropped)
from kiln.codegen import cpp_loops   # (its CHUNK and LANES, read there: one value for both modules)
from kiln.codegen.cpp_ops import CPP_OPS, CTYPES, LIBMVEC, MATH2, PRELUDE, SCATTER_COMBINE, SPECIAL_FUNCTIONS, ctype

PARALLEL_MIN_ELEMENTS = 4096   # below this, starting OpenMP threads costs more than it saves (32768 left small
# conv nets' tensors on one core, and the next convolution's threads read them from the other core's cache:
# MobileNetV2's CPU training step 0.76x Inductor's at 32768, 0.82x at 4096 and 1024; ResNet and GPT-2 unmoved)
KEEP_ROW_MAX = 16384            # longest static row whose costly values a kernel keeps in a per-thread buffer


class CppKernel(cpp_loops.CppLoops, KernelWriter):
    """One C++ kernel.

    A reduction kernel walks each row in several loops (max, then sum of exp, then the normalized
    values, for softmax). A costly value that a later loop would compute again, like softmax's exp, is
    instead kept in a row buffer on the thread's stack by the first loop and read back by later ones.
    The first generation finds such values (`wanted`); a second generation keeps them (`keeps`)."""
    OPS = CPP_OPS
    COSTLY = frozenset(LIBMVEC + MATH2 + tuple(SPECIAL_FUNCTIONS) + ("lgamma", "pow", "sigmoid"))

    def __init__(self, kernel, graph, keeps=None, forms=None):
        super().__init__(kernel, graph)
        self.keeps = {c: (f"keep{i}", loop, dtype) for i, (c, (loop, dtype)) in enumerate((keeps or {}).items())}
        self.wanted = {}          # canonical form -> (the first loop that computes it, dtype): worth keeping
        self.first_loop = {}
        self.canon = {}           # variable -> its value as an expression of loads and outer variables, interned
        self.forms = dict(forms or {})   # canonical form -> short name; a second generation reuses the first's
        self.loop_id, self.loop_scopes = None, set()
        self.hoist = None         # where values invariant along the vectorized loop being written go
        self.conditional = False  # whether the loop body being written has masked loads
        self.masks = []           # the conditions of the masked bodies being written, outermost first
        self.guarded = False      # whether the masked body being written does something only its mask allows
        self.symbolic_stretch = False
        self.invariant_conditions = False   # whether a condition is computed before a vectorized loop that selects on it

    def load(self, name, index):
        h = self.hoist
        if h is not None and self.scope is not h.body and self.readable_before_loop(name, index):
            # a load under a mask whose address does not move along r0 and stays inside its buffer is read once
            # before the loop, unconditionally: g++ vectorizes no masked load of one address, and the whole loop
            # stayed scalar (a padded batch norm + ReLU6 of MobileNetV2 ran at 9x its copy floor)
            masked, self.scope = self.scope, h.body
            try:
                v = super().load(name, index)
            finally:
                self.scope = masked
        elif h is not None and self.masks and (at := self.address_in_bounds(name, index)) is not None:
            # read at every r0, from an address that stays in the buffer where the masks do not hold: g++
            # vectorizes no load under a mask that does not change along r0 (a max-pool's window over a padded
            # row of channels stayed scalar: 44 us where 10 vectorized)
            masked, self.scope = self.scope, h.body
            try:
                self.args.setdefault(name, "in")
                dtype = self.graph.buffer_dtype(name)
                base, inner = at
                if base is not None:
                    base = self.emit(base, torch.int64)   # (declared before the loop)
                address = inner if base is None else str(base) if inner == "0" else f"{base} + {inner}"
                v = self.emit(self.spell_load(name, address, dtype), dtype)
            finally:
                self.scope = masked
        else:
            self.guarded |= bool(self.masks) and not self.reads_no_memory(name, index)
            v = super().load(name, index)
        if v.name not in self.canon:
            self.canon[v.name] = self.intern(f"{name}[{self.print_index(self.remap(index) if self.remap else index)}]")
        return v

    def readable_before_loop(self, name, index):
        """Whether reading name[index] is safe and the same at every r0: an address of x0 alone (static sizes),
        within the buffer's elements for every x0, in a buffer this kernel does not write."""
        if self.reads_no_memory(name, index) or name in writes(self.kernel):
            return False
        expr, numel = self.index(index), self.index(self.kernel.numel)
        return numel.is_Integer and self.within_buffer(name, expr, {self.kernel.x: int(numel)})

    def reads_no_memory(self, name, index):
        """Whether a load of name[index] is a value this kernel computed: recomputed, or in scope."""
        return bool(self.placement and self.placement.recomputed.get((name, index)) is not None or
                    self.scope.lookup(("local", name)) is not None)

    def address_in_bounds(self, name, index):
        """For a load under masks that do not change along r0, at an address of x0 plus one of r0 alone (static
        sizes): that address, its part of x0 replaced by 0 where the masks do not hold, if r0's part alone stays
        inside the buffer (where they hold, the whole address does: eager reads it): (that selection, None where
        x0's part is 0; r0's part), or None."""
        h, r = self.hoist, self.kernel.r
        conditions = " && ".join(f"({m})" for m in self.masks)
        # (not a bool buffer: where the masks do not hold, r0's part may read a gap between its rows, whose byte
        # need not be a bool's 0 or 1)
        if h.varies(conditions) or self.reads_no_memory(name, index) or \
                name in writes(self.kernel) or self.graph.buffer_dtype(name) == torch.bool:
            return None
        expr, rnumel = self.index(index), self.index(self.kernel.rnumel)
        outer = expr.subs(r, 0)
        inner = ir.expand(expr - outer)
        if r in outer.free_symbols or inner.free_symbols - {r} or not rnumel.is_Integer or \
                not self.within_buffer(name, inner, {r: int(rnumel)}):
            return None
        outer_text = self.print_index(outer)
        if h.varies(outer_text):   # a gathered index declared in a masked body
            return None
        return (f"{conditions} ? {outer_text} : 0" if outer != 0 else None), self.print_index(inner)

    def intern(self, form):
        """A short name for a canonical form: forms of nested values then stay short (a max-pool window
        nests 27 maxima, each reading the previous one twice)."""
        return self.forms.setdefault(form, f"@{len(self.forms)}")

    def apply(self, op, args):
        if op in INTEGER_DIVISIONS and not result_dtype(op, args).is_floating_point:
            args = (args[0], self.nonzero_divisor(args[1]))
        expr = self.OPS[op].format(*args)
        canon = self.intern(self.OPS[op].format(*[self.canon.get(str(a), str(a)) for a in args]))
        in_loop = op in self.COSTLY and self.scope in self.loop_scopes   # not under a mask: always computed
        kept = self.keeps.get(canon) if in_loop else None
        at = kept and self.print_index(self.kernel.r + self.r_offset)
        found = self.scope.lookup(expr)
        if found is not None:
            # computed already, where this loop sees it (before the row's loops: a row's first element, which a
            # training layer norm's statistics shift by): neither kept nor read back from a row buffer. A later
            # loop read a row buffer no loop wrote (uninitialized stack: 3.7e17 off a bf16 layer norm of sin(x))
            v = found
        elif kept and kept[1] < self.loop_id:
            v = self.emit(f"{kept[0]}[{at}]", result_dtype(op, args))
        else:
            v = self.emit(expr, result_dtype(op, args))
            if kept:
                self.scope.line(f"{kept[0]}[{at}] = {v};")
            if in_loop and self.first_loop.setdefault(canon, self.loop_id) < self.loop_id:
                self.wanted[canon] = (self.first_loop[canon], v.dtype)
        self.canon[v.name] = canon
        return v

    def declare(self, v, expr):
        self.place([f"{ctype(v.dtype)} {v.name} = {expr};"], expr, [v.name])

    def place(self, lines, reads, names):
        """Declarations of names, computed from the expression text reads: before a vectorized loop where
        nothing they read changes along it (an embedding's row index: computed, and checked, once per row),
        else where the code is being written."""
        h = self.hoist
        if h is not None and self.scope is h.body and not h.varies(reads):
            h.outer.lines[h.at:h.at] = ["    " * h.outer.indent + line for line in lines]
            h.at += len(lines)
            self.invariant_conditions |= any(line.startswith("bool ") for line in lines)
            return
        for line in lines:
            self.scope.line(line)
        if h is not None:
            h.variant.update(names)

    def nonzero_divisor(self, b):
        """An integer divisor, 1 where it is 0: eager raises ZeroDivisionError, and C's division traps
        (SIGFPE killed the process). The kernel reports it through the graph's error flags, as a bad index of
        size -1, which the wrapper raises as eager's error (runtime.wrapper.index_error)."""
        if re.fullmatch(r"\w+\((-?[1-9]\d*)LL\)", str(b)):   # a nonzero constant
            return b
        name = self.fresh("divisor")
        self.guarded |= bool(self.masks)   # (a divisor of 0 where a mask does not hold is no error)
        self.args.setdefault(ir.INDEX_FLAGS, "out")
        self.place([f"const bool {name}_ok = {b} != 0;",
                    f"{name}_bad = kiln_imax({name}_bad, {name}_ok ? {NO_INDEX} : 0);",
                    f"{ctype(b.dtype)} {name} = {name}_ok ? {b} : 1;"], str(b), [name, f"{name}_ok"])
        self.index_reports.append((name, ir.index_check_site(self.graph, self.kernel), ir.DIVISION_BY_ZERO))
        return Value(name, b.dtype)

    def declare_index(self, name, value, size, check, wrap, site):
        lines = [f"int64_t {name} = {value};" + (f" {name} = {name} < 0 ? {name} + {size} : {name};" if wrap else "")]
        self.guarded |= bool(self.masks) and check   # (a bad index where a mask does not hold is no error)
        if check:   # branch-free, so that the loop still vectorizes: reported once per outer iteration
            # the largest bad index is kept (g++ vectorizes a max, not an or; an index of NO_INDEX itself is
            # kept as NO_INDEX + 1, to be seen)
            ok = self.index_checks[name]
            lines += [f"const bool {ok} = {name} >= 0 && {name} < {size};",
                      f"{name}_bad = kiln_imax({name}_bad, {ok} ? {NO_INDEX} : kiln_imax({value}, {NO_INDEX} + 1)); "
                      f"{name} = {ok} ? {name} : 0;"]
            self.index_reports.append((name, site, size))
        self.place(lines, f"{value} {size}", [name, f"{name}_ok"])

    def spell_load(self, name, index, dtype):
        return f"kiln_load({name}[{index}])" if ir.dtype_is_low_precision(dtype) else f"{name}[{index}]"

    def spell_index_value(self, index, dtype):
        return f"static_cast<{ctype(dtype)}>({index})"

    def spell_constant(self, value, dtype):
        if dtype == torch.bool:
            return "true" if integer_constant(value, dtype) else "false"
        t = ctype(dtype)
        if dtype is not None and not dtype.is_floating_point:
            value = integer_constant(value, dtype)
            return f"{t}({value + 1}LL - 1)" if value == -2**63 else f"{t}({value}{'ULL' if value >= 2**63 else 'LL'})"
        if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
            special = '__builtin_nan("")' if math.isnan(value) else ("__builtin_inf()" if value > 0 else "-__builtin_inf()")
            return f"{t}({special})"
        return f"{t}({float(value)!r})"

    def spell_cast(self, x, dtype):
        if dtype.is_floating_point and not x.dtype.is_floating_point:
            converted = f"kiln_int_to_float<{ctype(dtype)}>({x})"   # (float for bf16 and fp16)
        elif x.dtype.is_floating_point and not dtype.is_floating_point and dtype != torch.bool:
            converted = f"kiln_float_to_int<{ctype(dtype)}>({x})"
        else:
            converted = f"static_cast<{ctype(dtype)}>({x})"
        rounding = {torch.bfloat16: "kiln_round_bf16", torch.float16: "kiln_round_half"}.get(dtype)
        return f"{rounding}({converted})" if rounding else converted

    def region(self, cond, body, other):
        self.conditional = True
        outer_guarded, self.guarded = self.guarded, False
        self.masks.append(cond)
        try:
            return super().region(cond, body, other)
        finally:
            self.masks.pop()
            self.guarded |= outer_guarded   # (an inner body guarded by its mask: the outer one is guarded too)

    def spell_masked(self, cond, inner, result, other):
        if self.hoist is not None and not self.guarded:
            # nothing in the body needs its mask (its loads read in bounds everywhere, nothing reports an error):
            # computed at every r0 and selected, so that g++ vectorizes the loop
            self.scope.lines += [line[4:] for line in inner.lines]
            return self.emit(f"{cond} ? {result} : {other}", result.dtype)
        v = Value(self.fresh(), result.dtype)
        if self.hoist is not None:
            self.hoist.variant.add(v.name)
        self.scope.line(f"{ctype(v.dtype)} {v.name} = {other};")
        self.scope.line(f"if ({cond}) {{")
        self.scope.lines += inner.lines
        self.scope.line(f"    {v.name} = {result};")
        self.scope.line("}")
        return v

    def store(self, name, index, value, reduce=None):
        dtype = self.graph.buffer_dtype(name)
        if reduce:   # the kernel is serial: a plain read-combine-write is exact
            value = self.apply(SCATTER_COMBINE[reduce], [self.emit(self.spell_load(name, index, dtype), dtype), value])
        self.args[name] = "out"
        if dtype == torch.bfloat16:
            value = f"kiln_to_bf16({value})"
        elif value.dtype.is_floating_point and not dtype.is_floating_point:
            value = self.spell_cast(value, dtype)
        elif ctype(dtype) != ctype(value.dtype) or dtype == torch.float16:
            value = f"static_cast<{CTYPES[dtype]}>({value})"
        tests = self.index_tests(str(index))   # an out-of-bounds index stores nothing
        guard = f"if ({' && '.join(tests)}) " if tests else ""
        self.scope.line(f"{guard}{name}[{index}] = {value};")

    # -- the kernel
    def generate(self):
        k = self.kernel
        N, R = (self.print_index(self.index(e)) for e in (k.numel, k.rnumel))
        rows = k.is_reduction or k.scan   # one row per x0: a reduction's, or a scan's
        body = self.scope = Scope(None, 2 if rows else 3)
        self.index_reports = []
        segments = sorted({p.segment for p in k.placements})
        for seg in segments:
            members = [p for p in k.placements if p.segment == seg]
            if seg % 2:
                for p in members:
                    self.emit_node(p)
            elif k.scan:
                self.scan_loop(members[0], R)
            elif k.is_reduction:
                self.reduction_loop(members, R)
            else:
                self.pointwise_loop(members, R)
        parallel = f"if(({N}) * ({R}) >= {PARALLEL_MIN_ELEMENTS})"
        lines = [f"// {k.name}: {', '.join(k.origins())}"]
        lines.append(f'extern "C" {NO_THREADING if self.invariant_conditions else ""}void {k.name}({self.signature()}) {{')
        if rows:
            lines += [f"    #pragma omp parallel for {parallel}", f"    for (int64_t x0 = 0; x0 < {N}; x0++) {{"]
        else:
            # a scatter runs in order: targets may repeat, and eager resolves repeats in order on small inputs
            lines += [] if k.scatter else [f"    #pragma omp parallel for collapse(2) {parallel}"]
            lines += [f"    for (int64_t x0 = 0; x0 < {N}; x0++) {{",
                      f"    for (int64_t rc = 0; rc < {R}; rc += {cpp_loops.CHUNK}) {{"]
        if self.symbolic_stretch:
            lines.append(f"        const int64_t rstretch = ({R}) / {cpp_loops.LANES};")
        lines += [f"        {ctype(dtype)} {name}[{R}];" for name, _, dtype in self.keeps.values()]
        lines += [f"        int64_t {n}_bad = {NO_INDEX};" for n, _, _ in self.index_reports]
        lines += unread_values_dropped(body.lines, TEMP_DECLARATION)
        lines += [f"        if ({n}_bad != {NO_INDEX}) kiln_index_error({ir.INDEX_FLAGS}, {site}, {n}_bad, {size});"
                  for n, site, size in self.index_reports]
        lines += (["    }"] if rows else ["        }", "    }"]) + ["}"]
        return "\n".join(lines)

    def signature(self):
        params = []
        for name, mode in self.args.items():
            const = "const " if mode == "in" else ""
            params.append(f"{const}{CTYPES[self.graph.buffer_dtype(name)]}* __restrict__ {name}")
        params += [f"{'double' if ir.is_float_scalar(s) else 'int64_t'} {s}" for s in sorted(self.symbols)]
        return ", ".join(params)

    def emit_node(self, p):
        """An outer-level node: one value per x0, between the loops."""
        value = self.run_body(p)
        self.finish_value(p, value)

    def finish_value(self, p, value):
        name = p.node.name
        self.scope.cse[("local", name)] = value   # visible to later code in this scope only
        if name in self.kernel.stores:
            reduce = p.node.scatter and p.node.scatter.reduce
            self.store(self.store_target(p.node), self.store_index(p), value, reduce)



# A vectorized loop that selects on conditions computed before it (a window's taps over padded rows: each tap's
# bounds along h and w) stayed scalar and branchy: g++'s partial redundancy elimination and its dominator pass's
# jump threading copy the loop body along the conditions' combinations, and the copies no longer if-convert. timm
# ResNet-18's stem ReLU + max-pool (9 taps, 2 x 64 x 16 x 16 out) took 681 us a call where eager takes 44; with
# both passes off for that function, 22 us (bench/NOTES.md 107).
NO_THREADING = '__attribute__((optimize("no-tree-pre", "no-tree-dominator-opts"))) '

TEMP_DECLARATION = re.compile(r"\s*\w+ (tmp\d+) = ")


NO_INDEX = "(-9223372036854775807LL - 1)"   # below every index: the start of a max over the bad ones
INTEGER_DIVISIONS = ("floordiv", "truncdiv", "remainder", "fmod")


def generate_module(kernels, graph):
    """One translation unit with every distinct kernel: (source, {kernel: (its function, arg names, symbol names)},
    {kernel: its text})."""
    texts, signatures = {}, {}
    for kernel in kernels:
        writer = CppKernel(kernel, graph)
        texts[kernel.name] = writer.generate()
        rows = ir.static_numel([kernel.rnumel], None)
        if writer.wanted and rows is not None and rows <= KEEP_ROW_MAX:
            writer = CppKernel(kernel, graph, keeps=writer.wanted, forms=writer.forms)
            texts[kernel.name] = writer.generate()
        function, texts[kernel.name] = named_by_content(texts[kernel.name], [kernel.name], writer.args)
        signatures[kernel.name] = (function, list(writer.args), sorted(writer.symbols))
    return "\n\n".join([PRELUDE, *dict.fromkeys(texts.values())]) + "\n", signatures, texts


def run_function(launches, holder, dtype_of):
    """One function launching kernels (and the module's library products) in turn, for the wrapper's one call
    (wrapper.WrapperCode.runs): (its name, text, the buffers whose pointers it takes, its symbols). launches: each
    step's (function, buffer names, symbol names); holder: the name whose tensor holds a buffer's memory at the
    call (a dead buffer reused under a later name)."""
    pointers, symbols, calls = [], [], []
    for function, buffers, syms in launches:
        args = []
        for b in buffers:
            p = holder(b)
            if p not in pointers:
                pointers.append(p)
            args.append(f"({CTYPES[dtype_of(b)]}*)p{pointers.index(p)}")
        symbols += [s for s in syms if s not in symbols]
        calls.append(f"    {function}({', '.join(args + syms)});")
    params = [f"void* p{i}" for i in range(len(pointers))] + [
        f"{'double' if ir.is_float_scalar(s) else 'int64_t'} {s}" for s in symbols]
    body = f"({', '.join(params)}) {{\n" + "\n".join(calls) + "\n}"
    name = f"run_{hashlib.sha256(body.encode()).hexdigest()[:10]}"
    comment = f"// {name}: {', '.join(function for function, _, _ in launches)}"
    return name, f'{comment}\nextern "C" void {name}{body}', pointers, symbols
