# kiln's default mode (no CUDA graph): a graph's output that is a slice at offset 0 of a value it computes
# (y = (x + 1)[:4] of 10 rows) comes back in a storage of y's 4 rows (eager's, aot_eager's and Inductor's: all
# 10 rows). Eager code that reads past y's end (y.as_strided((6, 4), (4, 1), 0)) raises; a next compiled graph
# that reads there (after a graph break) reads past the storage's end, silently.   usage: s17_output_slice_storage.py
import torch, kiln
from harness import *
def first(x):
    t = x + 1
    return t[:4]
def both(x):
    t = x + 1
    y = t[:4]
    torch._dynamo.graph_break()
    return y.as_strided((6, 4), (4, 1), 0) * 3
comps = {"aot_eager": lambda f: torch.compile(f, backend="aot_eager"), "inductor": lambda f: torch.compile(f, backend="inductor"),
         "kiln default": lambda f: kiln.compile(f, options={"graph_cache": False})}
x = torch.randn(10, 4)
for name, comp in comps.items():
    setup()
    y = comp(first)(x)
    try:
        y.as_strided((6, 4), (4, 1), 0); eager_read = "reads"
    except RuntimeError as e:
        eager_read = "RAISES: " + str(e)[:60]
    setup()
    o = comp(both)(x)
    print(f"{name:13s} y's storage {y.untyped_storage().nbytes()} B; eager read past y's end {eager_read}; "
          f"compiled read right: {torch.allclose(o, both(x))}")
