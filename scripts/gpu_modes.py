"""torch.compile's modes on the GPU, kiln against Inductor in one process: reduce-overhead (CUDA graphs).

    PYTHONPATH=. python3 scripts/gpu_modes.py --out DIR [--models gpt2,bert,...] [--batches 1,2] [--budget-s 480]

1. Checks of kiln's recorded graphs on the GPU: outputs held across calls keep their values, mutated inputs
   are updated, an input that moves is copied, a training step's gradients match eager's.
2. The 50-tiny-op graph: the per-call time of eager, kiln's default mode and reduce-overhead, and Inductor's.
3. The suite's transformers at batch 1 and 2 (bf16 inference, the models' full configs and sequence length):
   eager, kiln (default), kiln and Inductor in reduce-overhead, timed in alternating rounds; the accuracy of a
   replayed call (kiln.tools.accuracy), and peak memory over each variant's life (compile and recording
   included) and what it holds between calls, beside kiln's default mode. --fresh-memory kiln,kiln_ro reads
   those variants' memory again, each in a process of its own.
4. With --freezing M1,M2 (conv models, bf16 inference at the suite's GPU size): eager, kiln and Inductor each
   with and without freezing (kiln: options={"freezing": True}; Inductor: its freezing config), in one process.
Writes modes_reduce_overhead.json (and modes_freezing.json) under --out.
"""
import argparse
import copy
import dataclasses
import gc
import json
import logging
import os
import sys
import tempfile
import time

for var in ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):   # cold compiles
    os.environ[var] = tempfile.mkdtemp(prefix=var.lower())

import torch  # noqa: E402

import kiln  # noqa: E402
from kiln.tools import accuracy  # noqa: E402
from kiln.tools.bench import (_compile_time, _interleaved_times, _make_step, _own_recompile_budget,  # noqa: E402
                              _peak_memory, _references)
from kiln.tools.workloads import workload  # noqa: E402

TRANSFORMERS = "gpt2,bert,llama,t5,bart,distilbert,roberta"


class Collected(logging.Handler):
    """kiln's CUDA-graph log lines (why a graph is not recorded, or recorded again), for the row"""
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage()[:300])


COLLECTED = Collected()
logging.getLogger("kiln.cudagraphs").addHandler(COLLECTED)
logging.getLogger("kiln.cudagraphs").setLevel(logging.INFO)


def compiled(module, backend, mode):
    """(static shapes: Dynamo would otherwise make a later model's sizes dynamic, having seen the wrapper's
    frame with other sizes)"""
    if backend == "eager":
        return module
    if backend == "kiln":
        return kiln.compile(module, mode=mode, dynamic=False)
    return torch.compile(module, mode=mode, dynamic=False)


def checks():
    """kiln's reduce-overhead against eager on small functions, on the GPU's real recordings."""
    out = {}
    torch._dynamo.reset()
    kiln.reset_stats()
    w = torch.randn(64, 64, device="cuda")

    def f(x):
        y = torch.relu(x @ w) + 1
        return y, y.sum(0)
    g = kiln.compile(f, mode="reduce-overhead")
    xs = [torch.randn(32, 64, device="cuda") for _ in range(6)]
    held = [g(x) for x in xs]
    out["held_outputs_ok"] = all(torch.allclose(a, b, atol=1e-3, rtol=1e-3)
                                 for x, outs in zip(xs, held) for a, b in zip(outs, f(x)))

    def h(x, state):
        state.mul_(0.5).add_(x)
        return state * 2
    g2 = kiln.compile(h, mode="reduce-overhead")
    state, eager_state = torch.ones(128, device="cuda"), torch.ones(128, device="cuda")
    ok = True
    for step in range(5):
        x = torch.full((128,), float(step), device="cuda")
        ok &= torch.allclose(g2(x, state), h(x, eager_state)) and torch.allclose(state, eager_state)
        fresh, eager_fresh = torch.full((128,), 3.0, device="cuda"), torch.full((128,), 3.0, device="cuda")
        g2(x, fresh)
        h(x, eager_fresh)
        ok &= torch.allclose(fresh, eager_fresh)
    out["mutated_inputs_ok"] = bool(ok)

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.Linear(256, 1)).cuda()
    reference = copy.deepcopy(model)
    step = kiln.compile(model, mode="reduce-overhead")
    for _ in range(4):
        x = torch.randn(16, 64, device="cuda")
        step(x).sum().backward()
        reference(x).sum().backward()
    out["training_grads_ok"] = all(torch.allclose(p.grad, q.grad, atol=1e-4, rtol=1e-4)
                                   for p, q in zip(model.parameters(), reference.parameters()))
    # random draws: each replay draws a new dropout mask, and a training step's backward uses its forward's
    drop = kiln.compile(lambda t: torch.nn.functional.dropout(t, 0.5, training=True), mode="reduce-overhead")
    ones = torch.ones(1 << 16, device="cuda")
    masks = [drop(ones) != 0 for _ in range(5)]
    out["replays_draw_new_masks"] = all(0.45 < m.float().mean().item() < 0.55 for m in masks) and \
        not torch.equal(masks[3], masks[4])
    consistent = True
    for _ in range(4):
        x = torch.ones(1 << 16, device="cuda", requires_grad=True)
        y = drop(x)
        y.sum().backward()
        consistent &= torch.equal(y.detach(), x.grad)   # y = x * mask * 2 and dy/dx = mask * 2, at x = 1
    out["dropout_backward_matches_forward"] = bool(consistent)
    # a graph recorded after every earlier graph was freed (the pool outlives them)
    del g, g2, step, drop
    import gc
    gc.collect()
    torch._dynamo.reset()
    before = kiln.stats().get("cuda_graph_replays", 0)
    g3 = kiln.compile(lambda t: t.sin() * 3, mode="reduce-overhead")
    x = torch.randn(100, device="cuda")
    ok = all(torch.allclose(g3(x), x.sin() * 3) for _ in range(3))
    out["recorded_after_graphs_freed"] = bool(ok) and kiln.stats().get("cuda_graph_replays", 0) - before == 2
    out["stats"] = {k: v for k, v in kiln.stats().items() if "cuda_graph" in k or k == "graphs_fallback"}
    return out


