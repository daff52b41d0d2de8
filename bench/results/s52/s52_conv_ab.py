"""Session 52: A/B in one process on a model of the suite (quick size, CPU): kiln with its small windowed
convolutions as oneDNN calls (A: externs.WINDOWS_UP_TO = 0; 1x1 ones stay products) against as products of their
windows (B), beside Inductor; alternating rounds, then the library ops of 10 steps each under torch.profiler.
    KILN_GRAPH_CACHE=0 PYTHONPATH=. python3 bench/results/s52/s52_conv_ab.py resnet [--train]
"""
import copy
import statistics
import sys
import time

import torch
from torch.profiler import profile

import kiln
from kiln.lowering import externs
from kiln.tools.bench import _make_step
from kiln.tools.workloads import workload

name, train = sys.argv[1], "--train" in sys.argv
w = workload(name)
module = w.make_module("cpu", torch.float32, "quick", train)
inputs = w.make_inputs("cpu", torch.float32, "quick")
torch._dynamo.config.recompile_limit = 64
steps = {}
for label, limit in (("A oneDNN", 0), ("B products", externs.WINDOWS_UP_TO)):
    externs.WINDOWS_UP_TO = limit   # (read as each graph is lowered, at its first call)
    steps[label] = _make_step(kiln.compile(copy.deepcopy(module)), inputs, train)
    for _ in range(3):
        steps[label]()
steps["inductor"] = _make_step(torch.compile(copy.deepcopy(module)), inputs, train)
for _ in range(3):
    steps["inductor"]()
times = {k: [] for k in steps}
for _ in range(15):
    for k, step in steps.items():
        start = time.perf_counter()
        for _ in range(20):
            step()
        times[k].append((time.perf_counter() - start) / 20 * 1e3)
for k, v in times.items():
    print(f"{k}: median {statistics.median(v):.3f} ms, min {min(v):.3f}")
LIBRARY = ("aten::conv", "aten::mkldnn", "aten::mm", "aten::addmm", "aten::constant_pad", "aten::copy_",
           "aten::as_strided", "aten::convolution_backward")
for k, step in steps.items():
    with profile() as p:
        for _ in range(10):
            step()
    ops = {e.key: (e.count // 10, round(e.self_cpu_time_total / 10, 1)) for e in p.key_averages()
           if e.key.startswith(LIBRARY)}
    print(k, "(calls, self us a step):", sorted(ops.items()))
