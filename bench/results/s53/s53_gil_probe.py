"""Session 53, for the next session's device time (issue 23): is kiln's cold first call, beyond aot_eager's, the
main thread waiting for the GIL while the kernels built behind load on kiln's threads? One process per (backend,
variant), fresh caches, bf16 inference at the suite's GPU size, after a tiny compile (imports and pools paid):
the first call's wall seconds beside the main thread's CPU seconds (time.thread_time: a thread waiting for the GIL
spends wall time, no CPU time), Dynamo's call_user_compiler seconds, and kiln.stats()'s stages.
    PYTHONPATH=. python3 bench/results/s53/s53_gil_probe.py MODEL OUT.json
Variants: aot_eager; inductor; kiln; kiln with KILN_COMPILE_THREADS=1 (one thread loads what the workers built).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

VARIANTS = (("aot_eager", {}), ("inductor", {}), ("kiln", {}), ("kiln", {"KILN_COMPILE_THREADS": "1"}))

if len(sys.argv) == 3:   # the driver
    rows = []
    for backend, env in VARIANTS:
        dirs = {v: tempfile.mkdtemp(prefix=v.lower()) for v in ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR",
                                                                 "TRITON_CACHE_DIR")}
        out = subprocess.run([sys.executable, __file__, sys.argv[1], backend, json.dumps(env)],
                             env=dict(os.environ, **dirs, **env), capture_output=True, text=True, timeout=400)
        row = next((json.loads(line[4:]) for line in out.stdout.splitlines() if line.startswith("ROW ")),
                   {"backend": backend, "env": env, "error": out.stderr.strip().splitlines()[-1:]})
        rows.append(row)
        print(json.dumps(row), flush=True)
    with open(sys.argv[2], "w") as f:
        json.dump(rows, f, indent=1)
    sys.exit()

import torch  # noqa: E402
from torch._dynamo.utils import compilation_time_metrics  # noqa: E402

import kiln  # noqa: E402
from kiln.tools.bench import _compile, _make_step  # noqa: E402
from kiln.tools.workloads import workload  # noqa: E402

model, backend, env = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).cuda()
_compile(tiny, backend)(torch.ones(2, 3, device="cuda"))
torch._dynamo.reset()
compilation_time_metrics.clear()
w = workload(model)
module, inputs = w.make_module("cuda", torch.bfloat16, "gpu", False), w.make_inputs("cuda", torch.bfloat16, "gpu")
_make_step(module, inputs, False)()
torch.cuda.synchronize()
kiln.reset_stats()
step = _make_step(_compile(module, backend), inputs, False)
wall, cpu = time.perf_counter(), time.thread_time()
step()
torch.cuda.synchronize()
wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
started = time.perf_counter()
step()
torch.cuda.synchronize()
steady = time.perf_counter() - started
row = {"model": model, "backend": backend, "env": env, "first_call_s": wall, "main_thread_cpu_s": cpu,
       "steady_s": steady, "backend_s": sum(compilation_time_metrics.get("OutputGraph.call_user_compiler", []))}
if backend == "kiln":
    row.update({k: v for k, v in kiln.stats().items() if k.startswith("seconds_")})
print("ROW " + json.dumps(row))