def tiny_ops(x):
    """50 ops on a small tensor: reductions between pointwise ops, so that they take many kernels."""
    for i in range(25):
        x = x - x.mean(dim=i % 2, keepdim=True)
        x = x * 1.01
    return x


def tiny_row():
    x = torch.randn(64, 64, device="cuda")
    steps = {}
    for name, backend, mode in (("eager", "eager", None), ("kiln", "kiln", None),
                                ("kiln_ro", "kiln", "reduce-overhead"), ("inductor_ro", "inductor", "reduce-overhead")):
        torch._dynamo.reset()
        fn = compiled(tiny_ops, backend, mode)
        for _ in range(3):
            fn(x)
        steps[name] = (lambda fn: lambda: fn(x))(fn)
    times = _interleaved_times(steps, "cuda")
    row = {"workload": "50 tiny ops (64x64 fp32)"}
    for name, t in times.items():
        row[f"{name}_us"] = t["median_ms"] * 1e3
    row["kiln_ro_over_kiln"] = row["kiln_ro_us"] / row["kiln_us"]
    row["kiln_ro_vs_inductor_ro"] = row["inductor_ro_us"] / row["kiln_ro_us"]
    return row


def measure(row, module, inputs, device, variants):
    """Fills row for each variant (label -> (compile: a module -> the callable to run, extras: () -> more fields)),
    each run on its own copy of module: its compile time, the accuracy of a later call (a replay, for the modes
    that record), its peak memory over its life (on CUDA: compile and recording included) and what it holds between
    calls; then all of them timed together in alternating rounds."""
    with accuracy.exact_float32():
        fp64, eager, nudged = _references(module, inputs, False)
    steps = {}
    for label, (make, extras) in variants.items():
        torch._dynamo.reset()
        _own_recompile_budget(0)   # (Dynamo reset: each variant's frames counted from 0)
        kiln.reset_stats()
        COLLECTED.lines.clear()
        try:
            own = copy.deepcopy(module)
            base = lifetime_start(device)
            step = _make_step(make(own), inputs, False)
            _, row[f"{label}_compile_s"] = _compile_time(step, device)
            if base is None:
                row[f"{label}_peak_mib"] = (_peak_memory(step, device).allocated or 0) / 2 ** 20
            else:
                row.update({f"{label}_{k}": v for k, v in lifetime_memory(step, base).items()})
            # (after the memory: the check's float64 copies of a model's logits were most of s57's and s58's peaks)
            row[f"{label}_accuracy"] = accuracy.accuracy_error(step(), eager, fp64, nudged=nudged) or "ok"
            row.update({f"{label}_{k}": v for k, v in extras().items()})
            steps[label] = step
        except Exception as e:   # a row, never a crash
            lines = [line for line in str(e).splitlines() if line.strip()]
            row[f"{label}_error"] = f"{type(e).__name__}: {' | '.join(lines[:3])[:400]}"
    for label, t in _interleaved_times(steps, device).items():
        row[f"{label}_ms"], row[f"{label}_speedup"] = t["median_ms"], t.get("speedup")
    return row


