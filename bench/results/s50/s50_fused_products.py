"""Session 50: a product computed inside the pointwise kernel that reads it (max-autotune), on the GPU.

    PYTHONPATH=. python3 bench/results/s50/s50_fused_products.py OUT.json

1. Correctness: each case compiled with every fused tile configuration forced in turn (a timer that prefers it),
   against an fp64 reference, beside the library path's error.
2. What the tuner measures (real timer): for the suite's MLP shapes, the product and its consumer apart against
   each fused configuration (the tuner's debug lines are captured).
"""
import json
import logging
import sys
import time

import torch
import torch.nn.functional as F

import kiln
from kiln.runtime import autotune, matmul
from kiln.launches import FusedProduct

out_path = sys.argv[1]
dev = "cuda"
result = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "date": time.ctime(), "checks": [],
          "tuner": []}


def gelu_tanh(h):
    return F.gelu(h, approximate="tanh")


def cases():
    for dt, m, k, n in ((torch.bfloat16, 1000, 333, 777), (torch.bfloat16, 4096, 768, 3072),
                        (torch.float16, 17, 64, 4096)):
        if True:   # (the odd shape in every case, the others in one each)
            x = torch.randn(m, k, device=dev, dtype=dt)
            w = torch.randn(n, k, device=dev, dtype=dt) / k ** 0.5
            b = torch.randn(n, device=dev, dtype=dt)
            if m != 17:
                yield f"gelu(linear) {dt} {m}x{k}x{n}", lambda x, w, b: F.gelu(F.linear(x, w, b)), (x, w, b)
            if m != 4096:
                yield f"gelu kept {dt} {m}x{k}x{n}", lambda x, w, b: (gelu_tanh(F.linear(x, w, b)), F.linear(x, w, b)), \
                (x, w, b)
            r = torch.randn(m, n, device=dev, dtype=dt)
            if m == 1000:
                yield f"mm + residual {dt} {m}x{k}x{n}", lambda x, w, r: x @ w.t() + r, (x, w, r)


def forcing(config):
    def clock(run, choice):
        if isinstance(choice, FusedProduct):
            return 0.1 if choice.config == config else 0.5
        return 1.0
    return clock


def err(got, ref):
    return ((got.double() - ref).norm() / ref.norm()).item()


configs = list(matmul.CONFIGS)
for name, fn, args in cases():
    ref = fn(*(a.double() for a in args))
    ref = ref if isinstance(ref, tuple) else (ref,)
    lib = fn(*args)
    lib = lib if isinstance(lib, tuple) else (lib,)
    row = {"case": name, "library_err": [err(g, r) for g, r in zip(lib, ref)], "fused": {}}
    for config in configs:
        torch._dynamo.reset()
        autotune.TIMER = forcing(config)
        kiln.reset_stats()
        try:
            got = kiln.compile(fn, mode="max-autotune-no-cudagraphs", options={"graph_cache": False,
                                                                               "strict": True})(*args)
            got = got if isinstance(got, tuple) else (got,)
            row["fused"][str(config)] = [err(g, r) for g, r in zip(got, ref)]
        except Exception as e:
            row["fused"][str(config)] = f"{type(e).__name__}: {str(e)[:300]}"
    worst = max((max(v) for v in row["fused"].values() if isinstance(v, list)), default=None)
    row["worst_fused_err"] = worst
    row["ok"] = all(isinstance(v, list) for v in row["fused"].values()) and worst <= 2 * max(row["library_err"]) + 1e-3
    print(name, "ok" if row["ok"] else "FAIL", worst, max(row["library_err"]), flush=True)
    result["checks"].append(row)
autotune.TIMER = None


class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


capture = Capture()
torch._logging.set_logs(modules={"kiln_autotune": logging.DEBUG})
logging.getLogger("kiln.autotune").addHandler(capture)
for name, act in (("gpt2 mlp (gelu tanh)", gelu_tanh), ("bert mlp (gelu)", F.gelu), ("relu", torch.relu)):
    for tokens in (512, 1024, 4096):
        x = torch.randn(tokens, 768, device=dev, dtype=torch.bfloat16)
        w = torch.randn(3072, 768, device=dev, dtype=torch.bfloat16) / 28
        b = torch.randn(3072, device=dev, dtype=torch.bfloat16)
        torch._dynamo.reset()
        capture.lines.clear()
        with torch.no_grad():
            kiln.compile(lambda x, w, b: act(F.linear(x, w, b)), mode="max-autotune-no-cudagraphs",
                         options={"graph_cache": False})(x, w, b)
        result["tuner"].append({"case": f"{name} {tokens}x768x3072 bf16", "log": [line for line in capture.lines
                                                                                if "apart" in line or "fused" in line]})
        print(result["tuner"][-1], flush=True)
json.dump(result, open(out_path, "w"), indent=1)
