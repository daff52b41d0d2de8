"""Each Triton kernel of a model's cold graphs compiled alone on the GPU, one after another in this process (a fresh
Triton cache), timed: which kernel is a graph's build critical path (issue 23). Prints the slowest eight and writes
the three slowest kernels' sources, with their build time, warps and tile, to OUTDIR.

    PYTHONPATH=. python3 scripts/gpu_kernel_build_times.py MODEL OUTDIR [--train]
"""
import os
import sys
import tempfile
import time

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()
os.environ["KILN_CACHE_DIR"] = tempfile.mkdtemp()
import torch  # noqa: E402

import kiln.capture  # noqa: E402
import kiln.runtime.module as km  # noqa: E402
from kiln.runtime import triton_launch  # noqa: E402
from kiln.tools.bench import _compile, _make_step  # noqa: E402
from kiln.tools.workloads import workload  # noqa: E402

artifacts = []
load = km.load
kiln.capture.load = lambda artifact, *a, **k: artifacts.append(artifact) or load(artifact, *a, **k)
name, train = sys.argv[1], "--train" in sys.argv
w = workload(name)
dtype = torch.float32 if train else torch.bfloat16
module, inputs = w.make_module("cuda", dtype, "gpu", train), w.make_inputs("cuda", dtype, "gpu")
_make_step(_compile(module, "kiln"), inputs, train)()
torch.cuda.synchronize()
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()   # (a fresh cache: each kernel compiles again below)
import triton  # noqa: E402

triton.knobs.cache.dir = os.environ["TRITON_CACHE_DIR"]
rows, sources = [], {}
out = sys.argv[2]
os.makedirs(out, exist_ok=True)
for a in artifacts:
    if a.target != "triton":
        continue
    mod = triton_launch.load_module(a.kernel_source.replace("import triton\n", "import triton\n# again\n", 1), tempfile.mkdtemp())
    for f, (text, warps, warmups, stages) in a.kernels.items():
        for device, args in warmups[:1]:
            t = time.perf_counter()
            getattr(mod, f).warmup(*args, grid=(1,), num_warps=warps, **({"num_stages": stages} if stages else {}))
            rows.append((time.perf_counter() - t, a.name, f, text.count("\n")))
            tiles = "warps %d, launch args ending %s" % (warps, args[-4:])
            sources[f] = "# %s %.2f s %s\n%s" % (a.name, rows[-1][0], tiles, text)
rows.sort(reverse=True)
print(name, "kernels", len(rows), "sum %.2f s" % sum(r[0] for r in rows))
for r in rows[:8]:
    print("%.2f s  %s %s (%d lines)" % r)
for r in rows[:3]:
    open(os.path.join(out, r[2] + ".py"), "w").write(sources[r[2]])
