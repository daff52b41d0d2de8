"""Small reductions spread over more programs, with fewer warps on small tiles (session 57: codegen/triton.py's
spread_rows and small_warps), on the GPU, in one process, against the heuristic before ("kilnold": both functions
patched back to the old choice while the graph compiles; the rows-interleaved kernels' warps were 8 on any tile
before, 4 or fewer below 2048 elements here) and Inductor. Both kiln variants compile without the graph cache
(they share keys). Dependent launch is on in both.
1. issue 19's 50-tiny-op graph (64x64 fp32): default mode and reduce-overhead, per-call time in alternating rounds,
   each variant's largest error against fp64 relative to the largest value;
2. suite rows (gpu_models.run_model: accuracy by the suite's rule, peak memory, alternating-round times).
Ran in call 3 on the tree of s57_c3_tree.patch (the change was then reverted: bench/NOTES.md 80).
Usage: s57_spread_check.py OUT_DIR MODELS [--train] [--budget-s S]"""
import argparse
import contextlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts"))
import gpu_models  # noqa: E402  (sets fresh cache dirs)
import torch  # noqa: E402

import kiln  # noqa: E402
import kiln.codegen.triton as codegen  # noqa: E402
from gpu_modes import tiny_ops  # noqa: E402
from kiln.tools.bench import _interleaved_times  # noqa: E402

NO_CACHE = {"graph_cache": False}


@contextlib.contextmanager
def old_heuristic():
    spread, warps = codegen.spread_rows, codegen.small_warps
    codegen.spread_rows, codegen.small_warps = (lambda xblock, N, narrowest=1: xblock), (lambda elements: 4)
    try:
        yield
    finally:
        codegen.spread_rows, codegen.small_warps = spread, warps


class CompiledOld:
    """kiln's compile of a module whose first call (the compile) runs under the old heuristic."""
    def __init__(self, module, **kw):
        self.compiled, self.first = kiln.compile(module, options=NO_CACHE, **kw), True

    def __call__(self, *args, **kwargs):
        if self.first:
            self.first = False
            with old_heuristic():
                return self.compiled(*args, **kwargs)
        return self.compiled(*args, **kwargs)


def tiny(out):
    x = torch.randn(64, 64, device="cuda")
    ref = tiny_ops(x.double())
    variants = {"eager": lambda f: f,
                "kiln": lambda f: kiln.compile(f, dynamic=False, options=NO_CACHE),
                "kiln_old": lambda f: CompiledOld(f, dynamic=False),
                "kiln_ro": lambda f: kiln.compile(f, mode="reduce-overhead", dynamic=False, options=NO_CACHE),
                "kiln_ro_old": lambda f: CompiledOld(f, mode="reduce-overhead", dynamic=False),
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
    row["kiln_ro_old_over_kiln_old"] = row["kiln_ro_old_us"] / row["kiln_old_us"]
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
    path = os.path.join(a.out, f"spread_check{'_train' if a.train else ''}.json")
    result = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "date": time.strftime("%Y-%m-%d")}
    if not a.train:
        tiny(result)
    compile_ = gpu_models._compile
    gpu_models._compile = lambda m, backend: CompiledOld(m) if backend == "kilnold" else \
        kiln.compile(m, options=NO_CACHE) if backend == "kiln" else compile_(m, backend)
    args = argparse.Namespace(train=a.train, device="cuda", amp=False, size=None, backends="inductor,kiln,kilnold",
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
        if "kiln_ms" in row and "kilnold_ms" in row:
            row["spread_speedup"] = row["kilnold_ms"] / row["kiln_ms"]
        result["rows"].append(row)
        print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()
                          if not isinstance(v, (dict, list))}), flush=True)
        torch.cuda.empty_cache()
        with open(path, "w") as f:
            json.dump(result, f, indent=1)
    with open(path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
