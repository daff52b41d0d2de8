"""Lowering, scheduling and codegen time of a suite model's bf16 inference graph for a CUDA device, on fake tensors
(no GPU): PYTHONPATH=. python3 bench/results/s41/s41_codegen_time.py MODEL [cumulative|tottime]  (a cProfile listing)"""
import sys, time, cProfile, pstats
import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx
from kiln import capture
from kiln.config import Options
from kiln.decompositions import kiln_decompositions
from kiln.tools.trace import GraphTrace
from kiln.tools import workloads as W

w = W.workload(sys.argv[1])
m = w.make_module("cpu", torch.bfloat16, "gpu", train=False).eval()
xs = w.make_inputs("cpu", torch.bfloat16, "gpu")
names = [n for n, _ in m.named_parameters()] + [n for n, _ in m.named_buffers()]
mode = FakeTensorMode()
with mode, torch.no_grad():
    cuda = lambda t: torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="cuda")
    fake = [cuda(t) for t in [*m.parameters(), *m.buffers()]]
    fxs = [cuda(x) for x in xs]
    def f(*args):
        state = dict(zip(names, args[:len(names)]))
        out = torch.func.functional_call(m, state, tuple(args[len(names):]))
        return out if isinstance(out, tuple) else (out,)
    gm = make_fx(f, decomposition_table=kiln_decompositions(inference=True))(*fake, *fxs)
    opts = Options.make(options={"target": "triton", "trace": None})
    times = {}
    prof = cProfile.Profile() if len(sys.argv) > 2 else None
    t0 = time.perf_counter()
    if prof: prof.enable()
    artifact, _ = capture.generate(gm, [*fake, *fxs], opts, "g_inference", GraphTrace(None, "g"), None, None, False,
                                   times, {})
    if prof: prof.disable()
print(sys.argv[1], {k: round(v, 2) for k, v in times.items()}, "total %.2f" % (time.perf_counter() - t0),
      "kernels", artifact.kernel_source.count("@triton.jit"))
if prof:
    pstats.Stats(prof).sort_stats(sys.argv[2] if sys.argv[2] != "profile" else "cumulative").print_stats(45)
