"""What runs in one launch, decided once the scheduler (scheduler.py) has grouped the buffers into kernels:
independent pointwise kernels sharing one Triton launch (LaunchGroup, share_launches), and a matrix product
computed inside the pointwise kernel that reads it (FusedProduct, product_consumers, fuse_product), where
max-autotune's tuner times it faster (runtime/autotune.py)."""
import dataclasses

from kiln import ir, scheduler
from kiln.scheduler import Kernel, kernel_name, made_early, stored_bytes, writes

SMALL_KERNEL = 1 << 20   # elements: a pointwise kernel this small takes about as long as its launch on a GPU


class LaunchGroup(Kernel):
    """Independent pointwise kernels launched as one (Triton): programs [0, P0) run the first part, the next
    P1 the second, and so on. A small kernel's launch costs microseconds, about what its work does."""

    def __init__(self, parts):
        self.parts = parts
        self.placements = [p for k in parts for p in k.placements]
        self.stores = set().union(*(k.stores for k in parts))
        self.aliases = {m: n for k in parts for m, n in k.aliases.items()}
        self.is_reduction, self.scatter, self.scan, self.alone = False, None, None, False
        self.labels = [i for k in parts for i in k.labels]
        self.hoisted = sum(k.hoisted for k in parts)
        self.name = kernel_name(self.labels, self)


def device_of(kernel):
    return launch_parts(kernel)[0].placements[0].node.buf.layout.device


def launch_parts(step):
    return step.parts if isinstance(step, LaunchGroup) else [step]


MAX_LAUNCH_PARTS = 8   # Triton builds a group's parts as one function: 40 parts took 11 s where 4 took 0.6, and
# 37 of EfficientNet's AMP training step failed in Triton's inliner (H100)


def share_launches(sched):
    """Each pointwise kernel joins the launch before it when the two touch no common buffer that either writes,
    and one side is small (two large kernels gain little, and may want different numbers of warps), or all are
    single contiguous runs (tiled alike) that allocate nothing, writing only over inputs (an optimizer step's
    large parameters, one launch each, left GPT-2's AdamW step bound by the host's launches; parts that allocate
    would allocate together, before the launch, where one part's output could have reused the memory another's
    input frees); a launch runs at most MAX_LAUNCH_PARTS kernels. Rewrites sched.steps, and records each joining
    among sched's decisions."""
    def small(k):
        return (ir.static_numel([k.numel * k.rnumel]) or SMALL_KERNEL) < SMALL_KERNEL

    def one_run_in_place(k):
        return ir.static_numel([k.numel]) == 1 and all(n.writes_into for n in k.nodes if n.name in k.stores)

    def pointwise(step):
        return isinstance(step, Kernel) and not any(k.is_reduction or k.alone for k in launch_parts(step))

    def clash(a, b):
        return (a.reads() & writes(b)) | (writes(a) & (b.reads() | writes(b)))

    def earlier_launch(step):
        """The index of the nearest pointwise launch before the steps since, which a small kernel independent of
        them all joins: a batch norm's per-channel 1 / sqrt(var + eps), computed from the graph's inputs after a
        convolution, took a launch of its own. Its output is then allocated before those steps (at most
        SMALL_KERNEL elements; those joining one launch so store at most scheduler.HOIST_MAX_BYTES together). None
        where a step between writes what it reads, reads what it writes, or may write what it does not name (an eager
        fallback, a collective), or on another device."""
        for j in range(len(out) - 1, -1, -1):
            s = out[j]
            if pointwise(s):
                joins = len(launch_parts(s)) < MAX_LAUNCH_PARTS and not clash(step, s) and \
                    device_of(s) == device_of(step)
                return j if joins and made_early(out[j:]) + stored_bytes(step) <= scheduler.HOIST_MAX_BYTES else None
            if isinstance(s, ir.ExternKernel) and (s.fallback or s.completes or s.reads_in_background) or \
                    clash(step, s):
                return None
        return None

    out, decide = [], sched.decide
    for step in sched.steps:
        prev = out[-1] if out else None
        if pointwise(step) and pointwise(prev) and len(launch_parts(prev)) < MAX_LAUNCH_PARTS and \
                (small(step) or all(small(k) for k in launch_parts(prev)) or
                 one_run_in_place(step) and all(one_run_in_place(k) for k in launch_parts(prev))):
            if not clash(step, prev):
                out[-1] = LaunchGroup(launch_parts(prev) + [step])
                decide(step.name, out[-1].name, True, prev.name, "independent of the kernel before it, and one "
                       "of them small or both single runs in place: one launch runs both")
                continue
        j = earlier_launch(step) if pointwise(step) and small(step) and not pointwise(prev) else None
        if j is not None:
            joined = out[j]
            step.hoisted = stored_bytes(step)   # (all it stores is now made early)
            out[j] = LaunchGroup(launch_parts(joined) + [step])
            decide(step.name, out[j].name, True, joined.name, "small, and independent of the steps since this "
                   "earlier kernel: it joins that kernel's launch")
            continue
        out.append(step)
    sched.steps[:] = out


@dataclasses.dataclass
class FusedProduct:
    """An mm or addmm computed inside the pointwise kernel that reads its result (mode="max-autotune", where the
    tuner timed it faster than the library call and the kernel apart: runtime/autotune.py): each program computes
    a tile of the product in registers, and the kernel's nodes read it there. stored: the product is written to
    its buffer too (a later step or the graph's outputs read it)."""
    step: ir.ExternKernel
    config: tuple               # (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps), as kiln's matmul's (runtime/matmul.py)
    stored: bool

    @property
    def buffer(self):
        return self.step.outputs[0]

    def __str__(self):
        block_m, block_n, block_k, stages, warps = self.config
        return f"{self.step.target} computed in its consumer: tiles {block_m}x{block_n}x{block_k}, {stages} stages, " \
               f"{warps} warps"


def product_consumers(steps, output_names):
    """(index of a product's step, the kernel after it, whether the product must still be stored: another step or
    the graph's outputs read it) for each library call whose result the next step, a pointwise kernel, reads:
    where max-autotune may compute the product inside that kernel (FusedProduct). Not where the kernel writes what
    the product reads: a program's stores would race with other programs' reads of the operands."""
    found = []
    for i, (step, consumer) in enumerate(zip(steps, steps[1:])):
        if not isinstance(step, ir.ExternKernel) or step.fallback or step.returns_tuple or \
                len(step.outputs) != 1 or step.outputs[0] is None or step.completes or step.reads_in_background:
            continue
        name = step.outputs[0].name
        if type(consumer) is not Kernel or consumer.is_reduction or consumer.scan or consumer.scatter or \
                consumer.alone or consumer.product is not None or name not in consumer.reads() or \
                writes(consumer) & step.reads():
            continue
        found.append((i, consumer, name in output_names or any(name in other.reads() for other in steps[i + 2:])))
    return found


def fuse_product(steps, i, config, stored):
    """Computes steps[i], a product, inside the kernel after it (product_consumers), in this tile configuration."""
    kernel = steps[i + 1]
    kernel.product = FusedProduct(steps[i], tuple(config), stored)
    kernel.name = kernel_name(kernel.labels, kernel)
    del steps[i]
