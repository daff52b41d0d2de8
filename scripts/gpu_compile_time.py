"""Compile time on the real-model suite, cold and warm, for aot_eager (the floor every backend pays: Dynamo and
AOTAutograd), Inductor and kiln (issue 23). One process per (model, backend, phase), run one after another:

    PYTHONPATH=. python3 scripts/gpu_compile_time.py --out DIR [--models gpt2,bert] [--train] [--device cuda]

cold: fresh KILN_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR and TRITON_CACHE_DIR; warm: a new process on the dirs its
cold run filled. Each process first compiles a tiny module with its backend (imports, worker pools, the GPU
driver: what a process pays once), then times the model's first call less a steady call. kiln's rows add its
per-stage seconds (kiln.stats(); a graph just generated builds its kernels in the background, so its first call's
wait for them is `waiting_for_builds`, not `build`) and, on the GPU, how many kernels Triton built or loaded after
their graph's compile returned (in the background, or at a first launch) and how many in this process. Writes DIR/compile_time.json and DIR/compile_time.md.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def child(a):
    import torch

    from kiln.tools.bench import _compile, _compile_time, _make_step
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
            late["late"] += not late["in_compile"]
        triton.knobs.runtime.jit_post_compile_hook = post_compile
        from triton.compiler.compiler import ASTSource
        make_ir = ASTSource.make_ir

        def counted_make_ir(*args, **kwargs):   # a kernel compiled in this process (not found in Triton's cache)
            late["built_here"] = late.get("built_here", 0) + 1
            return make_ir(*args, **kwargs)
        ASTSource.make_ir = counted_make_ir
    tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).to(a.device)
    _compile(tiny, a.backend)(torch.ones(2, 3, device=a.device))
    torch._dynamo.reset()
    train = a.train
    dtype = torch.float32 if train or a.device == "cpu" else torch.bfloat16
    size = "gpu" if a.device == "cuda" else "quick"
    w = workload(a.model)
    module, inputs = w.make_module(a.device, dtype, size, train), w.make_inputs(a.device, dtype, size)
    import kiln
    eager = _make_step(module, inputs, train)()
    kiln.reset_stats()
    step = _make_step(_compile(module, a.backend), inputs, train)
    result, seconds = _compile_time(step, a.device)
    # a sanity check of the first result (the suite's scripts apply the accuracy rule): the largest difference
    # from eager's, relative to eager's largest value, over every output and gradient
    pairs = [(r, e) for r, e in zip(torch.utils._pytree.tree_leaves(result), torch.utils._pytree.tree_leaves(eager))
             if isinstance(e, torch.Tensor) and e.is_floating_point()]
    row = {"compile_s": seconds, "relative_difference": max(
        float((r.float() - e.float()).abs().max() / e.float().abs().max().clamp_min(1e-30)) for r, e in pairs)}
    if a.backend == "kiln":
        stats = kiln.stats()
        row.update({k: v for k, v in stats.items() if k.startswith("seconds_")},
                   kernels=stats.get("kernels_generated"), graphs_fallback=stats.get("graphs_fallback"),
                   dynamo_graphs_from_cache=stats.get("dynamo_graphs_from_cache", 0),
                   kernel_binaries_loaded=stats.get("kernel_binaries_loaded", 0),
                   backwards_compiled_ahead=stats.get("backwards_compiled_ahead", 0))
        if a.device == "cuda":
            row["late_builds"], row["built_in_main_process"] = late["late"], late.get("built_here", 0)
    print("ROW " + json.dumps(row))


def run(model, backend, phase, dirs, a):
    env = dict(os.environ, **dirs)
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
        for backend in a.backends.split(","):
            dirs = {v: tempfile.mkdtemp(prefix=v.lower()) for v in
                    ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")}
            for phase in ("cold", "warm"):
                row[f"{backend}_{phase}"] = r = run(model, backend, phase, dirs, a)
                print(model, backend, phase, json.dumps(r), flush=True)
        results.append(row)
        with open(os.path.join(a.out, "compile_time.json"), "w") as f:
            json.dump({"device": a.device, "train": a.train, "rows": results}, f, indent=1)
    write_table(results, a)


def overhead(row, backend, phase):
    r, floor = row.get(f"{backend}_{phase}", {}), row.get(f"aot_eager_{phase}", {})
    return r["compile_s"] - floor["compile_s"] if "compile_s" in r and "compile_s" in floor else None


def write_table(results, a):
    import math
    lines = ["| model | mode | phase | aot_eager s | Inductor s | kiln s | kiln over aot_eager / Inductor's |"
             " kiln stages (s) | late builds |", "|---|---|---|---|---|---|---|---|---|"]
    ratios = {"cold": [], "warm": []}
    for row in results:
        for phase in ("cold", "warm"):
            k, i = overhead(row, "kiln", phase), overhead(row, "inductor", phase)
            ratio = k / i if k is not None and i is not None and i > 0 else None
            if ratio is not None and ratio > 0:
                ratios[phase].append(ratio)
            kr = row.get(f"kiln_{phase}", {})
            stages = ", ".join(f"{s[8:]} {v:.1f}" for s, v in kr.items() if s.startswith("seconds_"))
            cell = lambda b: f"{row[f'{b}_{phase}']['compile_s']:.1f}" if "compile_s" in row.get(  # noqa: E731
                f"{b}_{phase}", {}) else row.get(f"{b}_{phase}", {}).get("error", "-")
            lines.append(f"| {row['model']} | {row['mode']} | {phase} | {cell('aot_eager')} | {cell('inductor')} | "
                         f"{cell('kiln')} | {'-' if ratio is None else f'{ratio:.2f}'} | {stages} | "
                         f"{kr.get('late_builds', '-')} |")
    for phase, rs in ratios.items():
        if rs:
            lines.append(f"\n{phase}: geomean of kiln's overhead / Inductor's over positive rows "
                         f"{math.exp(sum(map(math.log, rs)) / len(rs)):.2f}, worst {max(rs):.2f}")
    with open(os.path.join(a.out, "compile_time.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
