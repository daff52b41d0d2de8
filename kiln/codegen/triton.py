"""Triton code generation: one @triton.jit function per fused kernel, all in one module per graph.

A program owns an XBLOCK x RBLOCK tile of the kernel's (N, R) space: x0 is [XBLOCK, 1] and r0 is
[1, RBLOCK]. Pointwise kernels tile both. Reduction kernels own whole rows: persistent (the row in
registers, one pass over memory) when R fits, otherwise a loop over R per segment with accumulators.
"""
import math
import re

import sympy
import torch
from torch.utils._sympy.functions import CeilToInt, FloorToInt, ToFloat, TruncToInt

from kiln import ir
from kiln.codegen.common import (IndexPrinter, KernelWriter, Value, integer_constant, named_by_content, result_dtype,
                                 unread_values_dropped)
from kiln.codegen.triton_ops import (INTEGER_OPS, ROUNDED_FLOAT32_OPS, TL_DTYPES, compute_dtype, prelude,
                                     target_ops)
from kiln.codegen.triton_rows import TritonRows
from kiln.codegen.triton_tiles import Tiles
from kiln.launches import LaunchGroup, launch_parts
from kiln.runtime.triton_launch import GRID_DEPENDENCY, interpreting

# A kernel's build time grows with the code each thread runs: Triton's compile keeps a copy of the body for each
# element a thread holds, and libdevice's full-range functions are long (sin's and cos's slow paths reduce huge
# arguments exactly). Measured for sm_90 (Triton's compile run on a CPU; session 38, bench/NOTES.md 59), build ms
# per element per thread: an ordinary line of a kernel about 0.25, and these ops (float ones):
BUILD_MS = {"sin": 32, "cos": 27, "tan": 26, "lgamma": 48, "special_bessel_j0": 45, "special_bessel_j1": 45,
            "special_bessel_y0": 45, "special_bessel_y1": 45, "erfc": 25, "fmod": 21, "pow": 19, "asin": 18,
            "acos": 18, "i0": 13, "special_modified_bessel_i0": 13, "special_i1": 13, "special_modified_bessel_i1": 13,
            "atan": 12, "atan2": 12, "sinh": 8, "cosh": 8, "erf": 7, "log1p": 6, "tanh": 5, "expm1": 5, "hypot": 5}
LINE_BUILD_MS = 0.25
# A kernel's code may cost this much of a build above Triton's fixed ~0.2 s: 16 elements per thread for a kernel
# of up to 100 lines; past it, fewer (a Llama RoPE kernel's sin and cos took 1.0 s at 16, 0.4 at 4).
BUILD_BUDGET_MS = 400


# scatters that combine repeated targets, with the atomic doing it, and the dtypes it takes
SCATTER_ATOMICS = {"sum": "add", "max": "max", "min": "min"}
VARIABLE = re.compile(r"\b(?:tmp|carry|arg|acc|accidx|idx)\d+\b")   # the names KernelWriter.fresh gives
VALUE_DECLARED = re.compile(r"\s*(tmp\d+) = ")   # KernelWriter.declare's lines
# the names in Triton source whose values vary along lanes: the lanes and their masks, the variables KernelWriter
# gives (a value's lanes are recorded when emit writes it), and a product kernel's tile
LANE_NAMES = re.compile(r"\b(?:[xr]0|[xr]mask|product|(?:tmp|carry|arg|acc|accidx|idx)\d+)\b")
LANE_OF = {"x0": "x0", "xmask": "x0", "r0": "r0", "rmask": "r0"}
BOTH_LANES = frozenset(LANE_OF.values())
ATOMIC_DTYPES = (torch.float32, torch.int32, torch.int64)


def indirect(index):
    """Whether Python source index is gathered (reads an idx* value): it may differ from row to row, and
    it is only valid where the lanes that computed it are."""
    return "idx" in index


def names_lane(index, lane):
    """Whether Python source index uses the lane variable (x0 or r0), not merely a name containing it."""
    return re.search(rf"\b{lane}\b", index) is not None


