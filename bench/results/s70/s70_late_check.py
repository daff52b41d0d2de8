"""Dependent launches triggered late (session 70), on the GPU, in one process. kiln's kernels launch as programmatic
dependents and each begins `gdc_wait(); gdc_launch_dependents()`: the next kernel's programs may start (and wait)
as soon as every program of this one has started. "late" drops the second call, so the next kernel starts as this
one's programs exit (still launched ahead, still waiting at its start). Its graphs are compiled with a cache dir of
their own (kernels and graphs apart from the default's), GRID_DEPENDENCY swapped while build_triton writes them.
1. issue 19's 50-tiny-op graph: kiln default and reduce-overhead, early and late, Inductor's, alternating rounds;
2. suite rows (gpu_models.run_model: accuracy, peak, alternating-round times) for inductor, kiln, kilnlate.
Usage: s70_late_check.py OUT_DIR MODELS [--train [--amp]] [--budget-s S] [--no-tiny]"""
import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts"))
import gpu_models  # noqa: E402  (sets fresh cache dirs)
import torch  # noqa: E402

import kiln  # noqa: E402
import kiln.capture  # noqa: E402
import kiln.codegen.triton as codegen_triton  # noqa: E402
import kiln.runtime.triton_launch as triton_launch  # noqa: E402
from gpu_modes import tiny_ops  # noqa: E402
from kiln.tools.bench import _interleaved_times  # noqa: E402

EARLY = codegen_triton.GRID_DEPENDENCY
LATE = EARLY[:1]
LATE_DIR = tempfile.mkdtemp(prefix="kiln_late_")
build_triton = kiln.capture.build_triton


def build_maybe_late(lowering, sched, opts, name, trace):
    if opts.cache_dir != LATE_DIR:
        return build_triton(lowering, sched, opts, name, trace)
    codegen_triton.GRID_DEPENDENCY = LATE
    try:
        return build_triton(lowering, sched, opts, name, trace)
    finally:
        codegen_triton.GRID_DEPENDENCY = EARLY


kiln.capture.build_triton = build_maybe_late
triton_launch.waits_for_prior = lambda text: LATE[0] in text   # (both forms start with it)


def late(f, **kw):
    return kiln.compile(f, options={"cache_dir": LATE_DIR}, **kw)


def tiny(out):
    x = torch.randn(64, 64, device="cuda")
    ref = tiny_ops(x.double())
    variants = {"kiln": lambda f: kiln.compile(f, dynamic=False),
                "kiln_late": lambda f: late(f, dynamic=False),
                "kiln_ro": lambda f: kiln.compile(f, mode="reduce-overhead", dynamic=False),
                "kiln_ro_late": lambda f: late(f, mode="reduce-overhead", dynamic=False),
                "inductor": lambda f: torch.compile(f, dynamic=False),
                "inductor_ro": lambda f: torch.compile(f, mode="reduce-overhead", dynamic=False)}
    steps, row = {}, {"workload": "50 tiny ops (64x64 fp32)", "errors": {}}
    for name, make in variants.items():
        torch._dynamo.reset()
        fn = make(lambda t: tiny_ops(t))
        for _ in range(3):
            y = fn(x)
        row["errors"][name] = ((y.double() - ref).abs().max() / ref.abs().max()).item()
        steps[name] = (lambda fn: lambda: fn(x))(fn)
    for name, t in _interleaved_times(steps, "cuda").items():
        row[f"{name}_us"] = t["median_ms"] * 1e3
    out["tiny"] = row
    print(json.dumps(row), flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("models")
    p.add_argument("--train", action="store_true")
    p.add_argument("--amp", action="store_true")
    p.add_argument("--no-tiny", action="store_true")
    p.add_argument("--budget-s", type=float, default=300)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"late_check{'_train' if a.train else ''}{'_amp' if a.amp else ''}.json")
    result = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "date": time.strftime("%Y-%m-%d")}
    if not a.no_tiny:
        tiny(result)
    compile_ = gpu_models._compile
    gpu_models._compile = lambda m, backend: late(m) if backend == "kilnlate" else compile_(m, backend)
    args = argparse.Namespace(train=a.train, device="cuda", amp=a.amp, size=None, backends="inductor,kiln,kilnlate",
                              launches=False, no_time=False)
    start, result["rows"] = time.time(), []
    for name in a.models.split(","):
        if time.time() - start > a.budget_s:
            break
        torch._dynamo.reset()
        try:
            row = gpu_models.run_model(name, args)
        except Exception as e:
            row = {"model": name, "error": f"{type(e).__name__}: {str(e)[:300]}"}
        if "kiln_ms" in row and "kilnlate_ms" in row:
            row["late_speedup"] = row["kiln_ms"] / row["kilnlate_ms"]
        result["rows"].append(row)
        print(json.dumps({k: v for k, v in row.items() if not isinstance(v, (dict, list))}), flush=True)
        torch.cuda.empty_cache()
        with open(path, "w") as f:
            json.dump(result, f, indent=1)
    with open(path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
