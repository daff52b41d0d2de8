"""Scheduler: groups computed buffers into kernels, and says why.

Every computed buffer has an iteration space (numel, rnumel): rnumel is 1 for pointwise buffers.
A kernel iterates (N, R): an outer index x0 over N and, inside it, loops over R.
Reductions of (N, R), pointwise buffers of N*R elements ("full" level, inside the R loops) and
pointwise buffers of N elements ("outer" level, between the loops) can share a kernel, as long as
every value read inside the kernel is read at the index where the kernel wrote it.
"""
import copy
import dataclasses
import functools
import logging
import math

import sympy

from kiln import ir

log = logging.getLogger("kiln.fusion")

LOOKBACK = 8          # how many earlier kernels a node may join (sibling fusion), besides its latest input's
# Independent nodes join an earlier kernel or launch (one launch fewer; a conv weight's relayout joins the one
# before) only while what they store, with all that later kernels store early, is this small: each is then held
# from there on, not freed sooner. (At 16 MB a node, counted alone, timm ResNet-18's three 9.4 MB relayouts of
# 512 x 512 weights were made together and held 28 MB; on the CPU glibc returned the freed 28 MB to the system and
# faulted it in again at every call, 10.3k page faults a call against Inductor's 5.5k: 0.83x Inductor's
# inference, bench/NOTES.md 108.)
HOIST_MAX_BYTES = 4 << 20
# Independent nodes share a kernel's loop only while together they read at most this many buffers: with no data
# shared, one body gains nothing over parts of one launch, and each stream holds registers (an optimizer step's
# parameters of one size, all in one body: GPT-2's AdamW step spilled, 8x its copy floor, and took 2 minutes
# to build)
MAX_HORIZONTAL_READS = 8


def loop_order(sizes, vars_, store_index):
    """Dims ordered by the stride at which the buffer is written, largest first, so the innermost
    loop writes contiguous memory (channels-last tensors iterate channels innermost)."""
    strides = [store_index.coeff(v) for v in vars_]
    if any(not sympy.sympify(st).is_number for st in strides):
        return list(range(len(sizes)))
    return sorted(range(len(sizes)), key=lambda d: -int(strides[d]))


def merge_dims(sizes, vars_, exprs, order=None):
    """Group dims that are adjacent in `order` and that every index expression walks as one dim.

    Returns [[dim, ...], ...], outer to inner. Size-1 dims are dropped."""
    groups = []
    for d in (range(len(sizes)) if order is None else order):
        size = sizes[d]
        if size == 1:
            continue
        if groups and all(_mergeable(e, vars_[groups[-1][-1]], vars_[d], size) for e in exprs):
            groups[-1].append(d)
        else:
            groups.append([d])
    return groups


@functools.lru_cache(maxsize=1 << 16)
def _mergeable(expr, outer, inner, inner_size):
    """(Remembered: nodes of one shape share their dim vars, so their index expressions repeat.)"""
    expr = ir.expand(expr)
    if not expr.has(outer) and not expr.has(inner):
        return True
    c_out, c_in = expr.coeff(outer), expr.coeff(inner)
    rest = ir.expand(expr - c_out * outer - c_in * inner)
    affine = not rest.has(outer, inner) and not c_out.has(outer, inner) and not c_in.has(outer, inner)
    return affine and ir.expand(c_out - c_in * inner_size) == 0


def split_point(sizes, inner_numel):
    """k such that prod(sizes[k:]) == inner_numel, or None."""
    for k in range(len(sizes), -1, -1):
        if ir.expand(ir.product(sizes[k:]) - inner_numel) == 0:
            return k
    return None


@functools.lru_cache(maxsize=1 << 16)
def remapped(expr, subs):
    """expr with its vars substituted ((var, expression) pairs), simplified; remembered: scheduling and codegen remap
    a load's index for each question they ask of it (its steps, its layout, its spelling), and building the SymPy
    tree of each took ~20% of EfficientNet-B0's GPU scheduling and codegen."""
    return ir.simplify_index(expr.xreplace(dict(subs)))


