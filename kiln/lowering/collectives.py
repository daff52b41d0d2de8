"""torch.distributed's functional collectives (`dist.all_reduce` and friends as Dynamo traces them): externs.

A collective returns at once, with an output whose values arrive in the background, while it may still read its
inputs; `wait_tensor(out)` blocks until it is done, and returns `out` itself: the same tensor, although its schema
does not say so. So:
- a collective reads its inputs in the background: the memory planner gives their memory to no other buffer
  (ir.ExternKernel.reads_in_background), even where the wait is in another graph;
- its inputs and outputs are contiguous, as the ops allocate them (torch's meta functions of broadcast and the
  coalesced all-reduce say otherwise): the wrapper must not copy an output to restride it before the wait;
- the wait is not a fresh result but an extern that completes its argument's buffer: whatever reads the result
  is placed after it and reads the collective's output buffer itself.
Collectives start as early and waits come as late as the graph allows (patterns.overlap_collectives).
"""
import torch

from kiln import ir
from kiln.lowering.values import current, Lazy, register, View

c10d = torch.ops._c10d_functional

COLLECTIVES = [getattr(c10d, name).default for name in (
    "all_reduce", "all_reduce_coalesced", "all_gather_into_tensor", "all_gather_into_tensor_coalesced",
    "reduce_scatter_tensor", "reduce_scatter_tensor_coalesced", "all_to_all_single", "broadcast")]
WAIT = c10d.wait_tensor.default


def lower_collective(target):
    def lower(out, *args, **kwargs):
        low = current()

        def contiguous(a):
            if isinstance(a, (list, tuple)):
                return type(a)(contiguous(x) for x in a)
            return low.realize_strided(a, ir.contiguous_strides(a.sizes)) if isinstance(a, (Lazy, View)) else a
        outs = out if isinstance(out, (list, tuple)) else [out]
        result = low.extern(target, contiguous(args), {k: contiguous(v) for k, v in kwargs.items()}, fallback=False,
                            out_strides=[ir.contiguous_strides([ir.sym(s) for s in o.shape]) for o in outs])
        low.buffers[-1].reads_in_background = True
        return result
    return lower


for _target in COLLECTIVES:
    register(_target)(lower_collective(_target))


@register(WAIT)
def wait_tensor(out, x):
    low = current()
    x = low.realize(x)
    low.buffers.append(ir.ExternKernel(low.new_name("extern"), WAIT, (x.ref(out),), {}, [None], False, False,
                                       origins=(str(WAIT),), completes=(x.buffer.name,)))
    return x
