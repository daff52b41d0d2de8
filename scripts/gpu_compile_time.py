"""Compile time on the real-model suite, cold and warm, for aot_eager (the floor every backend pays: Dynamo and
AOTAutograd), Inductor and kiln (issue 23). One process per (model, backend, phase), run one after another:

    PYTHONPATH=. python3 scripts/gpu_compile_time.py --out DIR [--models gpt2,bert] [--train] [--device cuda]

cold: fresh KILN_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR and TRITON_CACHE_DIR; warm: a new process on the dirs its
cold run filled. Each process first compiles a tiny module with its backend (imports, worker pools, the GPU
driver: what a process pays once), then times the model's first call less a steady call. kiln's rows add its
per-stage seconds (kiln.stats(); a graph just generated builds its kernels in the background, so its first call's
wait for them is `waiting_for_builds`, not `build`) and, on the GPU, how many kernels Triton built or loaded after
their graph's compile returned (in the background, or at a first launch) and how many in this process. Every row
adds `backend_s`, the seconds Dynamo spent in the backend's call (OutputGraph.call_user_compiler: AOTAutograd and
the compiler, without a training step's backward, which compiles at its first call): the part of a warm start that
is the backend's own, where the rest (Dynamo's trace, the garbage collector's passes over the process's heap) moves
by tenths of a second between processes. --repeats N runs N rounds, each cold on fresh dirs then warm, the backends
alternating within a round; the table gives each cell's median and range; --phases cold leaves the warm runs
out. --profile adds, after the rounds, one more warm process per backend (other than aot_eager) under cProfile, not
counted in the table: where its first call's seconds go, in DIR/profile_MODEL_BACKEND.txt (cumulative and own time).
Writes DIR/compile_time.json and DIR/compile_time.md.
"""
import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time


def child(a):
    import torch

    from kiln.tools.bench import _compile, _compile_time, _make_step, _own_recompile_budget
    from kiln.tools.workloads import workload
    late = {"in_compile": False, "late": 0}
    if a.backend == "kiln" and a.device == "cuda":
        import triton

        import kiln.capture
        compile_graph = kiln.capture.compile_graph

        def counted(*args, **kwargs):
            late["in_compile"] = True
            try:
                return compile_graph(*args, **kwargs)
            finally:
                late["in_compile"] = False
        kiln.capture.compile_graph = counted

        def post_compile(*args, **kwargs):   # Triton built or loaded a kernel
            if not late["in_compile"]:
                late["late"] += 1
                fn = kwargs.get("fn")
                late.setdefault("late_names", []).append(getattr(fn, "name", "?"))
        triton.knobs.runtime.jit_post_compile_hook = post_compile
        from triton.compiler.compiler import ASTSource
        make_ir = ASTSource.make_ir

        def counted_make_ir(self, *args, **kwargs):   # a kernel compiled in this process (not in Triton's cache)
            late["built_here"] = late.get("built_here", 0) + 1
            late.setdefault("built_here_names", []).append(getattr(self, "name", "?"))
            return make_ir(self, *args, **kwargs)
        ASTSource.make_ir = counted_make_ir
    tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).to(a.device)
    _compile(tiny, a.backend)(torch.ones(2, 3, device=a.device))
    torch._dynamo.reset()
    from torch._dynamo.utils import compilation_time_metrics
    compilation_time_metrics.clear()
    train = a.train
    dtype = torch.float32 if train or a.device == "cpu" else torch.bfloat16
    size = "gpu" if a.device == "cuda" else "quick"
    w = workload(a.model)
    module, inputs = w.make_module(a.device, dtype, size, train), w.make_inputs(a.device, dtype, size)
    import kiln
    eager = _make_step(module, inputs, train)()
    kiln.reset_stats()
    _own_recompile_budget(0)   # (frames past Dynamo's default limit run eagerly: bench._own_recompile_budget)
    step = _make_step(_compile(module, a.backend), inputs, train)
    profiler = cProfile.Profile() if os.environ.get("CT_PROFILE_OUT") else None
    if profiler:
        profiler.enable()
    result, seconds = _compile_time(step, a.device)
    if profiler:
        profiler.disable()
        with open(os.environ["CT_PROFILE_OUT"], "w") as f:
            print(f"{a.model} {a.backend} first call {seconds:.2f} s under cProfile", file=f)
            for order in ("cumulative", "tottime"):
                pstats.Stats(profiler, stream=f).sort_stats(order).print_stats(45)
    # a sanity check of the first result (the suite's scripts apply the accuracy rule): the largest difference
    # from eager's, relative to eager's largest value, over every output and gradient
    pairs = [(r, e) for r, e in zip(torch.utils._pytree.tree_leaves(result), torch.utils._pytree.tree_leaves(eager))
             if isinstance(e, torch.Tensor) and e.is_floating_point()]
    row = {"compile_s": seconds, "backend_s": sum(compilation_time_metrics.get("OutputGraph.call_user_compiler", [])),
           "relative_difference": max(
        float((r.float() - e.float()).abs().max() / e.float().abs().max().clamp_min(1e-30)) for r, e in pairs)}
    if a.backend == "kiln":
        stats = kiln.stats()
        row.update({k: v for k, v in stats.items() if k.startswith("seconds_")},
                   kernels=stats.get("kernels_generated"), graphs_fallback=stats.get("graphs_fallback"),
                   dynamo_graphs_from_cache=stats.get("dynamo_graphs_from_cache", 0),
                   kernel_binaries_loaded=stats.get("kernel_binaries_loaded", 0),
                   backwards_compiled_ahead=stats.get("backwards_compiled_ahead", 0),
                   convolutions_planned_ahead=stats.get("convolutions_planned_ahead", 0))
        if a.device == "cuda":
            row["late_builds"], row["built_in_main_process"] = late["late"], late.get("built_here", 0)
            row["late_names"], row["built_here_names"] = late.get("late_names", []), late.get("built_here_names", [])
    print("ROW " + json.dumps(row))