def lifetime_start(device):
    """On CUDA: the allocated bytes before a variant's first call, its peak counted from here (None elsewhere).
    What the Dynamo reset before it let go (an earlier variant's graphs and their memory pools) is freed first:
    freed later, in the variant's life, it read as negative memory held (Inductor's reduce-overhead: -66 MiB)."""
    if device != "cuda":
        return None
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    return torch.cuda.memory_allocated()


def lifetime_memory(step, base):
    """A variant's peak over its whole life so far, compile, recording and one more call included, and what it
    holds between calls, in MiB above `base` (its parameters excluded). A replay's own rise is only its outputs'
    copies: the graph's memory pool was allocated when it was recorded, and is held from then on (session 57's
    rows read 0 for reduce-overhead's peak, measuring one replay alone)."""
    step()
    torch.cuda.synchronize()
    return {"peak_mib": (torch.cuda.max_memory_allocated() - base) / 2 ** 20,
            "held_mib": (torch.cuda.memory_allocated() - base) / 2 ** 20}


def nothing():
    return {}


def model_at_batch(name, batch):
    """(the workload, its module and inputs: bf16, the GPU size's sequence at this batch)"""
    w = workload(name)
    w = dataclasses.replace(w, sizes={**w.sizes, "small_batch": dict(w.sizes["gpu"], batch=batch)})
    return w, w.make_module("cuda", torch.bfloat16, "small_batch"), w.make_inputs("cuda", torch.bfloat16, "small_batch")


def recorded():
    stats = kiln.stats()
    return {"replays": stats.get("cuda_graph_replays", 0), "graphs_fallback": stats["graphs_fallback"],
            "log": list(COLLECTED.lines)}


VARIANTS = {"eager": (lambda m: m, nothing),
            "kiln": (lambda m: compiled(m, "kiln", None), nothing),
            "kiln_ro": (lambda m: compiled(m, "kiln", "reduce-overhead"), recorded),
            "inductor_ro": (lambda m: compiled(m, "inductor", "reduce-overhead"), nothing)}


def model_row(name, batch, fresh_memory=()):
    w, module, inputs = model_at_batch(name, batch)
    row = measure({"model": name, "batch": batch, "seq": w.sizes["gpu"].get("seq")}, module, inputs, "cuda",
                  VARIANTS)
    if "kiln_ro_ms" in row and "inductor_ro_ms" in row:
        row["kiln_ro_vs_inductor_ro"] = row["inductor_ro_ms"] / row["kiln_ro_ms"]
    if "kiln_ro_peak_mib" in row and row.get("kiln_peak_mib"):
        row["kiln_ro_peak_over_default"] = row["kiln_ro_peak_mib"] / row["kiln_peak_mib"]
    for label in fresh_memory:
        row.update({f"{label}_fresh_{k}": v for k, v in fresh_process_memory(name, batch, label).items()})
    if row.get("kiln_fresh_peak_mib") and "kiln_ro_fresh_peak_mib" in row:
        row["kiln_ro_fresh_peak_over_default"] = row["kiln_ro_fresh_peak_mib"] / row["kiln_fresh_peak_mib"]
    return row


