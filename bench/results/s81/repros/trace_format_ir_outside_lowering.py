"""With the trace on (options={"trace": DIR} / KILN_TRACE), a dynamic graph with a broadcast over a symbolic size
that the trace found to be 1 (BigBird, dynamic=True) fails to compile: kiln.ir.format_ir writes the IR by running
each node's body after lowering has finished, and kiln.lowering.pointwise.broadcasts() calls
kiln.lowering.values.current() (RUNNING[-1]) outside GraphLowering.in_effect -> IndexError. Without the trace the
same graph compiles and is right."""
import tempfile
import torch
import kiln


def fn(x):
    return x + x[2::3]     # x[2::3] of a 5-long x: (s0 + 1) // 3 elements, 1 here, broadcast against x


x = torch.randn(5)
for trace in (None, tempfile.mkdtemp()):
    torch._dynamo.reset()
    torch._dynamo.decorators.mark_dynamic(x, 0)
    opts = {"strict": True} | ({"trace": trace} if trace else {})
    try:
        got = kiln.compile(fn, dynamic=True, options=opts)(x)
        print(f"trace={bool(trace)}: max error vs eager {(got - fn(x)).abs().max().item()}")
    except Exception as e:
        print(f"trace={bool(trace)}: FAILED {type(e).__name__}: {getattr(e, 'inner_exception', e)!r}")