class TritonIndexPrinter(IndexPrinter):
    DIV, MAX, MIN = "//", "tl.maximum", "tl.minimum"
    FLOORDIV, MOD = "kiln_floordiv", "kiln_remainder"
    # a size computed in floating point and rounded (interpolate's trunc(2.5 * s0)) is a double in eager's Python and
    # in C++, a float32 in a Triton kernel, which may round it to another integer: refused (the graph runs eagerly).
    # A float value of sizes (std's s0 - 1.0) stays a float.
    REFUSED = (ToFloat, TruncToInt, FloorToInt, CeilToInt)

    def dividend(self, e):
        # the helpers read their first operand's dtype, which a literal has not: -1 // (s0 // 8) of a dynamic
        # DINOv2's position embeddings failed to build ("'int' object has no attribute 'dtype'")
        return f"tl.full([], {int(e)}, tl.int64)" if e.is_Integer else self._print(e)


class TritonKernel(TritonRows, KernelWriter):
    printer = TritonIndexPrinter()

    def __init__(self, kernel, graph, config=None):
        super().__init__(kernel, graph)
        self.OPS = target_ops()
        self.masks = []
        self.regions = set()   # the scopes of masked regions (Triton masks lanes: their code runs inline)
        self.home = {}   # a variable's name -> the scope whose CSE table holds it
        self.lanes = {}   # a variable's name -> the lanes ("x0", "r0") its value varies along (its block's shape)
        self.unmasked_load = False   # the load being spelled needs no region's mask (in_bounds)
        self.chosen = config   # (XBLOCK, RBLOCK, persistent, num_warps) that max-autotune timed fastest, if any
        self.num_stages = None   # Triton's default pipeline (a fused product's tiles set theirs)
        self.build_ms = 0      # the BUILD_MS of the ops applied so far (one found by CSE counts again: an overestimate)
        self.tiles = Tiles(kernel, graph)

    # -- spelling
    def add(self, a, b):
        # on bools eager's add is a logical or; int1 addition would wrap around
        return self.emit(f"({a} | {b})", torch.bool) if a.dtype == b.dtype == torch.bool else self.apply("add", (a, b))

    def mul(self, a, b):
        return self.emit(f"({a} & {b})", torch.bool) if a.dtype == b.dtype == torch.bool else self.apply("mul", (a, b))

    def apply(self, op, args):
        dtype = result_dtype(op, args)
        if op in INTEGER_OPS and not dtype.is_floating_point:
            return self.emit(INTEGER_OPS[op].format(*args), dtype)
        self.build_ms += BUILD_MS.get(op, 0)
        if op in ROUNDED_FLOAT32_OPS and compute_dtype(dtype) == torch.float32:
            return self.emit(ROUNDED_FLOAT32_OPS[op].format(*map(self.as_float32, args)), dtype)
        return super().apply(op, args)

    @staticmethod
    def as_float32(x):
        if not isinstance(x, Value):   # a Python scalar
            return f"tl.full([1, 1], {x}, tl.float32)"
        return str(x) if compute_dtype(x.dtype) == torch.float32 else f"{x}.to(tl.float32)"

    def declare(self, v, expr):
        self.scope.line(f"{v.name} = {expr}")

    def emit(self, expr, dtype, key=None):
        """As KernelWriter.emit; inside masked regions, an expression that reads no region's condition and no value
        computed under one is kept in the CSE table where the regions were opened: a region's code runs inline, so
        its value is valid past the region, and computed once for all of them (a max-pool's nine taps each read a
        batch norm's per-channel vectors, and took their square root)."""
        found = self.scope.lookup(key or expr)
        if found is not None:   # (before super's lookup: a value found keeps its home)
            return found
        v = super().emit(expr, dtype, key)
        self.home[v.name] = self.scope
        self.lanes[v.name] = self.lanes_read(expr)
        if key is None and self.scope in self.regions and self.region_free(expr):
            outside = self.scope
            while outside in self.regions:
                outside = outside.parent
            outside.cse[expr] = self.scope.cse.pop(expr)
            self.home[v.name] = outside
        return v

    def lanes_read(self, expr):
        """The lanes an expression's value varies along: those it names (its lane variables, their masks) and
        those of the variables it reads (both, for one not written by emit: an accumulator, a product kernel's
        tile)."""
        lanes = set()
        for name in LANE_NAMES.findall(expr):
            lane = LANE_OF.get(name)
            lanes |= {lane} if lane else self.lanes.get(name, BOTH_LANES)
        return lanes

    def region_free(self, expr):
        names = set(VARIABLE.findall(expr))
        return not names & set(self.masks) and all(n in self.home and self.home[n] not in self.regions for n in names)

    def in_bounds(self, name, index):
        """Whether name[index] lies within name's elements for every lane in range (static sizes, x0 and r0 only):
        such a load needs no region's mask."""
        counts = self.lane_counts()
        return counts is not None and self.within_buffer(name, index, counts)

    def load(self, name, index):
        self.unmasked_load = bool(self.masks) and self.in_bounds(name, self.remapped(index))
        try:
            return super().load(name, index)
        finally:
            self.unmasked_load = False

    def declare_index(self, name, value, size, check, wrap, site):
        self.scope.line(f"{name} = {value}.to(tl.int64)")
        if wrap:
            self.scope.line(f"{name} = tl.where({name} < 0, {name} + {size}, {name})")
        if check:
            ok, flags = self.index_checks[name], ir.INDEX_FLAGS
            self.scope.line(f"{ok} = ({name} >= 0) & ({name} < {size})")
            # only the lanes that compute: masked-off lanes may hold any index
            bad = f"{name}_bad"
            self.scope.line(f"{bad} = (~{ok}) & {self.mask(self.placement.level == 'full')}")
            # slots: site, index, size, and 0 for "an index failed"; a GPU's wrapper reads only the last (an
            # asynchronous assert), so GPU kernels store only that (index_put ran 1.49x slower with all four)
            for slot, v in enumerate((site, value, size, 0)) if interpreting() else [(3, 0)]:
                self.scope.line(f"tl.store({flags} + {slot} + 0 * {bad}, {v}, mask={bad})")
            self.scope.line(f"{name} = tl.where({ok}, {name}, 0)")

    def mask(self, full):
        parts = ["xmask"] + (["rmask"] if full else []) + self.masks
        return " & ".join(parts)

    def load_mask(self, index, full):
        """The mask of the lanes a load's address and its masked regions' conditions depend on: a weight indexed
        by r0 alone is loaded as one [1, RBLOCK] row, and what is computed from it stays that small, instead of
        once per row of the tile; a scalar (an optimizer's step count) as one value per row, and what is computed
        from it (its bias corrections: two pows, a root, three divisions) once per row, not per element (the
        rows' mask: its address is the rows'); a padded image's tap under its bounds condition, both the pixel's,
        once per pixel, not once per output channel of a tile of pixels by channels (an image's stem
        convolution: bench/NOTES.md 88). An indirect index keeps the full mask."""
        if indirect(index):
            return self.mask(full)
        regions = self.masks if not self.unmasked_load else []
        lanes = self.lanes_read(" ".join(regions)) if full else set()
        lanes |= {lane for lane in ("x0", "r0") if names_lane(index, lane)}
        masks = [m for lane, m in (("x0", "xmask"), ("r0", "rmask")) if lane in lanes]
        return " & ".join((masks or ["xmask"]) + regions)

    def pointer(self, name, index, store_full=False):
        """name + index, broadcast to the block shape its mask needs: an address that names no lane gets
        the rows'; a store of a full tile gets both lanes (a scatter's target may name only one)."""
        if store_full:
            need = ("x0", "r0")
        else:
            need = () if names_lane(index, "x0") or names_lane(index, "r0") else ("x0",)
        lanes = "".join(f" + tl.zeros_like({lane})" for lane in need if not names_lane(index, lane))
        return f"{name} + ({index}){lanes}"

    def spell_load(self, name, index, dtype):
        full = self.placement.level == "full"
        # what every row reads (a norm's weight) should stay in L2 while the rows stream past it; a kernel of one
        # row streams everything it reads once (an optimizer step's parameters and states)
        shared = names_lane(index, "r0") and not names_lane(index, "x0") and not indirect(index) and \
            self.graph.size_hint(self.kernel.numel) != 1
        policy = ", eviction_policy='evict_last'" if shared else ""
        load = f"tl.load({self.pointer(name, index)}, mask={self.load_mask(index, full)}, other=0{policy})"
        return f"{load}.to(tl.float32)" if ir.dtype_is_low_precision(dtype) else load

    def spell_index_value(self, index, dtype):
        return f"({index} + tl.zeros([1, 1], tl.int32)).to({TL_DTYPES[compute_dtype(dtype)]})"

    def spell_constant(self, value, dtype):
        if dtype is not None and not dtype.is_floating_point:
            literal = str(integer_constant(value, dtype))
        elif isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
            literal = f"float('{value}')"
        else:
            literal = repr(float(value))
        # a typed block, so that casts and dtype-sensitive ops see the dtype eager would
        return f"tl.full([1, 1], {literal}, {TL_DTYPES[compute_dtype(dtype)]})" if dtype is not None else literal

    def spell_cast(self, x, dtype):
        if ir.dtype_is_low_precision(dtype):   # through float32, as eager converts (and the interpreter needs)
            return f"{x}.to(tl.float32).to({TL_DTYPES[dtype]}).to(tl.float32)"
        return f"{x}.to({TL_DTYPES[dtype]})"

    def region(self, cond, body, other):
        self.masks.append(str(cond))
        self.regions.add(self.push(indent=0))   # Triton masks lanes instead of branching: the body stays inline
        try:
            result = body()
        finally:
            self.masks.pop()
        self.close()
        return self.emit(f"tl.where({cond}, {result}, {other})", result.dtype)

    def fold(self, count, step, init):
        """ops.fold as a loop over k (a depthwise window's rows: 25 unrolled masked taps took 2.7x as long to build
        for sm_90 as 5 rows of 5, and ran 2% faster; bench/NOTES.md 125). The accumulator has the shape of one
        step's value, which reads it as a value of no lane until that is known. Unrolled where this kernel
        recomputes a value it reads (placement.recomputed is keyed by each step's own index)."""
        if self.placement is not None and self.placement.recomputed:
            return super().fold(count, step, init)
        acc, k = Value(self.fresh("acc"), init.dtype), sympy.Symbol(self.fresh("row"), integer=True)
        self.lanes[acc.name], self.loops[k] = set(), count
        body = self.push()
        try:
            value = step(k, acc)
        finally:
            del self.loops[k]
        if value.dtype != init.dtype:
            raise NotImplementedError(f"{self.kernel}: a fold's step changes its value's dtype")
        body.line(f"{acc} = {value}")
        self.pop()
        if not self.small_indices():   # (range's k is int32: times a row's stride past 2**31 it would wrap)
            body.lines.insert(0, "    " * body.indent + f"{k} = tl.cast({k}, tl.int64)")
        self.lanes[acc.name] = self.lanes_read(str(value))
        shape = " + ".join(lane for lane in ("x0", "r0") if lane in self.lanes[acc.name])
        start = f"{init} + tl.zeros_like({shape}).to({TL_DTYPES[compute_dtype(init.dtype)]})" if shape else init
        self.scope.line(f"{acc} = {start}")   # (the loop keeps its shape and type)
        self.scope.line(f"for {k} in range({count}):")
        self.scope.lines += body.lines
        return acc

    def store(self, name, index, value, full, reduce=None):
        dtype = self.graph.buffer_dtype(name)
        self.args[name] = "out"
        if ir.dtype_is_low_precision(dtype):
            value = f"{value}.to(tl.float32).to({TL_DTYPES[dtype]})"
        elif value.dtype != dtype:
            value = f"{value}.to({TL_DTYPES[dtype]})"
        fn = f"atomic_{SCATTER_ATOMICS[reduce]}" if reduce else "store"
        mask = " & ".join([self.mask(full), *self.index_tests(index)])   # an out-of-bounds index stores nothing
        self.scope.line(f"tl.{fn}({self.pointer(name, index, full)}, {value}, mask={mask})")

    # -- the kernel
    def generate(self, part=False):
        """The kernel's source and the (N, R) it is launched over. A part of a launch group takes its program id as
        the argument `pid`, its index among the part's own programs."""
        k = self.kernel
        self.xblock, self.rblock, self.persistent, self.num_warps = self.chosen or self.tiles.config()
        N, R = (self.print_index(self.index(e)) for e in (k.numel, k.rnumel))
        self.scope.indent = 1
        segments = sorted({p.segment for p in k.placements})
        for seg in segments:
            members = [p for p in k.placements if p.segment == seg]
            if seg % 2:
                for p in members:
                    self.finish_value(p, self.run_body(p), full=False)
            elif k.scan:
                self.scan_segment(members[0])
            elif not k.is_reduction:
                for p in members:
                    self.finish_value(p, self.run_body(p), full=True)
            else:
                self.reduction_segment(members, R)
        self.scope.lines = unread_values_dropped(self.scope.lines, VALUE_DECLARED)
        if not (self.chosen or k.scan):
            self.fit_build_budget()
        wide = "" if self.small_indices() else ".to(tl.int64)"
        pid = "pid" if part else "tl.program_id(0)"
        pid_line = [] if part and not wide else [f"    pid = {pid}{wide}"]   # a part's own argument, when int32
        head = ["@triton.jit",
                f"def {k.name}({'pid, ' if part else ''}{self.signature()}, N, R, XBLOCK: tl.constexpr, "
                f"RBLOCK: tl.constexpr):",
                f"    # {', '.join(k.origins())}", *self.size_hints()]
        xmask, rmask = self.bound_masks()
        if k.is_reduction or k.scan:
            # (both int64 where indices are: x0 only, and a column sum's 65536*r0 over 40000 rows wrapped in int32
            # to a negative offset, which a scan's store wrote through; a fresh reader's review)
            head += [f"    x0 = ({pid}{wide} * XBLOCK + tl.arange(0, XBLOCK))[:, None]",
                     xmask, f"    rbase = tl.arange(0, RBLOCK)[None, :]{wide}"]
            if self.persistent:
                head += ["    r0 = rbase", rmask]
        elif self.single_xblock():   # every program on the same rows: no division to find its tile
            head += pid_line + [f"    x0 = tl.arange(0, XBLOCK)[:, None]{wide}",
                                "    r0 = (pid * RBLOCK + tl.arange(0, RBLOCK))[None, :]", xmask, rmask]
        else:
            head += ["    rblocks = tl.cdiv(R, RBLOCK)", *pid_line,
                     "    x0 = ((pid // rblocks) * XBLOCK + tl.arange(0, XBLOCK))[:, None]",
                     "    r0 = ((pid % rblocks) * RBLOCK + tl.arange(0, RBLOCK))[None, :]", xmask, rmask]
        return "\n".join(head + self.scope.lines), (k.numel, k.rnumel)

    def fit_build_budget(self):
        """Fewer elements per thread where the kernel's body would cost more than BUILD_BUDGET_MS to build at
        its tile: fewer rows per program, then a shorter stretch of the row (not a persistent row, held whole),
        down to one element per thread; a transposing tile shrinks on its longer side, to stay square. Run on the
        generated body, before the head (whose masks follow the tile). Per part of a launch group: the group's
        kernel holds every part's body, and max-autotune's tiles (self.chosen) are built as it times them."""
        per_element_ms = LINE_BUILD_MS * len(self.scope.lines) + self.build_ms
        threads = 32 * self.num_warps
        square = not self.kernel.is_reduction and self.tiles.transposing
        while self.xblock * self.rblock > threads and \
                self.xblock * self.rblock // threads * per_element_ms > BUILD_BUDGET_MS:
            if self.xblock > 1 and not (square and self.xblock < self.rblock):
                self.xblock //= 2
            elif self.persistent:
                return
            else:
                self.rblock //= 2

    def bound_masks(self):
        """The lines defining xmask and rmask of the head. Where static sizes fill every block, a mask is a
        constant true, which Triton drops from loads and stores: no compares, no predicated accesses."""
        N, R = self.static_sizes()
        full_x = N is not None and N % self.xblock == 0
        full_r = R is not None and R % self.rblock == 0
        return ("    xmask = " + ("tl.full([XBLOCK, 1], 1, tl.int1)" if full_x else "x0 < N"),
                "    rmask = " + ("tl.full([1, RBLOCK], 1, tl.int1)" if full_r else "r0 < R"))

    def size_hints(self):
        """Lines saying that a static N or R is a multiple of 2, 4 or 8, which Triton cannot see in a size passed
        at run time (it specializes one divisible by 16 itself). A mask r0 < R is constant, for Triton, over no more
        elements than R is known to divide: unsaid, a block of 72 bf16 channels loads and stores 2 bytes at a time;
        said, 16. Written where a mask or the row loop compares against the size."""
        lines = []
        for name, size, block in zip("NR", self.static_sizes(), (self.xblock, self.rblock)):
            compared = name == "R" and self.kernel.is_reduction and not self.persistent
            if size is None or not (compared or size % block):
                continue
            divisor = math.gcd(size, 16)
            if 1 < divisor < 16:
                lines.append(f"    {name} = {name} // {divisor} * {divisor}   # a multiple of {divisor}")
        return lines

    def static_sizes(self):
        """(N, R), each None where symbolic."""
        return tuple(ir.static_numel([e], None) for e in (self.kernel.numel, self.kernel.rnumel))

    def single_xblock(self):
        N, _ = self.static_sizes()
        return N is not None and N <= self.xblock

    def small_indices(self):
        """int32 index math is enough when every buffer this kernel touches has < 2**31 elements, and so does the
        space it runs over: a scatter's updates or a broadcast's elements may outnumber every buffer's, and an
        index flattened over them (a scatter's run of updates into its copies) overflowed int32 to a negative
        address (a fresh reader's review, bench/NOTES.md 97)."""
        sizes = [self.graph_numel(n) for n in self.args] + [ir.static_numel([self.kernel.numel, self.kernel.rnumel])]
        return all(s is not None and s < 2 ** 31 for s in sizes)

    def graph_numel(self, name):
        return 4 if name == ir.INDEX_FLAGS else ir.static_numel(self.graph.buffer(name).layout.sizes)

    def signature(self):
        return ", ".join(list(self.args) + symbol_params(sorted(self.symbols)))

    def finish_value(self, p, value, full):
        self.scope.cse[("local", p.node.name)] = value
        if p.node.name in self.kernel.stores:
            reduce = p.node.scatter and p.node.scatter.reduce
            self.store(self.store_target(p.node), self.store_index(p), value, full, reduce)



