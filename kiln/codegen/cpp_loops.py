"""The loops of a C++ kernel over its rows (codegen/cpp.py writes the values inside them): a pointwise kernel's
inner loop over a chunk of r0, vectorized, with the values that do not change along it computed before it; a scan's
loop in order; a reduction's loop over r0, its accumulators declared before it, walking several stretches of a long
row at once and adding floating sums up in blocks."""
import dataclasses
import math
import re

import sympy
import torch

from kiln.codegen.common import Scope, Value
from kiln.codegen.cpp_ops import REDUCTION_INIT, REDUCTION_UPDATE, ctype

CHUNK = 1024                    # inner-loop chunk of pointwise kernels, for parallelism over long rows
LANES = 4                       # stretches of a row one reduction loop walks at once, each with its own accumulators
SPLIT_ROW_MIN = 256             # static rows shorter than this keep one stretch
# reductions an `omp simd` loop can carry, with their reduction clause's operator (floating max/min use
# the prelude's NaN-propagating kiln_max/kiln_min); argmax/argmin carry an index and have no vector form
SIMD_REDUCTIONS = {"sum": "+", "prod": "*", "any": "||", "all": "&&", "max": "max", "min": "min"}
# floating sums over longer stretches add up in blocks of this many elements, each block's sum into a double:
# one running float sum stops growing once it is 2^24 times the addends (10^9 ones summed to 2^29), and its
# error grows with the chain's length. A block is one chain of adds where the loop does not vectorize (a
# batch norm's channel, N x H x W of NCHW, indexed through divisions): with 4096, its variance was 14x further
# from fp64 than eager's and flipped ReLUs in MobileNetV3's training step. A strided row (a column sum: a bias
# or norm weight's gradient) is one chain, so its blocks are shorter (with 4096, a column sum of 4096 rows was
# 4.4x further from fp64 than eager's cascade; T5's norm weight gradients failed)
SUM_BLOCK, STRIDED_SUM_BLOCK = 256, 64


@dataclasses.dataclass
class Hoist:
    """The place before a vectorized loop (outer's lines at `at`) for the loop body's invariant values."""
    outer: Scope
    at: int
    body: Scope = None
    variant: set = dataclasses.field(default_factory=lambda: {"r0", "rend"})   # names that change along r0

    def varies(self, text):
        """Whether the C++ expression text names anything that changes along r0."""
        return not self.variant.isdisjoint(re.findall(r"\b\w+\b", text))


