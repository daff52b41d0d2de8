"""Frozen CPU conv nets: kiln frozen with packed oneDNN calls where a product would do (as now) against products,
beside Inductor frozen; one process, alternating rounds (quick size, float32)."""
import copy, statistics, sys, time, torch, kiln
import os; os.environ["KILN_GRAPH_CACHE"] = "0"
import torch._inductor.config as ic
from kiln.lowering import externs, conv_products
from kiln.tools.bench import _own_recompile_budget
from kiln.tools.workloads import workload
packed = externs.packed_convolution
def products_first(g, out, x, weight, *args):
    if conv_products.runs_as_matmul(out.dtype, out.device, x.sizes, list(out.shape), weight, *args[1:]) is not None:
        return None
    return packed(g, out, x, weight, *args)
for name in sys.argv[1].split(","):
    w = workload(name)
    m0 = w.make_module("cpu", torch.float32, "quick", False).eval(); x = w.make_inputs("cpu", torch.float32, "quick")
    fns = {}
    with torch.no_grad():
        for turn, v in enumerate(["inductor", "kiln_packed", "kiln_products"]):
            _own_recompile_budget(turn); torch._dynamo.reset()
            m = copy.deepcopy(m0)
            externs.packed_convolution = products_first if v == "kiln_products" else packed
            if v == "inductor":
                ic.freezing = True
                f = torch.compile(m, backend="inductor")
            else:
                ic.freezing = False
                f = kiln.compile(m, options={"freezing": True})
            for _ in range(3): f(*x)
            fns[v] = f
        times = {v: [] for v in fns}
        for r in range(15):
            for v in list(fns)[r % 3:] + list(fns)[:r % 3]:
                t = time.perf_counter()
                for _ in range(20): fns[v](*x)
                times[v].append((time.perf_counter() - t) / 20 * 1e3)
    med = {v: statistics.median(t) for v, t in times.items()}
    print(name, " ".join(f"{v} {ms:.3f}" for v, ms in med.items()), "| kiln/inductor:",
          " ".join(f"{v} {med['inductor'] / ms:.3f}" for v, ms in med.items() if v != "inductor"), flush=True)
