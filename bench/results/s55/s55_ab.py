"""Session 55's A/Bs on the CPU, one process, beside Inductor: kiln with a switch of this session on and off.
    PYTHONPATH=. python3 bench/results/s55/s55_ab.py products|runs MODEL... [--infer]
products: CPU products as BLAS calls of kiln's module (codegen.cpp_products) against ATen's calls;
runs: a run of launches made by one call (wrapper.RUN_BYTES) against a call per launch.
Run one model per process: later models in a process read 10-15% slower, both compilers."""
import copy
import os
import statistics
import sys
import time

os.environ["KILN_GRAPH_CACHE"] = "0"   # (the switches are not part of the graph cache's key)
import torch  # noqa: E402

import kiln  # noqa: E402
from kiln.codegen import cpp_products  # noqa: E402
from kiln.runtime import wrapper  # noqa: E402
from kiln.tools.bench import _make_step  # noqa: E402
from kiln.tools.workloads import workload  # noqa: E402

torch._dynamo.config.recompile_limit = 64
torch._dynamo.config.accumulated_recompile_limit = 4096
SWITCHES = {"products": (cpp_products, "BLAS", {}), "runs": (wrapper, "RUN_BYTES", 0)}
what, names = sys.argv[1], [a for a in sys.argv[2:] if not a.startswith("--")]
train, rounds = "--infer" not in sys.argv, 15
module_, attr, off = SWITCHES[what]
for name in names:
    w = workload(name)
    m, x = w.make_module("cpu", torch.float32, "quick", train), w.make_inputs("cpu", torch.float32, "quick")
    steps, on = {}, getattr(module_, attr)
    for label, value in ((f"kiln {what}", on), ("kiln without", off)):
        setattr(module_, attr, value)   # (read while compiling)
        steps[label] = _make_step(kiln.compile(copy.deepcopy(m)), x, train)
        for _ in range(3):
            steps[label]()
    setattr(module_, attr, on)
    steps["inductor"] = _make_step(torch.compile(copy.deepcopy(m)), x, train)
    for _ in range(3):
        steps["inductor"]()
    times = {k: [] for k in steps}
    for _ in range(rounds):
        for k, step in steps.items():
            t0 = time.perf_counter()
            for _ in range(20):
                step()
            times[k].append((time.perf_counter() - t0) / 20 * 1e3)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{name:12} " + "  ".join(f"{k} {v:.3f} ms" for k, v in med.items()) +
          f"  | Inductor / kiln {what} {med['inductor'] / med[f'kiln {what}']:.3f}, without "
          f"{med['inductor'] / med['kiln without']:.3f}  load {os.getloadavg()[0]:.2f}", flush=True)