class SchedulerNode:
    """A computed buffer with its dims merged, ready to be placed in a kernel."""

    def __init__(self, buf):
        self.buf = buf
        self.name = buf.name
        a = buf.analysis
        node = buf.node
        self.is_reduction = isinstance(node, ir.Reduction)
        self.scatter = node if isinstance(node, ir.Scatter) else None
        self.scan = node if isinstance(node, ir.Scan) else None
        # the memory it updates in place: a scatter's base, or the graph input a copy_ overwrites
        self.writes_into = buf.mutates or (node.base if self.scatter else None)
        self.alone = bool(self.scatter or self.scan)   # runs in its own order, so it shares no kernel
        self.dvars, self.rvars = a.vars
        exprs = [e for _, e in a.loads] + a.index_exprs + [a.store_index]
        self.groups = merge_dims(node.sizes, self.dvars, exprs, loop_order(node.sizes, self.dvars, a.store_index))
        self.rgroups = merge_dims(node.rsizes, self.rvars, exprs)
        self.sizes = [ir.product([node.sizes[d] for d in g]) for g in self.groups]
        self.rsizes = [ir.product([node.rsizes[d] for d in g]) for g in self.rgroups]
        self.numel, self.rnumel = ir.product(self.sizes), ir.product(self.rsizes)
        self.reads = a.reads
        numel = ir.static_numel(node.sizes)
        self.nbytes = None if numel is None else numel * buf.dtype.itemsize
        self.origins = buf.origins or (node.reduction_type if self.is_reduction else "pointwise",)

    def remap(self, kernel_index):
        """A function taking index expressions in this node's own dim vars to the kernel's loop vars.

        kernel_index: per merged dim (outer dims then reduction dims), its expression in kernel vars.
        Within a merged group the strides chain, so the innermost dim carries the whole group and
        the others (and size-1 dims) become 0."""
        subs = {v: sympy.Integer(0) for v in self.dvars + self.rvars}
        dims = [(g, self.dvars) for g in self.groups] + [(g, self.rvars) for g in self.rgroups]
        for (g, vars_), e in zip(dims, kernel_index):
            subs[vars_[g[-1]]] = e
        subs = tuple(subs.items())
        return lambda expr: remapped(sympy.sympify(expr), subs)

    def split_for(self, inner_numel):
        """This node with one merged dim group cut in two, so that its innermost groups hold inner_numel
        elements, or None. Any run of a merged group's dims is walked as one index too: a residual sum merged
        into one flat dim still joins the layer norm over its rows."""
        sizes = self.buf.node.sizes
        inner = sympy.Integer(1)
        for i in range(len(self.groups) - 1, -1, -1):
            g = self.groups[i]
            for j in range(len(g) - 1, 0, -1):
                if ir.expand(inner * ir.product([sizes[d] for d in g[j:]]) - inner_numel) == 0:
                    twin = copy.copy(self)
                    twin.groups = self.groups[:i] + [g[:j], g[j:]] + self.groups[i + 1:]
                    twin.sizes = [ir.product([sizes[d] for d in h]) for h in twin.groups]
                    return twin
            inner = inner * self.sizes[i]
        return None


@dataclasses.dataclass(eq=False)
class Placement:
    """Where a node sits in its kernel: its level, loop segment, and its index in kernel vars.

    recomputed: the reads of values this kernel computes, made at another index than the one they are
    computed at: (name, index in the node's vars) -> (the producer's placement, the substitution of the
    kernel's vars that takes the producer's index to the one read)."""
    node: SchedulerNode
    level: str           # "full" (inside the R loops) or "outer"
    kernel_index: list   # per merged dim, an expression in kernel vars
    segment: int = 0
    recomputed: dict = dataclasses.field(default_factory=dict)

    def remap(self):
        return self.node.remap(self.kernel_index)

    def loads(self, only=None):
        """(name, index in kernel vars) of every load it makes from memory (of buffer `only`, where given: the
        others' indices are not worked out), those of recomputed values included."""
        remap = self.remap()
        out = [(n, remap(e)) for n, e in self.node.buf.analysis.loads
               if (only is None or n == only) and (n, e) not in self.recomputed]
        for src, at in self.recomputed.values():
            src_remap = src.remap_at(at)
            out += [(n, src_remap(e)) for n, e in src.node.buf.analysis.loads if only is None or n == only]
        return out

    def row_steps(self, x, r, size_hints):
        """(step along r, step along x) in elements of the load that walks a reduction's row (kernel vars x and r)
        its tiles are shaped for, symbolic sizes at their hints, or None: the first that moves along x by the same
        step at each probed row, else the first (as lowering's `reductions.memory_steps`, which picks the split).
        A load that moves along the row alone (a layer norm's row mean, the same for every output column) is a
        vector the caches serve; the block of outputs x rows is what costs (a layer norm's weight gradient tiled
        for its row vectors read the [4096, 1024] gradient a column a program: 143 us in BART, 8x its bytes). Probed
        numerically: index expressions may hold divisions that hide a unit stride from symbolic inspection; the x
        step is given only if it is the same at each probed row."""
        remap = self.remap()
        first = None
        for _, e in self.node.buf.analysis.loads:
            e = ir.at_hints(remap(e), size_hints)
            if not e.has(r) or e.free_symbols - {x, r}:
                continue
            x_steps = {ir.step_at(e, {x: i, r: 0}, x) for i in range(3)}
            steps = ir.step_at(e, {x: 0, r: 0}, r), x_steps.pop() if len(x_steps) == 1 else None
            if steps[1] not in (0, None):
                return steps
            first = first or steps
        return first

    def remap_at(self, at):
        """remap() with the kernel's vars then substituted by at: its index where its value is recomputed."""
        remap = self.remap()
        return lambda expr: ir.simplify_index(remap(expr).xreplace(at))


