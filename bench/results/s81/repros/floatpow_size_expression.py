"""A size computed as int(n ** 0.5) from a dynamic size (DPT's reassemble stage: torch_int(sequence_length ** 0.5),
dynamic=True) fails in kiln's C++ code generator: the size expression FloatPow(ToFloat(s0 - 1), 0.5) reaches a
kernel's index and kiln/codegen/common.py's printer (_print_Function) has no spelling for FloatPow ->
NotImplementedError. strict=True raises; by default the graph runs eagerly."""
import torch
import kiln


def fn(x):                                 # x: (batch, 1 + side * side, channels), a ViT's tokens with CLS
    b, n, c = x.shape
    side = int((n - 1) ** 0.5)
    return x[:, 1:].reshape(b, side, side, c).permute(0, 3, 1, 2).contiguous() * 2


for backend in ("inductor", "kiln"):
    torch._dynamo.reset()
    f = torch.compile(fn, backend=backend, dynamic=True) if backend != "kiln" else \
        kiln.compile(fn, dynamic=True, options={"strict": True})
    try:
        for side in (4, 6):
            x = torch.randn(2, 1 + side * side, 8)
            print(f"{backend} side={side}: max error vs eager {(f(x) - fn(x)).abs().max().item()}")
    except Exception as e:
        print(f"{backend}: FAILED {type(e).__name__}: {getattr(e, 'inner_exception', e)!r}")
