# as_strided of an input at an explicit offset reads the caller's storage beyond the input's elements (eager and
# kiln's default mode read it; lowering.views.lower_as_strided: "a graph input given as traced is the caller's
# tensor, in the caller's storage: any position eager reads"). Under reduce-overhead an input at a fresh place
# per call is copied into a buffer of its strides, which holds only its elements.   usage: g2_as_strided_gaps.py
import torch
from harness import *

def run(name, f, make, mode="reduce-overhead", calls=6):
    setup(); torch.manual_seed(0)
    g = kiln.compile(f, mode=mode, options={"graph_cache": False}) if mode else torch.compile(f, backend="eager")
    bad = 0
    for t in range(calls):
        x = make()
        got, want = g(x), f(x)
        if not torch.allclose(got, want, rtol=1.3e-6, atol=1e-5):
            bad += 1
            if bad == 1:
                print(f"  {name} [{mode}] call {t}: max |diff| {(got - want).abs().max().item():.3g}")
    print(f"{name:28s} [{mode}] wrong calls {bad}/{calls}", stats())

# a slice with gaps, read whole through as_strided (its gaps included); the graph's inputs and offset as traced
gapped = lambda: torch.randn(8, 8)[:, :4]
read_gaps = lambda x: x.as_strided((8, 8), (8, 1), 0) * 2
# a dense slice at an offset, read from the storage's start
dense_off = lambda: torch.randn(10, 4)[2:]
read_before = lambda x: x.as_strided((4, 4), (4, 1), 0) + 1
for mode in ("default", "reduce-overhead"):
    run("gapped, reads its gaps", read_gaps, gapped, mode)
    run("dense at offset, reads before", read_before, dense_off, mode)