class Kernel:
    """A fused kernel over (N, R) with kernel vars x0 (outer) and r0 (inner).

    A reduction kernel reduces over R. A pointwise kernel takes its first node's innermost dim as R,
    so that both code generators get a contiguous inner loop without index division."""
    product = None   # a FusedProduct: the product whose tiles this kernel computes and consumes (max-autotune)

    def __init__(self, node, size_hints):
        self.size_hints = size_hints   # {size symbol's name: its value in the trace} (ir.at_hints)
        self.placements = []
        self.is_reduction = node.is_reduction
        self.scatter = node.scatter     # a scatter kernel holds its scatter alone
        self.scan = node.scan           # so does a scan kernel: each row's steps run in order
        self.alone = node.alone
        if node.is_reduction or node.scan:
            self.numel, self.rnumel = node.numel, node.rnumel
        else:
            self.numel = ir.product(node.sizes[:-1])
            self.rnumel = node.sizes[-1] if node.sizes else sympy.Integer(1)
        self.name = None
        self.hoisted = 0         # bytes it stores earlier than their own place: of independent later nodes
        #                          joined to it, and all it stores once it joins an earlier launch (HOIST_MAX_BYTES)
        self.labels = []         # its step number, once scheduled (a launch group's: its parts')
        self.stores = set()      # buffers written to memory
        self.aliases = {}        # stored values whose memory another stored one holds: name -> that one's name
        self.x, self.r = sympy.Symbol("x0", integer=True, nonnegative=True), \
            sympy.Symbol("r0", integer=True, nonnegative=True)

    @property
    def nodes(self):
        return [p.node for p in self.placements]

    def reads(self):
        """The buffers it reads: its nodes' inputs; with a fused product, that product's operands instead of its
        result."""
        found = {r for n in self.nodes for r in n.reads}
        if self.product is not None:
            found = (found - {self.product.buffer.name}) | self.product.step.reads()
        return found

    def produced(self):
        return {p.node.name: p for p in self.placements}

    def origins(self):
        """The ATen ops its nodes (and its fused product) compute, each named once."""
        product = [str(o).removeprefix("aten.").split(".")[0] for o in self.product.step.origins] \
            if self.product is not None else []
        return list(dict.fromkeys([*product, *(o for n in self.nodes for o in n.origins)]))

    def row_steps(self):
        """How its first reduction walks its rows (Placement.row_steps), which its tiles are shaped for."""
        found = (p.row_steps(self.x, self.r, self.size_hints) for p in self.placements if p.node.is_reduction)
        return next((steps for steps in found if steps is not None), None)

    def walks_rows_alike(self, node):
        """Whether reduction node, placed here, walks its rows as this reduction kernel's do: then it shares its
        launch even with no data in common (a batch norm sums the pieces of its split mean and variance in two
        such reductions)."""
        placement, _ = self.place(node) if node.is_reduction and self.is_reduction else (None, None)
        steps = placement.row_steps(self.x, self.r, self.size_hints) if placement is not None else None
        return steps is not None and steps == self.row_steps()

    def place(self, node):
        """A Placement for node in this kernel, or a reason why it does not fit."""
        N, R = self.numel, self.rnumel
        eq = lambda a, b: ir.expand(a - b) == 0  # noqa: E731
        if node.scan:   # only ever in its own kernel
            return Placement(node, "full", ir.unflatten(self.x, node.sizes) + ir.unflatten(self.r, node.rsizes)), \
                "a scan runs alone"
        if node.is_reduction:
            if not (self.is_reduction and eq(node.numel, N) and eq(node.rnumel, R)):
                return None, f"different iteration space {fmt(node.numel)}x{fmt(node.rnumel)} vs {fmt(N)}x{fmt(R)}"
            index = ir.unflatten(self.x, node.sizes) + ir.unflatten(self.r, node.rsizes)
            return Placement(node, "full", index), "same iteration space"
        if eq(node.numel, N * R):
            k = split_point(node.sizes, R)
            twin = node.split_for(R) if k is None else None
            if twin is not None:
                node, k = twin, split_point(twin.sizes, R)
            if k is None:   # mapping it through a flat index would cost a division per element and coalescing
                return None, f"different loop structure: {fmt(ir.product(node.sizes))} does not split as {fmt(N)}x{fmt(R)}"
            return Placement(node, "full", ir.unflatten(self.x, node.sizes[:k]) + ir.unflatten(self.r, node.sizes[k:])), \
                "same iteration space"
        if self.is_reduction and eq(node.numel, N):
            return Placement(node, "outer", ir.unflatten(self.x, node.sizes)), "epilogue over the reduction's outputs"
        space = f"{fmt(N)}x{fmt(R)}" if self.is_reduction else fmt(N * R)
        return None, f"different iteration space {fmt(node.numel)} vs {space}"

    def check_reads(self, placement):
        """Every value placement reads from this kernel must be the one written at the same index, or one it
        can compute again where it reads it (placement.recomputed, filled here). Returns the placements it
        depends on, or why it does not fit."""
        produced = self.produced()
        node = placement.node
        remap = placement.remap()
        deps = []
        for name, expr in node.buf.analysis.loads:
            if name not in produced:
                continue
            src = produced[name]
            written = src.remap()(src.node.buf.analysis.store_index)
            read = remap(expr)
            elsewhere = ir.expand(read - written) != 0
            if elsewhere or src.level == "full" and not src.node.is_reduction and placement.level == "outer":
                at = self.recompute_at(src, read, written, placement)
                if at is None:
                    return f"reads {name} at another index than {name} is written" if elsewhere else \
                        f"needs all of {name} at once (outer-level use of a per-element value)"
                placement.recomputed[(name, expr)] = (src, at)
                continue
            deps.append(src)
        return deps

    def recompute_at(self, src, read, written, reader):
        """The substitution {r0: k} that takes src's index to read, where src's value can be computed again
        there; else None. That is a pointwise value computed from memory alone (nothing this kernel computes
        or writes), read at a fixed position k of its row: a layer norm's shift is its row's first element,
        and with the residual sum before it in the same kernel, that element is the sum of two loads. Not where
        this kernel writes over what src reads, the reader itself included (a copy_ into an input, of a value
        that recomputes an element of that input: it would read the element after its own store)."""
        n = src.node
        written_here = set(self.produced()) | {q.node.writes_into for q in self.placements + [reader]}
        if n.is_reduction or n.alone or n.writes_into or src.level != "full" or n.reads & written_here:
            return None
        r = self.r
        written = ir.expand(written)
        step = written.coeff(r)
        rest = ir.expand(written - step * r)
        if step == 0 or step.free_symbols or rest.has(r):
            return None
        k = ir.expand((read - rest) / step)
        R = ir.static_numel([self.rnumel])
        if not k.is_Integer or k < 0 or (k >= R if R is not None else k != 0):
            return None
        return {r: k}

    def overwrite_clash(self, placement, deps):
        """Why placement, which stores into a graph input, may not run in this kernel: some node here
        reads the input's old value elsewhere than where it is overwritten, or in a later loop."""
        name, seg = placement.node.buf.mutates, self.segment_for(placement, deps)
        written = placement.remap()(placement.node.buf.analysis.store_index)
        for q in self.placements:
            if any(q.segment > seg or ir.expand(e - written) != 0 for _, e in q.loads(only=name)):
                return f"{q.node.name} reads the old {name} elsewhere or later than it is overwritten"
        return None

    @staticmethod
    def segment_for(placement, deps):
        """The loop segment placement runs in: after its dependencies; even segments are inside the
        R loops ("full"), odd ones between them ("outer")."""
        seg = -1 if placement.level == "outer" else 0
        for d in deps:
            after = d.segment + 1 if (d.node.is_reduction or d.level == "outer") else d.segment
            seg = max(seg, after)
        return seg + 1 if (seg % 2 == 1) != (placement.level == "outer") else seg

    def add(self, placement, deps):
        placement.segment = self.segment_for(placement, deps)
        self.placements.append(placement)