def run(model, backend, phase, dirs, a, profile_out=None):
    env = dict(os.environ, **dirs, **({"CT_PROFILE_OUT": profile_out} if profile_out else {}))
    cmd = [sys.executable, __file__, "--child", "--model", model, "--backend", backend, "--device", a.device] + \
        (["--train"] if a.train else [])
    started = time.time()
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        return {"error": "timeout"}
    rows = [line[4:] for line in out.stdout.splitlines() if line.startswith("ROW ")]
    if not rows:
        return {"error": (out.stderr.strip().splitlines() or ["no output"])[-1][:300]}
    row = json.loads(rows[-1])
    row["process_s"] = time.time() - started
    return row


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out")
    p.add_argument("--models", default="gpt2,bert,vit,llama,resnet,bart")
    p.add_argument("--backends", default="aot_eager,inductor,kiln")
    p.add_argument("--train", action="store_true")
    p.add_argument("--device", default="cuda")
    p.add_argument("--timeout", type=int, default=400)
    p.add_argument("--budget-s", type=float, default=1e9)
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--phases", default="cold,warm", help="cold: fresh cache dirs; warm: a new process on them")
    p.add_argument("--profile", action="store_true", help="one more warm process per backend, under cProfile")
    p.add_argument("--child", action="store_true")
    p.add_argument("--model")
    p.add_argument("--backend")
    a = p.parse_args()
    if a.child:
        return child(a)
    os.makedirs(a.out, exist_ok=True)
    results, started = [], time.time()
    for model in a.models.split(","):
        if time.time() - started > a.budget_s:
            print(f"budget spent; {model} and later not run", flush=True)
            break
        row = {"model": model, "mode": "train fp32" if a.train else ("inference bf16" if a.device == "cuda" else
                                                                      "inference fp32")}
        backends = a.backends.split(",")
        for _ in range(a.repeats):   # a round: each backend cold on fresh dirs, then each warm on its own
            dirs = {b: {v: tempfile.mkdtemp(prefix=v.lower()) for v in
                        ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")} for b in backends}
            for phase in a.phases.split(","):
                for backend in backends:
                    r = run(model, backend, phase, dirs[backend], a)
                    row.setdefault(f"{backend}_{phase}", []).append(r)
                    print(model, backend, phase, json.dumps(r), flush=True)
        if a.profile and "warm" in a.phases:   # (on the last round's dirs)
            for backend in backends:
                if backend != "aot_eager":
                    r = run(model, backend, "warm", dirs[backend], a,
                            os.path.join(a.out, f"profile_{model}_{backend}.txt"))
                    print(model, backend, "warm, profiled", r.get("compile_s", r), flush=True)
        results.append(row)
        with open(os.path.join(a.out, "compile_time.json"), "w") as f:
            json.dump({"device": a.device, "train": a.train, "rows": results}, f, indent=1)
    write_table(results, a)


def median(row, backend, phase, key="compile_s"):
    values = [r[key] for r in row.get(f"{backend}_{phase}", []) if key in r]
    return statistics.median(values) if values else None


def overhead(row, backend, phase):
    """The backend's median seconds above aot_eager's median."""
    r, floor = median(row, backend, phase), median(row, "aot_eager", phase)
    return r - floor if r is not None and floor is not None else None


def cell(row, backend, phase):
    runs = row.get(f"{backend}_{phase}", [])
    values = [r["compile_s"] for r in runs if "compile_s" in r]
    if not values:
        return next((r["error"] for r in runs if "error" in r), "-")
    spread = f" ({min(values):.1f}-{max(values):.1f})" if len(values) > 1 else ""
    own = median(row, backend, phase, "backend_s")
    return f"{statistics.median(values):.1f}{spread}" + (f" [{own:.2f}]" if own is not None else "")


def write_table(results, a):
    import math
    lines = [f"Seconds, median{' (range) of ' + str(a.repeats) + ' rounds' if a.repeats > 1 else ''}; in brackets the "
             "backend's own part (Dynamo's call_user_compiler).", "",
             "| model | mode | phase | aot_eager s | Inductor s | kiln s | kiln over aot_eager / Inductor's |"
             " kiln stages (s) | late builds |", "|---|---|---|---|---|---|---|---|---|"]
    ratios = {"cold": [], "warm": []}
    for row in results:
        for phase in ("cold", "warm"):
            k, i = overhead(row, "kiln", phase), overhead(row, "inductor", phase)
            ratio = k / i if k is not None and i is not None and i > 0 else None
            if ratio is not None and ratio > 0:
                ratios[phase].append(ratio)
            runs = [r for r in row.get(f"kiln_{phase}", []) if "compile_s" in r]
            # (a stage kiln.stats() leaves out of one run, as waiting for builds where none was waited for, took 0 s)
            names = dict.fromkeys(s for r in runs for s in r if s.startswith("seconds_"))
            stages = ", ".join(f"{s[8:]} {statistics.median(r.get(s, 0.0) for r in runs):.1f}" for s in names)
            lines.append(f"| {row['model']} | {row['mode']} | {phase} | {cell(row, 'aot_eager', phase)} | "
                         f"{cell(row, 'inductor', phase)} | {cell(row, 'kiln', phase)} | "
                         f"{'-' if ratio is None else f'{ratio:.2f}'} | {stages} | "
                         f"{runs[0].get('late_builds', '-') if runs else '-'} |")
    for phase, rs in ratios.items():
        if rs:
            lines.append(f"\n{phase}: geomean of kiln's overhead / Inductor's over positive rows "
                         f"{math.exp(sum(map(math.log, rs)) / len(rs)):.2f}, worst {max(rs):.2f}")
    with open(os.path.join(a.out, "compile_time.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