def fresh_process_memory(name, batch, label):
    """A variant's peak over its life and what it holds after, in a process of its own (fresh caches, nothing
    run before it): in one process, the workspace cuBLAS keeps per stream, made by whichever variant ran cuBLAS
    first on that stream, counted in none of the later ones'."""
    import subprocess
    done = subprocess.run([sys.executable, __file__, "--memory-of", f"{name}:{batch}:{label}"], capture_output=True,
                          text=True, timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": done.stderr.strip().splitlines()[-1:]}


def memory_of(spec):
    """(a child of fresh_process_memory) prints {peak_mib, held_mib} of one variant's life: its compile call and
    two calls, above its parameters and inputs"""
    name, batch, label = spec.split(":")
    _, module, inputs = model_at_batch(name, int(batch))
    make, _ = VARIANTS[label]
    _own_recompile_budget(0)
    base = lifetime_start("cuda")
    step = _make_step(make(module), inputs, False)
    _compile_time(step, "cuda")
    print(json.dumps(lifetime_memory(step, base)), flush=True)


def freezing_row(name, device):
    """(on the CPU: the quick size in float32, as `kiln bench` runs the suite there)"""
    import torch._inductor.config as inductor_config   # (a script: kiln itself never names Inductor)
    w = workload(name)
    dtype, size = (torch.bfloat16, "gpu") if device == "cuda" else (torch.float32, "quick")
    module = w.make_module(device, dtype, size)
    inputs = w.make_inputs(device, dtype, size)

    def under_flag(compiler, freezing):
        """compiler's callable, run with Inductor's freezing flag as this variant needs it at every call: the flag
        is read whenever a frame compiles, and measure's Dynamo reset before each variant makes every earlier one
        compile again in the timing rounds (under the last variant's flag, till session 78: with the flag on, Dynamo
        hands kiln's graphs their parameters as constants, which kiln's own freezing does not find, so kiln's two
        rows ran alike; and Inductor's two variants, equal compilers, shared their compiled frames)."""
        def make(m):
            compiled = compiler(m)

            def call(*args):
                inductor_config.freezing = freezing
                return compiled(*args)
            return call
        return make
    try:
        row = measure({"model": name, "device": device, "batch": w.sizes[size]["batch"]}, module, inputs, device, {
            "eager": (lambda m: m, nothing),
            "kiln": (under_flag(kiln.compile, False), nothing),
            "kiln_frozen": (under_flag(lambda m: kiln.compile(m, options={"freezing": True}), False),
                            lambda: {"ops_folded": kiln.stats().get("frozen_ops_folded", 0)}),
            # (options as the flag: else the two compilers compare equal, and one shares the other's compiled frames)
            "inductor": (under_flag(lambda m: torch.compile(m, options={"freezing": False}), False), nothing),
            "inductor_frozen": (under_flag(lambda m: torch.compile(m, options={"freezing": True}), True), nothing)})
    finally:
        inductor_config.freezing = False
    if "kiln_frozen_ms" in row and "inductor_frozen_ms" in row:
        row["kiln_frozen_vs_inductor_frozen"] = row["inductor_frozen_ms"] / row["kiln_frozen_ms"]
    return row


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out")
    p.add_argument("--models", default=TRANSFORMERS)
    p.add_argument("--batches", default="1,2")
    p.add_argument("--budget-s", type=float, default=480)
    p.add_argument("--skip-checks", action="store_true")
    p.add_argument("--freezing", default="", help="conv models to run with and without freezing (only those)")
    p.add_argument("--device", default="cuda", help="with --freezing: cuda, or cpu (quick sizes, float32)")
    p.add_argument("--fresh-memory", default="", help="variants (kiln,kiln_ro,...) whose memory is read again, each "
                   "in a process of its own")
    p.add_argument("--memory-of", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.memory_of:
        return memory_of(a.memory_of)
    if not a.out:
        p.error("--out is required")
    os.makedirs(a.out, exist_ok=True)
    start = time.time()
    result = {"metadata": {"device": torch.cuda.get_device_name() if a.device == "cuda" else "cpu",
                           "torch": torch.__version__, "load": os.getloadavg()[0],
                           "date": time.strftime("%Y-%m-%d"), "command": "PYTHONPATH=. python3 " + " ".join(sys.argv)},
              "checks": None, "rows": []}
    if a.freezing:
        rows = []
        for name in a.freezing.split(","):
            if time.time() - start > a.budget_s:
                break
            try:
                rows.append(freezing_row(name, a.device))
            except Exception as e:
                rows.append({"model": name, "error": f"{type(e).__name__}: {str(e)[:200]}"})
            print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in rows[-1].items()}), flush=True)
            with open(os.path.join(a.out, f"modes_freezing_{a.device}.json"), "w") as f:
                json.dump({"metadata": result["metadata"], "rows": rows}, f, indent=1)
        return
    result["checks"] = None if a.skip_checks else checks()
    print(json.dumps(result["checks"]), flush=True)
    result["tiny"] = tiny_row()
    print(json.dumps(result["tiny"]), flush=True)
    for name in filter(None, a.models.split(",")):
        for batch in map(int, a.batches.split(",")):
            if time.time() - start > a.budget_s:
                print(f"budget spent: {name} batch {batch} and later not run", flush=True)
                break
            try:
                row = model_row(name, batch, list(filter(None, a.fresh_memory.split(","))))
            except Exception as e:
                row = {"model": name, "batch": batch, "error": f"{type(e).__name__}: {str(e)[:200]}"}
            result["rows"].append(row)
            print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
            torch.cuda.empty_cache()
            with open(os.path.join(a.out, "modes_reduce_overhead.json"), "w") as f:
                json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
