"""Every max-autotune choice computes what eager does: a model compiled for Triton (run by the interpreter on the CPU)
with mode="max-autotune-no-cudagraphs", its timer replaced by random times (each kernel launched in a random
candidate configuration, each product in a random implementation), against eager."""
import os, random, sys, time
import torch, kiln
from kiln.runtime import autotune
from kiln.tools.workloads import workload
from kiln.tools import accuracy
name, dtype, seeds = sys.argv[1], getattr(torch, sys.argv[2]), int(sys.argv[3])
w = workload(name)
m = w.make_module("cpu", dtype, "quick", False).eval()
x = w.make_inputs("cpu", dtype, "quick")
torch.manual_seed(0)
with torch.no_grad():
    for p in m.parameters():   # (zero-initialized heads would hide every difference)
        if not p.abs().sum():
            p.normal_(0, 0.1)
call = (lambda f: f(**x)) if isinstance(x, dict) else (lambda f: f(*x))
with torch.no_grad():
    ref = call(m)
for seed in range(seeds):
    rng = random.Random(seed)
    chosen = []
    def timer(run, config):
        t = rng.random(); chosen.append((config, t)); return t
    autotune.TIMER = timer
    torch._dynamo.reset()
    os.environ["KILN_CACHE_DIR"] = f"/tmp/tune_cache_{name}_{seed}"
    c = kiln.compile(m, mode="max-autotune-no-cudagraphs", options={"target": "triton", "graph_cache": False, "strict": True})
    t = time.perf_counter()
    with torch.no_grad():
        out = call(c)
    o, r = (out.logits if hasattr(out, "logits") else out), (ref.logits if hasattr(ref, "logits") else ref)
    o, r = (o[0] if isinstance(o, (tuple, list)) else o), (r[0] if isinstance(r, (tuple, list)) else r)
    err = (o.float() - r.float()).abs().max().item()
    print(f"{name} seed {seed}: {len(chosen)} timings, max |kiln - eager| {err:.3g} (scale {r.float().abs().max().item():.3g}), {time.perf_counter()-t:.1f}s", flush=True)
