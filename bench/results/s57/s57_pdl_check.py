"""Programmatic dependent launch in kiln (session 57), on the GPU, in one process:
1. issue 19's 50-tiny-op graph (scripts/gpu_modes.py's tiny_ops, 64x64 fp32): per-call time of eager, kiln's default
   mode and reduce-overhead with dependent launch on (kiln's default) and off, and Inductor's default and
   reduce-overhead, in alternating rounds; each variant's largest error against fp64, relative to the largest value;
2. suite models (gpu_models.run_model's rows: accuracy by the suite's rule, peak memory, alternating-round times)
   for kiln, kiln with dependent launch off ("kilnnopdl") and Inductor.
Usage: s57_pdl_check.py OUT_DIR MODELS [--train] [--budget-s S]"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts"))
import gpu_models  # noqa: E402  (sets fresh cache dirs)
import torch  # noqa: E402

import kiln  # noqa: E402
from gpu_modes import tiny_ops  # noqa: E402
from kiln.tools.bench import _interleaved_times  # noqa: E402


def tiny(out):
    x = torch.randn(64, 64, device="cuda")
    ref = tiny_ops(x.double())
    variants = {"eager": lambda f: f,
                "kiln": lambda f: kiln.compile(f, dynamic=False),
                "kiln_nopdl": lambda f: kiln.compile(f, dynamic=False, options={"dependent_launch": False}),
                "kiln_ro": lambda f: kiln.compile(f, mode="reduce-overhead", dynamic=False),
                "kiln_ro_nopdl": lambda f: kiln.compile(f, mode="reduce-overhead", dynamic=False,
                                                        options={"dependent_launch": False}),
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
    row["kiln_ro_over_kiln"] = row["kiln_ro_us"] / row["kiln_us"]
    row["kiln_ro_nopdl_over_kiln_nopdl"] = row["kiln_ro_nopdl_us"] / row["kiln_nopdl_us"]
    row["kiln_ro_vs_inductor_ro"] = row["inductor_ro_us"] / row["kiln_ro_us"]
    out["tiny"] = row
    print(json.dumps(row), flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("models")
    p.add_argument("--train", action="store_true")
    p.add_argument("--budget-s", type=float, default=300)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"pdl_check{'_train' if a.train else ''}.json")
    result = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "date": time.strftime("%Y-%m-%d")}
    if not a.train:
        tiny(result)
    compile_ = gpu_models._compile
    gpu_models._compile = lambda m, backend: kiln.compile(m, options={"dependent_launch": False}) \
        if backend == "kilnnopdl" else compile_(m, backend)
    args = argparse.Namespace(train=a.train, device="cuda", amp=False, size=None, backends="inductor,kiln,kilnnopdl",
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
        if "kiln_ms" in row and "kilnnopdl_ms" in row:
            row["pdl_speedup"] = row["kilnnopdl_ms"] / row["kiln_ms"]
        result["rows"].append(row)
        print(json.dumps({k: v for k, v in row.items() if not isinstance(v, (dict, list))}), flush=True)
        torch.cuda.empty_cache()
        with open(path, "w") as f:
            json.dump(result, f, indent=1)
    with open(path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
