"""torch.distributed's functional collectives (`dist.all_reduce` and friends as Dynamo traces them): externs.

A collective returns at once, with an output whose values arrive in the background; `wait_tensor(out)`
blocks until they have, and returns `out` itself: the same tensor, although its schema does not say so.
So the wait is not a fresh result. It is an extern that completes its argument's buffer:
- whatever reads the result is placed after the wait, and reads the collective's output buffer itself;
- it holds the collective's inputs, which the collective may read until then, so that the memory planner
  gives none of them to a later result before the wait.
Collectives start as early and waits come as late as the graph allows (patterns.overlap_collectives).
"""
import torch

from kiln import ir
from kiln.lowering.values import current, register

c10d = torch.ops._c10d_functional

COLLECTIVES = [getattr(c10d, name).default for name in (
    "all_reduce", "all_reduce_coalesced", "all_gather_into_tensor", "all_gather_into_tensor_coalesced",
    "reduce_scatter_tensor", "reduce_scatter_tensor_coalesced", "all_to_all_single", "broadcast")]
WAIT = c10d.wait_tensor.default


def lower_collective(target):
    def lower(out, *args, **kwargs):
        return current().extern(target, args, kwargs, fallback=False)
    return lower


for _target in COLLECTIVES:
    register(_target)(lower_collective(_target))


@register(WAIT)
def wait_tensor(out, x):
    low = current()
    x = low.realize(x)
    producer = next((b for b in reversed(low.buffers)
                     if isinstance(b, ir.ExternKernel) and x.buffer in b.outputs), None)
    holds = tuple(sorted(producer.reads())) if producer is not None and producer.target in COLLECTIVES else ()
    low.buffers.append(ir.ExternKernel(low.new_name("extern"), WAIT, (x.ref(out),), {},
                                       [None], False, False, origins=(str(WAIT),),
                                       completes=(x.buffer.name,), holds=holds))
    return x