def writes(kernel):
    """What a kernel writes: its stores, the names that are views of them (share_copies), and inputs it writes over;
    a library call, its outputs."""
    if isinstance(kernel, ir.ExternKernel):
        return {o.name for o in kernel.outputs if o is not None}
    return kernel.stores | set(kernel.aliases) | {n.writes_into for n in kernel.nodes if n.writes_into}


def made_early(steps):
    """The bytes that the kernels among steps store earlier than their own places (Kernel.hoisted): a node joining
    the first of them is held beside them all."""
    return sum(s.hoisted for s in steps if isinstance(s, Kernel))


def stored_bytes(kernel):
    """The bytes a kernel stores (inf where a size is not known)."""
    sizes = [n.nbytes for n in kernel.nodes if n.name in kernel.stores]
    return math.inf if None in sizes else sum(sizes)


def fmt(e):
    return str(e).replace("*", "x")


def rebase_to_reduction(kernel, node, transposed=False):
    """A pointwise kernel joining a reduction over its outputs: re-place every node on (N, R). transposed: a
    node whose outer dims the reduction reduces (a bias gradient's rows) may be placed as the reduction reads it
    (placed_as_read), where the code generator's tiles keep such reads coalesced (Triton's)."""
    trial = Kernel(node, kernel.size_hints)
    as_read = placed_as_read(kernel, node, trial) if transposed else {}
    for p in kernel.placements:
        if p.node.name in as_read:
            q = Placement(p.node, "full", as_read[p.node.name])
        else:
            q, _ = trial.place(p.node)
        if q is None or q.level != "full":
            return None
        deps = trial.check_reads(q)
        if isinstance(deps, str):
            return None
        trial.add(q, deps)
    trial.hoisted = kernel.hoisted
    return trial