def persistent_rows(graph, kernel):
    """Whether a reduction kernel holds its whole rows in registers (for the scheduler's stores)."""
    return kernel.is_reduction and not kernel.scan and Tiles(kernel, graph).config()[2]


def one_device(kernel, args, graph):
    """A Triton kernel touches GPU memory only (CPU tensors only on the interpreter): a CPU tensor of a CUDA graph
    (a scalar it returns, made with torch.tensor(...) and no device; patterns.scalars_on_their_readers_device moves
    those that GPU ops read) cannot be read or written there. Raised, so that the graph runs eagerly."""
    devices = {n: graph.buffer(n).layout.device.type for n in args if n != ir.INDEX_FLAGS}
    on_cpu = [n for n, d in devices.items() if d == "cpu"]
    if on_cpu and ("cuda" in devices.values() or not interpreting()):
        raise NotImplementedError(f"{kernel} touches CPU tensors ({', '.join(on_cpu)}) in GPU code")


def generate_module(kernels, graph, configs=None, dependent=False):
    """Module source with every kernel; per kernel its launch facts (its parts' buffer args, symbols, N, R and
    config) and its text. configs: {kernel name: launch configuration} that max-autotune chose. dependent: each
    kernel launches as a programmatic dependent (triton_launch.dependent_launch_supported)."""
    from kiln.codegen.triton_product import ProductKernel, matmul_tile_source   # (it builds on TritonKernel)
    texts, launches, configs = {}, {}, configs or {}
    dependent = dependent and not interpreting()   # (the interpreter has no grid dependency control)
    for kernel in kernels:
        group = isinstance(kernel, LaunchGroup)
        parts, sources, modes = [], [], {}
        for part in launch_parts(kernel):
            writer = ProductKernel(part, graph) if part.product is not None else \
                TritonKernel(part, graph, configs.get(part.name))
            source, (numel, rnumel) = writer.generate(part=group)
            sources.append(source)
            modes |= {b: "out" if mode == "out" else modes.get(b, "in") for b, mode in writer.args.items()}
            one_device(part.name, writer.args, graph)
            parts.append(dict(name=part.name, buffers=list(writer.args), symbols=sorted(writer.symbols),
                              numel=numel, rnumel=rnumel, xblock=writer.xblock, rblock=writer.rblock,
                              num_warps=writer.num_warps, num_stages=writer.num_stages,
                              reduction=part.is_reduction or part.scan is not None))
        largest = max(parts, key=lambda p: ir.static_numel([p["numel"] * p["rnumel"]], math.inf))
        launches[kernel.name] = info = dict(   # a group runs with the warps its largest part was tuned for
            parts=parts, buffers=list(dict.fromkeys(b for p in parts for b in p["buffers"])),
            symbols=sorted({s for p in parts for s in p["symbols"]}), num_warps=largest["num_warps"],
            num_stages=largest["num_stages"])
        if group:
            sources.append(group_source(kernel, info))
        if dependent:   # (the launched function: a group's, which calls its parts)
            sources[-1 if group else 0] = waiting_for_prior(sources[-1 if group else 0])
        functions = [kernel.name] + [p["name"] for p in parts] if group else [kernel.name]
        info["function"], texts[kernel.name] = named_by_content(
            "\n\n".join(sources), functions, {b: modes[b] for b in info["buffers"]},
            f"num_warps={info['num_warps']}" + (f", num_stages={info['num_stages']}" if info["num_stages"] else ""))
    tile = [matmul_tile_source()] if any(k.product is not None for k in kernels) else []   # (its kernels call it)
    return "\n\n".join([prelude(interpreting(), dependent), *tile, *dict.fromkeys(texts.values())]) + "\n", \
        launches, texts


