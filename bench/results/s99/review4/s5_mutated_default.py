# The graph mutates its input x in place, then reads x.as_strided at offset 0 (rows before x): eager against kiln's
# default mode, kiln's reduce-overhead and Inductor (no CUDA graph involved in the first two).
import torch, kiln
def mut(x):
    x.mul_(2)
    return x.as_strided((4, 4), (4, 1), 0) + 1
for label, comp in [("kiln default", lambda f: kiln.compile(f, options={"graph_cache": False})),
                    ("inductor", lambda f: torch.compile(f, backend="inductor")),
                    ("aot_eager", lambda f: torch.compile(f, backend="aot_eager"))]:
    torch._dynamo.reset(); torch.manual_seed(0)
    g = comp(mut)
    b1 = torch.randn(10, 4); b2 = b1.clone()
    try:
        o1 = g(b1[2:]); o2 = mut(b2[2:])
        print(f"{label:12s} output equal: {torch.allclose(o1, o2)}  storage equal: {torch.equal(b1, b2)}")
    except Exception as e:
        print(label, "ERR", type(e).__name__, str(e)[:100])