def placed_as_read(kernel, reduction, trial):
    """Kernel indices (in trial's x0, r0) of kernel's pointwise nodes, derived from how reduction reads them: a
    column sum of a [rows, columns] gradient reduces its outer dim, so the gradient's rows are the reduction's
    r0 and its columns x0 (with a split sum, r0 and part of x0), where placing it by its own dim order (outer dims
    to x0) cannot match. Derived in the reduction's merged dims u: a read that is an affine sum of u's is split
    among the node's dims by stride, and kept only where each of the node's dims is a whole mixed-radix
    combination of u's covering it exactly, each u used once: a bijection, so every element is computed and
    stored once. Nodes read by a derived node are derived from that read (a reader's first load of them),
    consumers before producers. A node derived from no read keeps Kernel.place's placement, or none."""
    u = [sympy.Symbol(f"u{i}", integer=True, nonnegative=True)
         for i in range(len(reduction.sizes) + len(reduction.rsizes))]
    ranges = dict(zip(u, reduction.sizes + reduction.rsizes))
    if not all(isinstance(x, sympy.Integer) for x in ranges.values()):
        return {}
    readers, derived = [(reduction, u)], {}
    for p in reversed(kernel.placements):
        n = p.node
        for reader, index in readers:
            reads = [e for name, e in reader.buf.analysis.loads if name == n.name]
            found = reads and dims_of_read(n, reader.remap(index)(reads[0]), ranges)
            if found:
                derived[n.name] = found
                readers.append((n, found))
                break
    at = dict(zip(u, ir.unflatten(trial.x, reduction.sizes) + ir.unflatten(trial.r, reduction.rsizes)))
    return {name: [ir.simplify_index(ir.expand(w).xreplace(at)) for w in ws] for name, ws in derived.items()}


