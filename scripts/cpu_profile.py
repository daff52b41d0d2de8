"""Where a CPU step's time goes, kiln beside Inductor: library ops (ATen, oneDNN, MKL: by torch.profiler) and the
rest (generated kernels and the wrapper), for one workload of the suite.

    PYTHONPATH=. python3 scripts/cpu_profile.py mobilenet_v2 [--train | --freezing] [--size quick] [--steps 50] [--top 12]

Each backend: the median step time of alternating rounds, then the library ops of `--steps` steps under torch.profiler
(self CPU time per step, ops called from compiled code included), and what is left of the step: the generated
kernels, the Python wrapper and the profiler's own cost. Run it on a quiet machine; the load average is printed.
With --freezing (inference), both compilers freeze: kiln's options={"freezing": True}, Inductor's freezing config.
"""
import argparse
import copy
import os
import statistics
import time

import torch
from torch.profiler import ProfilerActivity, profile

import kiln
from kiln.tools.bench import _make_step, _own_recompile_budget
from kiln.tools.workloads import workload


LIBRARIES = ("aten::", "mkldnn::", "mkl::")   # (a frozen graph calls oneDNN's and MKL's ops directly)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("workload")
    p.add_argument("--train", action="store_true")
    p.add_argument("--freezing", action="store_true")
    p.add_argument("--size", default="quick")
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--top", type=int, default=12)
    a = p.parse_args()
    w = workload(a.workload)
    module = w.make_module("cpu", torch.float32, a.size, a.train)
    inputs = w.make_inputs("cpu", torch.float32, a.size)
    steps = {"eager": _make_step(copy.deepcopy(module), inputs, a.train)}
    for turn, name in enumerate(("inductor", "kiln")):
        _own_recompile_budget(turn)   # (each compile of the model gets its own recompiles)
        if name == "inductor":
            import torch._inductor.config as inductor_config
            inductor_config.freezing = a.freezing   # (read at the first call, which compiles)
            compiled = torch.compile(copy.deepcopy(module), backend="inductor")
        else:
            compiled = kiln.compile(copy.deepcopy(module), options={"freezing": a.freezing})
        steps[name] = _make_step(compiled, inputs, a.train)
        for _ in range(3):
            steps[name]()
        if name == "inductor":
            inductor_config.freezing = False   # (on while Dynamo traces, it lifts no parameters: kiln would freeze none)
    print(f"load average {os.getloadavg()[0]:.2f}, {torch.get_num_threads()} threads, "
          f"{a.workload} {'train' if a.train else 'inference'}{' frozen' if a.freezing else ''} ({a.size})")
    times = {name: [] for name in steps}
    for _ in range(a.rounds):
        for name, step in steps.items():
            t0 = time.perf_counter()
            for _ in range(10):
                step()
            times[name].append((time.perf_counter() - t0) / 10)
    for name, step in steps.items():
        ms = statistics.median(times[name]) * 1e3
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(a.steps):
                step()
        events = [e for e in prof.key_averages() if e.key.startswith(LIBRARIES)]
        total = sum(e.self_cpu_time_total for e in events) / a.steps / 1e3
        print(f"===== {name}: {ms:.3f} ms a step; library ops {total:.3f} ms (self), the rest {ms - total:.3f} ms")
        for e in sorted(events, key=lambda e: -e.self_cpu_time_total)[:a.top]:
            print(f"  {e.self_cpu_time_total / a.steps:9.1f} us  x{e.count // a.steps:<4} {e.key}")


if __name__ == "__main__":
    main()
