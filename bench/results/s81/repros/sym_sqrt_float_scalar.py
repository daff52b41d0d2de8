"""kiln fails to compile a graph holding a float computed from a symbolic size with math.sqrt
(BigBird's `rsqrt_d = 1 / math.sqrt(attention_head_size)` under dynamic=True): torch.sym_sqrt is lowered to
sympy.sqrt, a Pow(s0, 1/2), which the wrapper's PyIndexPrinter (kiln/runtime/wrapper.py) hands to torch's
PythonPrinter, which asserts on a non-integer exponent. strict=True raises; by default the graph runs eagerly."""
import math
import torch
import kiln


def fn(x, d):
    return x + 1, torch.scalar_tensor(1.0 / math.sqrt(d), dtype=torch.float64)


for strict in (True, False):
    torch._dynamo.reset()
    before = kiln.stats()["graphs_fallback"]
    f = kiln.compile(fn, dynamic=True, options={"strict": strict})
    x = torch.randn(4)
    try:
        for d in (16, 24):
            got, want = f(x, d), fn(x, d)
            print(f"strict={strict} d={d}: {got[1].item()} vs eager {want[1].item()}")
    except Exception as e:
        print(f"strict={strict}: FAILED {type(e).__name__}: {getattr(e, 'inner_exception', e)!r}")
    print(f"strict={strict}: graphs that fell back to eager: {kiln.stats()['graphs_fallback'] - before}")