def dims_of_read(node, read, ranges):
    """node's merged dims as affine sums of the symbols of `ranges` (symbol -> extent), such that node's store
    index at them is `read`, each dim covered exactly once (mixed radix); else None."""
    w = [sympy.Symbol(f"w{i}", integer=True) for i in range(len(node.sizes))]
    written = ir.expand(node.remap(w + [sympy.Integer(0)] * len(node.rsizes))(node.buf.analysis.store_index))
    read = ir.expand(read)
    strides = [written.coeff(v) for v in w]
    if node.rsizes or ir.expand(written - sum(st * v for st, v in zip(strides, w))) != 0 or \
            not all(isinstance(x, sympy.Integer) and x > 0 for x in strides + list(node.sizes)) or \
            read.free_symbols - set(ranges):
        return None
    terms = {v: read.coeff(v) for v in read.free_symbols}
    if ir.expand(read - sum(c * v for v, c in terms.items())) != 0 or \
            any(ranges[v] > 1 and v not in terms for v in ranges):
        return None
    by_dim = {i: [] for i in range(len(w))}
    for v, c in terms.items():   # a term belongs to the dim of the largest stride dividing it (nested strides)
        fits = [i for i, st in enumerate(strides) if isinstance(c, sympy.Integer) and c >= st and c % st == 0]
        if not fits:
            return None
        i = max(fits, key=lambda i: strides[i])
        by_dim[i].append((c // strides[i], ranges[v], v))
    dims = []
    for i, parts in by_dim.items():
        radix = sympy.Integer(1)
        for k, extent, v in sorted(parts, key=lambda t: t[0]):
            if k != radix:
                return None
            radix *= extent
        if radix != node.sizes[i]:
            return None
        dims.append(sum((k * v for k, _, v in parts), sympy.Integer(0)))
    return dims


@dataclasses.dataclass
class Schedule:
    steps: list                 # Kernel | ir.ExternKernel, in order
    decisions: list             # dicts for the trace: node, kernel, fused, with, reason
    local_buffers: set          # computed buffers never written to memory

    def decide(self, node, kernel_label, fused, other, reason):
        self.decisions.append({"node": node, "kernel": kernel_label, "fused": fused, "with": other, "reason": reason})
        log.debug("%s %s %s: %s", node, "fused into" if fused else "not fused with", other, reason)


def waits_for_background_reads(steps, readers, buf):
    """The steps that wait for the collectives among `readers` (steps reading what buf stores into): a collective
    reads its inputs until its wait returns, so a store into one placed between them (in a kernel there) would
    change what the collective sends. A collective whose wait is not in this graph: the store cannot be placed."""
    started = {o.name for k in readers if getattr(steps[k], "reads_in_background", False)
               for o in steps[k].outputs if o is not None}
    waits = [k for k, step in enumerate(steps) if isinstance(step, ir.ExternKernel) and started & set(step.completes)]
    if started - {name for k in waits for name in steps[k].completes}:
        raise ValueError(f"{buf.name} stores into {buf.mutates}, which a collective still reads: its wait is not "
                         f"before the store in this graph")
    return waits


def schedule(buffers, output_names, rows_in_registers=lambda kernel: False, transposed_producers=False,
             size_hints=None):
    """The buffers in kernels and extern calls (which of them share a launch, on Triton: launches.py).
    rows_in_registers(kernel): whether a reduction kernel holds its whole rows in registers (Triton's persistent
    ones), so that a later segment reads an earlier one's values without a store; transposed_producers: a
    reduction over a pointwise kernel's outer dims may take that kernel in (rebase_to_reduction); size_hints:
    {size symbol's name: its traced value}, at which a reduction's walk through memory is judged under dynamic
    shapes."""
    sched, home, size_hints = Schedule([], [], set()), {}, size_hints or {}
    steps, decide = sched.steps, sched.decide

    overwritten = set()   # graph inputs already stored into: nothing may read their old values after that
    mutated = {buf.mutates for buf in buffers if getattr(buf, "mutates", None)}
    # the steps that read each mutated input so far (a batch norm's running statistics): scanning every step for
    # each store into an input took 3.5% of EfficientNet-B0's scheduling and codegen, its 98 such stores
    readers_of = {}

    def reading(k, names):
        for name in names & mutated:
            readers_of.setdefault(name, set()).add(k)
    for buf in buffers:
        stale = buf.reads() & overwritten
        if stale:
            raise ValueError(f"{buf.name} reads {', '.join(sorted(stale))} after it is overwritten")
        if isinstance(buf, ir.ExternKernel):
            steps.append(buf)
            reading(len(steps) - 1, buf.reads())
            for name in [o.name for o in buf.outputs if o is not None] + list(buf.completes):
                home[name] = len(steps) - 1
            home[buf.name] = len(steps) - 1
            decide(buf.name, buf.name, False, None, "extern kernel boundary")
            continue
        node = SchedulerNode(buf)
        earliest = max([home[r] for r in node.reads if r in home], default=-1)
        if buf.mutates:   # the store into an input waits for every reader of the old value
            readers = [k for k in sorted(readers_of.get(buf.mutates, ())) if buf.mutates in steps[k].reads()]
            earliest = max([earliest] + readers + waits_for_background_reads(steps, readers, buf))
            overwritten.add(buf.mutates)
        chosen = None
        # a node may join the kernel holding its latest input, or any later one: the last LOOKBACK kernels, and
        # that input's kernel however far back (an optimizer's foreach ops update every parameter op by op, so
        # each parameter's next op comes a parameter count of kernels after its previous one)
        search = list(range(len(steps) - 1, max(earliest, len(steps) - 1 - LOOKBACK, 0) - 1, -1))
        if 0 <= earliest < len(steps) - 1 - LOOKBACK:
            search.append(earliest)
        for k in [] if node.alone else search:
            step = steps[k]
            label = f"kernel{k}"
            if isinstance(step, ir.ExternKernel):
                continue
            if step.alone:
                decide(node.name, label, False, step.nodes[0].name, "a scatter or scan kernel runs alone")
                continue
            produced = set(step.produced())
            reads_outside = step.reads() - produced
            related = node.reads & (produced | reads_outside)
            together = len(reads_outside | node.reads)
            if not related and together > MAX_HORIZONTAL_READS:
                decide(node.name, label, False, ",".join(n.name for n in step.nodes[:3]),
                       f"no shared data, and together they would read {together} buffers (at most "
                       f"{MAX_HORIZONTAL_READS} share a loop)")
                continue
            held_long = not related and k != len(steps) - 1 and \
                (node.nbytes is None or made_early(steps[k:]) + node.nbytes > HOIST_MAX_BYTES)
            if not related and (held_long or step.is_reduction and not step.walks_rows_alike(node)):
                decide(node.name, label, False, ",".join(n.name for n in step.nodes[:3]),
                       "no shared data; moving it earlier would hold a large output longer" if held_long
                       else "no shared data; a reduction kernel's tiles are shaped for its rows, which it walks otherwise")
                continue
            target = step
            if not step.is_reduction and node.is_reduction:
                target = rebase_to_reduction(step, node, transposed_producers)
                if target is None:
                    decide(node.name, label, False, step.nodes[0].name,
                           f"the pointwise kernel's nodes do not all fit the {fmt(node.numel)}x{fmt(node.rnumel)} "
                           f"reduction's loop")
                    continue
            placement, reason = target.place(node)
            if placement is None:
                decide(node.name, label, False, step.nodes[0].name, reason)
                continue
            deps = target.check_reads(placement)
            refusal = deps if isinstance(deps, str) else target.overwrite_clash(placement, deps) if buf.mutates else None
            if refusal:
                decide(node.name, label, False, step.nodes[0].name, refusal)
                continue
            target.add(placement, deps)
            steps[k] = target
            reading(k, node.reads)
            chosen = k
            if not related and k != len(steps) - 1:
                target.hoisted += node.nbytes
            why = reason if related else f"{reason} (horizontal: independent work in one launch)"
            if node.reads & produced:
                why = f"{reason}; consumes {', '.join(sorted(node.reads & produced))} in registers"
            decide(node.name, label, True, step.nodes[0].name, why)
            break
        if chosen is None:
            kernel = Kernel(node, size_hints)
            placement, _ = kernel.place(node)
            kernel.add(placement, [])
            steps.append(kernel)
            chosen = len(steps) - 1
            reading(chosen, node.reads)
            decide(node.name, f"kernel{chosen}", False, None,
                   "a scatter runs alone, after its copy" if node.scatter else "a scan runs alone" if node.scan
                   else "starts a new kernel")
        home[node.name] = chosen

    sched.local_buffers = finalize(steps, output_names, rows_in_registers)
    return sched


def finalize(steps, output_names, rows_in_registers):
    """Names kernels and decides which computed buffers must reach memory: outputs, what another step reads,
    writes into inputs, and values a later segment of a looped kernel reads (it walks the row again; a kernel
    with its rows in registers still holds them: T5's softmax stored exp(x - max) for its division, 64 MiB
    at the decoder's peak)."""
    readers = {}
    for i, step in enumerate(steps):
        for r in step.reads():
            readers.setdefault(r, set()).add(i)
    local = set()
    overwritten = {n.writes_into for step in steps if not isinstance(step, ir.ExternKernel) for n in step.nodes}
    for i, step in enumerate(steps):
        if isinstance(step, ir.ExternKernel):
            continue
        step.name, step.labels = kernel_name([i], step), [i]
        produced = step.produced()
        walks_rows_again = not rows_in_registers(step)
        for name, p in produced.items():
            other_reader = readers.get(name, set()) - {i}
            cross_segment = walks_rows_again and not p.node.is_reduction and p.level == "full" and any(
                q.segment != p.segment and name in q.node.reads for q in step.placements)
            if name in output_names or other_reader or cross_segment or p.node.buf.mutates:
                step.stores.add(name)
            else:
                local.add(name)
        share_copies(step, output_names | overwritten)
    # a kernel that stores nothing is dead (an output of a multi-output op nobody reads): drop it
    steps[:] = [s for s in steps if isinstance(s, ir.ExternKernel) or s.stores]
    return local


def share_copies(kernel, kept_apart):
    """A stored value equal to another stored one at the same memory offsets (the same computation, or a copy
    of it) is not stored: its buffer is a view of the other's (kernel.aliases). A SwiGLU's backward stored
    each gradient twice, [rows, n] and the transposed [n, rows] that its weight's matmul reads, with equal
    bytes: Mistral's held 2 x 224 MiB more than Inductor's. kept_apart: outputs (the caller may write into
    one) and buffers written into later."""
    produced = kernel.produced()

    def shareable(name):
        node = produced[name].node
        return name not in kept_apart and produced[name].level == "full" and not (
            node.is_reduction or node.scatter or node.scan or node.writes_into)
    candidates = [name for name in sorted(kernel.stores) if shareable(name)]
    described = {}

    def description(name):
        """(the text of its body, its store's offset in the kernel's vars), computed once and only for a pair that
        could be equal: a body's text costs a run of it (a depthwise kernel's 25 taps, 10 ms; DeBERTa-v2's 24
        layers spent a fifth of their scheduling and codegen in these texts when each candidate had one)"""
        if name not in described:
            p = produced[name]
            remap = p.remap()
            described[name] = (ir.body_text(p.node.buf, p.node.dvars, p.node.rvars, remap),
                               remap(p.node.buf.analysis.store_index))
        return described[name]

    loaded = {name: [buffer for buffer, _ in produced[name].node.buf.analysis.loads] for name in candidates}

    def could_be_equal(m, n):
        """What equal texts (or m's a copy of n) need, known from the bodies' analyses: the same buffers loaded
        in the same order and as many ops (or n alone loaded); and memory m's buffer can take."""
        a, b = produced[m].node.buf, produced[n].node.buf
        return (loaded[m] == loaded[n] and a.analysis.opcount == b.analysis.opcount or loaded[m] == [n]) and \
            b.layout.same_memory(a.layout)
    for m in candidates:
        if m in kernel.aliases.values():
            continue
        for n in candidates:
            if n == m or n in kernel.aliases or not could_be_equal(m, n):
                continue
            (text_m, offset_m), (text_n, offset_n) = description(m), description(n)
            if ir.expand(offset_m - offset_n) == 0 and \
                    (text_m == text_n or text_m == f"v0 = load({n}, {offset_m})\nreturn v0"):
                kernel.stores.discard(m)
                kernel.aliases[m] = n
                break


NAME_OPS_CHARS = 80   # a kernel's name is a file name in the trace: ATen names run long (with no cap, past 255)


def kernel_name(labels, kernel):
    """kernel<its step number(s)>_<the first ops it computes, up to 4 and NAME_OPS_CHARS characters>."""
    ops_seen = list(dict.fromkeys(str(o).split(".")[-1].strip("_") for o in kernel.origins()))[:4]
    while len(ops_seen) > 1 and len("_".join(ops_seen)) > NAME_OPS_CHARS:
        ops_seen.pop()
    return f"kernel{'_'.join(map(str, labels))}_" + "_".join(ops_seen)[:NAME_OPS_CHARS].replace("-", "_")
