"""WavLM (any mode) fails inside kiln's AOTAutograd trace: position_bias.unsqueeze(0).repeat(bsz, 1, 1, 1).view(...)
on a permuted position bias. Under kiln's decompositions repeat's result keeps the permuted input's stride order
(here (T*T*H, 1, 4*T, 4) for (2, 4, T, T)) where eager's repeat returns a contiguous tensor, so the user's .view()
is impossible -> ValueError "Cannot view a tensor ...". aot_eager (no kiln decompositions) and eager are fine."""
import torch
import kiln


def fn(x):                                   # x: (T, T, H), as WavLM's relative position embedding lookup
    pb = x.permute(2, 0, 1)                  # (H, T, T), not contiguous
    return pb.unsqueeze(0).repeat(2, 1, 1, 1).view(2 * 4, 5, 5) * 2


x = torch.randn(5, 5, 4)
print("eager repeat strides:", x.permute(2, 0, 1).unsqueeze(0).repeat(2, 1, 1, 1).stride())
for backend in ("aot_eager", "inductor", "kiln"):
    torch._dynamo.reset()
    f = kiln.compile(fn, options={"strict": True}) if backend == "kiln" else torch.compile(fn, backend=backend)
    try:
        print(f"{backend}: max error vs eager {(f(x) - fn(x)).abs().max().item()}")
    except Exception as e:
        print(f"{backend}: FAILED {type(e).__name__}: {str(getattr(e, 'inner_exception', e)).splitlines()[0]}")