def waiting_for_prior(source):
    """A kernel's source as launched as a programmatic dependent: its first statement waits until the kernel before
    it in the stream has finished (and its writes are seen), so that a kernel's launch overlaps the end of the one
    before (about 1/3 of a CUDA graph of 26 small kernels, H200). After the def and its comment naming the source
    ops."""
    lines = source.split("\n")
    assert lines[0] == "@triton.jit" and lines[1].startswith("def ") and lines[2].startswith("    # "), lines[:3]
    return "\n".join([*lines[:3], *GRID_DEPENDENCY, *lines[3:]])


def symbol_params(symbols):
    """A kernel's size parameters; a float the wrapper computes from sizes (1 / math.sqrt(s0)) is declared float64,
    which Triton would otherwise take as float32, so a float64 result built from it lost its digits. Each use casts
    it to the dtype of its op, as eager rounds a Python float to the tensor's dtype."""
    return [f"{s}: tl.float64" if ir.is_float_scalar(s) else s for s in symbols]


def group_source(group, info):
    """The kernel of a launch group: each program runs the part its id falls in."""
    parts = info["parts"]
    counts = [f"P{j}" for j in range(len(parts) - 1)]
    params = [*info["buffers"], *symbol_params(info["symbols"]), *(f"{d}{j}" for j in range(len(parts)) for d in "NR"),
              *counts, *(f"{d}BLOCK{j}: tl.constexpr" for j in range(len(parts)) for d in "XR")]
    lines = ["@triton.jit", f"def {group.name}({', '.join(params)}):",
             f"    # one launch of independent kernels: {', '.join(p['name'] for p in parts)}",
             "    pid = tl.program_id(0)"]
    for j, p in enumerate(parts):
        test = "else" if j == len(parts) - 1 else f"{'if' if j == 0 else 'elif'} pid < {' + '.join(counts[:j + 1])}"
        args = ["pid" + "".join(f" - {c}" for c in counts[:j]), *p["buffers"], *p["symbols"], f"N{j}", f"R{j}",
                f"XBLOCK{j}", f"RBLOCK{j}"]
        lines += [f"    {test}:", f"        {p['name']}({', '.join(args)})"]
    return "\n".join(lines)


