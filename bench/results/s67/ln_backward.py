"""A layer norm's backward as an AMP training step has it (the incoming gradient a bf16 product's output cast to
float32, the residual's gradient added): kiln's variants against Inductor in one process.
    PYTHONPATH=exp:. python3 bench/results/s67/ln_backward.py [--shapes 32x197x192,...] [--variants ...]
A variant: "inductor", or kiln's "+"-joined settings: "default", "auto" (max-autotune-no-cudagraphs), "sN" (column
sums split into pieces of at least N rows: KILN_EXP_SHORTEST in exp/'s reductions.py), "tXxRxW" (an interleaved
reduction's tile and warps: KILN_EXP_TILE in exp/'s codegen/triton.py), "nodep" (no dependent launches), "spreadN" (column sums
narrowed below N programs: codegen/triton_tiles.py's SPREAD_PROGRAMS), "late" (dependent launches whose kernels wait for the
one before but let the next start only as each program exits, not at its start: GRID_DEPENDENCY's second line
dropped). Times a call as the GPU runs it (20 calls
recorded in one CUDA graph, replayed; kiln's kernels launched as programmatic dependents, as by default), then
each kernel's time with kiln's dependent launches off (a dependent kernel's time otherwise includes its wait)."""
import argparse, collections, json, os, tempfile
os.environ["KILN_GRAPH_CACHE"] = "0"   # (the variants compile the same graph: none may load another's)
for var in ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):
    os.environ[var] = tempfile.mkdtemp(prefix=var.lower())
import torch
from torch.profiler import ProfilerActivity, profile
import kiln
from kiln.codegen import triton as triton_codegen, triton_tiles
from kiln.runtime import triton_launch

GRID_DEPENDENCY = triton_launch.GRID_DEPENDENCY

SPREAD_PROGRAMS = triton_tiles.SPREAD_PROGRAMS


def function(B, T, C):
    def f(g, x, mean, rstd, w, b, resid):
        gg = g.view(B, T, C).to(x.dtype)   # (float32, or float64 for the reference)
        dx, dw, db = torch.ops.aten.native_layer_norm_backward(gg, x, [C], mean, rstd, w, b, [True, True, True])
        return dx + resid, dw, db
    return f


def inputs(B, T, C):
    x = torch.randn(B, T, C, device="cuda")
    mean, var = x.mean(-1, keepdim=True), x.var(-1, keepdim=True, correction=0)
    return [torch.randn(B * T, C, device="cuda", dtype=torch.bfloat16), x, mean, (var + 1e-6).rsqrt(),
            torch.randn(C, device="cuda"), torch.randn(C, device="cuda"), torch.randn(B, T, C, device="cuda")]


def graph_time(fn, args, inner=20, replays=30):
    """us per call: `inner` calls recorded in one CUDA graph, replayed back to back."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn(*args)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(inner):
            fn(*args)
    times = []
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(replays):
            graph.replay()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1000 / (inner * replays))
    return sorted(times)[len(times) // 2]


def kernel_times(fn, args, calls=50):
    for _ in range(5):
        fn(*args)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn(*args)
        torch.cuda.synchronize()
    by = collections.defaultdict(float)
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            by[e.name[:70]] += (e.time_range.end - e.time_range.start) / calls
    return sorted(by.items(), key=lambda kv: -kv[1])


def compiled(shape, variant, dependent=True):
    torch._dynamo.reset()
    for var in ("KILN_EXP_SHORTEST", "KILN_EXP_TILE"):
        os.environ.pop(var, None)
    triton_tiles.SPREAD_PROGRAMS = SPREAD_PROGRAMS   # (read at code generation; session 69)
    triton_codegen.GRID_DEPENDENCY = triton_launch.GRID_DEPENDENCY = GRID_DEPENDENCY   # (session 70)
    B, T, C = shape
    if variant == "inductor":
        return torch.compile(function(B, T, C), backend="inductor")
    mode = None
    for part in variant.split("+"):
        if part == "auto":
            mode = "max-autotune-no-cudagraphs"
        elif part == "nodep":
            dependent = False
        elif part == "late":
            triton_codegen.GRID_DEPENDENCY = triton_launch.GRID_DEPENDENCY = GRID_DEPENDENCY[:1]
        elif part.startswith("spread"):
            triton_tiles.SPREAD_PROGRAMS = int(part[len("spread"):])
        elif part.startswith("s"):
            os.environ["KILN_EXP_SHORTEST"] = part[1:]
        elif part.startswith("t"):
            os.environ["KILN_EXP_TILE"] = part[1:]
    return kiln.compile(function(B, T, C), mode=mode, options={"dependent_launch": dependent})


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", default="32x197x192,32x197x768")
    p.add_argument("--variants", default="inductor,default,s64+t64x8x4,s64+t64x16x4,s64+t128x8x4,"
                                         "s128+t64x16x4,auto")
    a = p.parse_args()
    rows = []
    for text in a.shapes.split(","):
        shape = tuple(map(int, text.split("x")))
        args = inputs(*shape)
        ref = [t.double() for t in function(*shape)(*[t.double() for t in args])]
        for variant in a.variants.split(","):
            fn = compiled(shape, variant)
            out = fn(*args)
            err = max(((o.double() - r).abs().max() / r.abs().max()).item() for o, r in zip(out, ref))
            us = graph_time(fn, args)
            if variant not in ("inductor", "auto"):   # (auto: a second tuning would double the call)
                fn = compiled(shape, variant, dependent=False)
                fn(*args)
            kernels = kernel_times(fn, args)
            rows.append({"shape": text, "variant": variant, "us_per_call": round(us, 2), "rel_err": err,
                         "kernels": [[n, round(t, 2)] for n, t in kernels]})
            print(f"{text:>11} {variant:>14}: {us:6.2f} us a call (err {err:.0e}); kernels alone: " +
                  "; ".join(f"{n[:28]} {t:.2f}" for n, t in kernels), flush=True)
            if variant == "inductor":   # the launch configurations Inductor timed fastest at the first call
                import glob
                for found in sorted(glob.glob(os.path.join(os.environ["TORCHINDUCTOR_CACHE_DIR"], "**",
                                                           "*.best_config"), recursive=True)):
                    print("   ", os.path.basename(found), open(found).read()[:300], flush=True)
    if os.environ.get("OUT"):
        json.dump(rows, open(os.path.join(os.environ["OUT"], "ln_backward.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
