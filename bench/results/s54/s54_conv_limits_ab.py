"""A/B of conv_products' limits, kiln variants beside Inductor, one process, alternating rounds (CPU quick, train)."""
import os, sys, time, statistics, torch, kiln
os.environ["KILN_GRAPH_CACHE"] = "0"
from kiln.lowering import conv_products as cp
from kiln.tools.bench import _make_step, _compile, _own_recompile_budget
from kiln.tools.workloads import workload
models = sys.argv[1].split(","); train = "--infer" not in sys.argv
variants = {"kiln_15_22": (1 << 15, 1 << 22), "kiln_17_23": (1 << 17, 1 << 23), "kiln_19_24": (1 << 19, 1 << 24)}
for name in models:
    w = workload(name)
    steps = {}
    for turn, v in enumerate(["inductor", *variants]):
        _own_recompile_budget(turn)
        torch._dynamo.reset()
        m = w.make_module("cpu", torch.float32, "quick", train); x = w.make_inputs("cpu", torch.float32, "quick")
        if v != "inductor":
            cp.WINDOWS_UP_TO, cp.MATMUL_CONVOLUTION_UP_TO = variants[v]
        steps[v] = _make_step(_compile(m, "inductor" if v == "inductor" else "kiln"), x, train)
        for _ in range(3): steps[v]()
    times = {v: [] for v in steps}
    for r in range(15):
        order = list(steps)[r % len(steps):] + list(steps)[:r % len(steps)]
        for v in order:
            t = time.perf_counter()
            for _ in range(10): steps[v]()
            times[v].append((time.perf_counter() - t) / 10 * 1e3)
    med = {v: statistics.median(t) for v, t in times.items()}
    print(name, "train" if train else "infer", " ".join(f"{v} {ms:.3f}" for v, ms in med.items()),
          " | ratios to inductor:", " ".join(f"{v} {med['inductor'] / ms:.3f}" for v, ms in med.items() if v != "inductor"), flush=True)