def launch_call(info, printer):
    """The grid and the arguments of a launch, as Python source; a group's parts take their programs in turn."""
    parts = info["parts"]
    grids = [grid_expr(p, printer) for p in parts]
    args = [*info["buffers"], *info["symbols"], *(printer(p[d]) for p in parts for d in ("numel", "rnumel")),
            *grids[:-1], *(str(p[b]) for p in parts for b in ("xblock", "rblock"))]
    return " + ".join(grids), args


def warmup_args(info, graph):
    """A launch's arguments as Triton's warmup takes them, to build the kernel before the graph's first call:
    buffers as their dtypes, sizes at the values the graph was traced with (what a first call most likely
    has: Triton specializes ints that are 1 or divisible by 16, and builds another variant where a call's
    differ). None where a size has no hint."""
    hints = {s: graph.size_hint(sympy.Symbol(s)) for s in info["symbols"]}
    if None in hints.values():
        return None
    _, args = launch_call(info, lambda e: str(graph.size_hint(e)))
    try:   # the sizes' source, printed at their hints, is arithmetic on numbers ("None" where one has no hint)
        return [graph.buffer_dtype(a) if a in info["buffers"] else hints[a] if a in hints else eval(a, {})
                for a in args]
    except (NameError, TypeError, SyntaxError):
        return None


def grid_expr(launch, printer):
    """Python source for the number of programs (sizes may be symbols bound in the wrapper)."""
    N, R = sympy.sympify(launch["numel"]), sympy.sympify(launch["rnumel"])
    xb, rb = launch["xblock"], launch["rblock"]
    xblocks = f"(({printer(N)}) + {xb - 1}) // {xb}"
    if launch["reduction"]:
        return xblocks
    return f"{xblocks} * ((({printer(R)}) + {rb - 1}) // {rb})"