class CppLoops:
    """CppKernel's loops: a mixin over its KernelWriter state (scope, hoist, accumulators' names)."""

    def pointwise_loop(self, members, R):
        # values that do not change along r0 are computed before the loop; not in a scatter, whose loop
        # may store what such a value would load
        hoist = None if self.kernel.scatter else Hoist(self.scope, len(self.scope.lines))
        self.scope.line(f"const int64_t rend = kiln_imin(rc + {CHUNK}, {R});")
        if not self.kernel.scatter:
            self.scope.line("#pragma omp simd")
        self.scope.line("for (int64_t r0 = rc; r0 < rend; r0++) {")
        self.push()
        if hoist is not None:
            hoist.body, self.hoist = self.scope, hoist
        for p in members:
            self.finish_value(p, self.run_body(p))
        self.hoist = None
        self.close()
        self.scope.line("}")

    def scan_loop(self, p, R):
        """A scan walks its row in order: each step combines into the running value and stores it."""
        combine = p.node.scan.combine
        acc = Value(self.fresh("acc"), p.node.buf.dtype)   # low precision: ctype computes in float
        self.scope.line(f"{ctype(acc.dtype)} {acc} = {REDUCTION_INIT[combine]};")
        self.scope.line(f"for (int64_t r0 = 0; r0 < {R}; r0++) {{")
        self.push()
        self.scope.line(REDUCTION_UPDATE[combine].format(acc=acc, v=self.run_body(p)))
        self.store(self.store_target(p.node), self.store_index(p), acc)
        self.close()
        self.scope.line("}")

    def reduction_loop(self, members, R):
        """One loop over r0 holding reductions (and full-level pointwise nodes) that can share it.

        Vectorizable reductions over long or symbolic rows walk LANES stretches of the row at once, each
        with its own accumulators: a single accumulator is one chain of dependent vector adds, and
        waits on its latency (layer_norm's variance pass ran 25% faster with four chains)."""
        rnumel = self.index(self.kernel.rnumel)
        reductions = {p.node.buf.node.reduction_type for p in members if p.node.is_reduction}
        vector = reductions and reductions <= SIMD_REDUCTIONS.keys()
        lanes = LANES if vector and (not rnumel.is_Integer or rnumel >= SPLIT_ROW_MIN) else 1
        stretch = rnumel // LANES if rnumel.is_Integer else sympy.Symbol("rstretch", integer=True, nonnegative=True)
        header = self.scope
        declarations = Scope(header, header.indent)     # accumulators, declared before the loop
        lane_accs, bodies = [], []
        self.loop_id = 0 if self.loop_id is None else self.loop_id + 1
        self.conditional = False
        while len(bodies) < lanes:
            self.scope, self.r_offset = Scope(declarations, header.indent + 1), len(bodies) * stretch
            self.loop_scopes.add(self.scope)
            lane_accs.append(self.reduction_body(members, declarations))
            bodies.append(self.scope)
            if self.conditional:   # g++ 12 (AVX2) summed wrong with masked loads in several lanes: one lane
                if len(bodies) > 1:   # (the loop below would walk the whole row in each lane written)
                    raise AssertionError(f"{self.kernel.name}: a row's lanes differ in their masks")
                lanes = 1
        self.r_offset = 0
        self.symbolic_stretch |= lanes > 1 and not rnumel.is_Integer
        header.lines += declarations.lines
        self.scope = header
        length = stretch if lanes > 1 else rnumel
        steps = self.kernel.row_steps()
        block = SUM_BLOCK if steps is None or steps[0] == 1 else STRIDED_SUM_BLOCK
        self.loop(members, lane_accs, bodies, self.print_index(length),
                  block=block if not length.is_Integer or length > block else None)
        if lanes > 1 and (not rnumel.is_Integer or rnumel % LANES):   # the rest of the row, on lane 0's accumulators
            self.scope = Scope(declarations, header.indent + 1)
            self.loop_scopes.add(self.scope)
            self.reduction_body(members, declarations, dict(lane_accs[0]))
            tail, self.scope = self.scope, header
            self.loop(members, lane_accs[:1], [tail], R, start=self.print_index(LANES * stretch))
        combined = set()
        for p in members:
            if p.node.is_reduction:
                acc = lane_accs[0][p.node.name][0]
                if acc.name not in combined:
                    combined.add(acc.name)
                    for other in lane_accs[1:]:
                        header.line(REDUCTION_UPDATE[p.node.buf.node.reduction_type].format(
                            acc=acc, v=other[p.node.name][0]))
                self.finish_value(p, self.reduction_result(p, acc))

    def reduction_body(self, members, declarations, accs=None):
        """Runs members in self.scope (one lane's loop body) and updates their accumulators, which are
        declared in `declarations` unless given. Returns {reduction node: (acc, best)}."""
        fresh = accs is None
        accs, by_value, updated = accs or {}, {}, set()
        for p in members:
            value = self.run_body(p)
            if not p.node.is_reduction:
                self.finish_value(p, value)
                continue
            if fresh:
                key = (p.node.buf.node.reduction_type, value.name)
                if key not in by_value:      # the same reduction of the same value shares one accumulator
                    body, self.scope = self.scope, declarations
                    by_value[key] = self.declare_accumulator(p)
                    self.scope = body
                accs[p.node.name] = by_value[key]
            if accs[p.node.name][0].name not in updated:
                updated.add(accs[p.node.name][0].name)
                self.update_accumulator(p, accs[p.node.name], value)
        return accs

    def loop(self, members, lane_accs, bodies, end, start="0", block=None):
        """for r0 in [start, end): the bodies. With a `block` length, floating sums run in blocks of it, whose
        sums a double collects (the error grows with the block's length, not the row's), each block vectorized."""
        pragma = self.simd_pragma(members, lane_accs)
        sums = [accs[p.node.name][0] for p in members if p.node.is_reduction
                and p.node.buf.node.reduction_type == "sum" for accs in lane_accs]
        sums = list(dict.fromkeys(a.name for a in sums if a.dtype.is_floating_point)) if block else []
        pad = "    " if sums else ""
        if sums:
            self.scope.line(" ".join(f"double {a}_blocks = 0;" for a in sums))
            self.scope.line(f"for (int64_t rb = {start}; rb < {end}; rb += {block}) {{")
            start, end = "rb", f"kiln_imin(rb + {block}, {end})"
        if pragma:
            self.scope.line(pad + pragma)
        self.scope.line(f"{pad}for (int64_t r0 = {start}; r0 < {end}; r0++) {{")
        for body in bodies:
            self.scope.lines += [pad + line for line in body.lines]
        self.scope.line(pad + "}")
        if sums:
            self.scope.line(pad + " ".join(f"{a}_blocks += {a}; {a} = 0;" for a in sums))
            self.scope.line("}")
            self.scope.line(" ".join(f"{a} = {a}_blocks;" for a in sums))

    def simd_pragma(self, members, lane_accs):
        """`omp simd` with a reduction clause per accumulator, so the compiler may vectorize it."""
        clauses = {}
        for p in members:
            if not p.node.is_reduction:
                continue
            rt = p.node.buf.node.reduction_type
            if rt not in SIMD_REDUCTIONS:
                return None
            for accs in lane_accs:
                acc = accs[p.node.name][0]
                op = f"kiln_{rt}" if rt in ("max", "min") and acc.dtype.is_floating_point else SIMD_REDUCTIONS[rt]
                clauses[acc.name] = f"reduction({op}:{acc.name})"
        return " ".join(["#pragma omp simd", *clauses.values()])

    def declare_accumulator(self, p):
        red = p.node.buf.node
        rt, t = red.reduction_type, ctype(red.src_dtype)
        acc = Value(self.fresh("acc"), red.src_dtype if not rt.startswith("arg") else torch.int64)
        if rt in REDUCTION_INIT:
            self.scope.line(f"{t} {acc.name} = {REDUCTION_INIT[rt]};")
            return acc, None
        dt = red.src_dtype
        if dt.is_floating_point:
            lowest, highest = -math.inf, math.inf
        else:
            lowest, highest = (0, 1) if dt == torch.bool else (torch.iinfo(dt).min, torch.iinfo(dt).max)
        worst = self.spell_constant(lowest if "max" in rt else highest, dt)
        if rt in ("max", "min"):
            self.scope.line(f"{t} {acc.name} = {worst};")
            return acc, None
        best = Value(self.fresh("best"), red.src_dtype)
        self.scope.line(f"{t} {best.name} = {worst}; int64_t {acc.name} = 0;")
        return acc, best

    def update_accumulator(self, p, acc_best, value):
        acc, best = acc_best
        rt = p.node.buf.node.reduction_type
        if best is None:
            self.scope.line(REDUCTION_UPDATE[rt].format(acc=acc.name, v=value))
            return
        better = ">" if rt == "argmax" else "<"
        # first occurrence wins; NaN counts as the extreme, as in eager
        self.scope.line(f"if ({value} {better} {best.name} || ({value} != {value} && {best.name} == {best.name})) "
                        f"{{ {best.name} = {value}; {acc.name} = r0; }}")
