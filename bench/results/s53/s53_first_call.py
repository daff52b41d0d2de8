"""Session 53: where kiln's first call goes beyond the backend's compile (issue 23: DeBERTa-v2's cold compile
above aot_eager's read 0.35 of Inductor's, its first call ~1.6 s longer than aot_eager's outside Dynamo's
call_user_compiler; warm, ViT's first call read 2.2 s against Inductor's 1.6 where kiln's backend took 0.03 s).
bf16 inference at the suite's GPU size, one process cold (fresh caches), then one warm on its caches: the first
call under cProfile (main thread), its seconds in kiln's compile_graph, in Launcher.compile (a launch whose
variant was not built ahead or stored: the JIT builds or loads it there), kiln.stats(), and the top functions by
cumulative time.
    PYTHONPATH=. python3 bench/results/s53/s53_first_call.py MODEL OUT_PREFIX   (writes OUT_PREFIX_{cold,warm}.txt)
"""
import cProfile
import io
import os
import pstats
import subprocess
import sys
import tempfile
import time

if len(sys.argv) == 3:   # the driver: a cold process, then a warm one on its caches
    env = dict(os.environ, **{v: tempfile.mkdtemp(prefix=v.lower()) for v in
                              ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")})
    for phase in ("cold", "warm"):
        subprocess.run([sys.executable, __file__, *sys.argv[1:], phase], env=env, timeout=300)
    sys.exit()
import torch  # noqa: E402

import kiln  # noqa: E402
import kiln.capture  # noqa: E402
from kiln.runtime import triton_launch  # noqa: E402
from kiln.tools.bench import _compile, _make_step  # noqa: E402
from kiln.tools.workloads import workload  # noqa: E402

model, out = sys.argv[1], f"{sys.argv[2]}_{sys.argv[3]}.txt"
spent = {"compile_graph": [0, 0.0], "Launcher.compile": [0, 0.0]}


def timed(owner, name, key):
    real = getattr(owner, name)

    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent[key][0] += 1
            spent[key][1] += time.perf_counter() - started
    setattr(owner, name, wrapper)


timed(kiln.capture, "compile_graph", "compile_graph")
timed(triton_launch.Launcher, "compile", "Launcher.compile")
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).cuda()
_compile(tiny, "kiln")(torch.ones(2, 3, device="cuda"))
torch._dynamo.reset()
spent = {k: [0, 0.0] for k in spent}
w = workload(model)
module, inputs = w.make_module("cuda", torch.bfloat16, "gpu", False), w.make_inputs("cuda", torch.bfloat16, "gpu")
_make_step(module, inputs, False)()
torch.cuda.synchronize()
kiln.reset_stats()
step = _make_step(_compile(module, "kiln"), inputs, False)
profile = cProfile.Profile()
started = time.perf_counter()
profile.enable()
step()
torch.cuda.synchronize()
profile.disable()
first = time.perf_counter() - started
started = time.perf_counter()
step()
torch.cuda.synchronize()
steady = time.perf_counter() - started
text = io.StringIO()
pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(60)
with open(out, "w") as f:
    f.write(f"{model} {sys.argv[3]}: first call {first:.2f} s (under cProfile), steady {steady * 1e3:.1f} ms\n")
    f.write(f"spent (count, s): {spent}\nkiln.stats(): {kiln.stats()}\n\n{text.getvalue()}")
print(open(out).read()[:3000])
