"""The real-model suite's GPU rows in one process, within a time budget: eager, Inductor and kiln side by side.

    PYTHONPATH=. python3 scripts/gpu_models.py --out DIR [--models gpt2,bert,...] [--train [--amp]] [--budget-s 500]
        [--backends kiln] [--no-time] [--jobs 6] [--both-orders]

Per model (full size, kiln.tools.models): accuracy of the first call against eager and an fp64 copy of the
model (kiln.tools.accuracy), the first call's time less a steady call's (compile time; fresh cache dirs
for the whole process, so the first model also pays each compiler's start-up), peak memory above the
inputs and parameters, kiln's kernels and fallbacks, and the median time of a call in alternating rounds
with the speedup over eager. Inference runs in bf16, training (--train: forward and backward of the logits'
sum, gradients compared) in fp32, or with --amp in mixed precision (fp32 weights, the forward under autocast
to bf16). `kiln bench --suite models --device cuda` gives the same rows with cold and warm compiles in worker
processes, at several times the wall time.

--jobs N splits the models over N processes that run at once (compiles are CPU-bound). On a machine with a GPU
for each job, each job runs on a GPU of its own and the models are timed too: compiles and tuning go on at once,
and a job's timing rounds wait until no other job compiles or times (a lock, `held`), so that no other work of
the host falls in them. Otherwise --no-time: a check of accuracy, memory and fallbacks, jobs spread over the GPUs.
"""
import argparse
import contextlib
import copy
import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback

for var in ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):   # cold compiles
    os.environ[var] = tempfile.mkdtemp(prefix=var.lower())

import torch  # noqa: E402

import kiln  # noqa: E402
from kiln.tools import accuracy  # noqa: E402
from kiln.tools.bench import (_compile, _compile_time, _interleaved_times, _make_step,  # noqa: E402
                              _own_recompile_budget, _peak_memory, _references)
from kiln.tools.workloads import suite_workloads, workload  # noqa: E402


def _put_peaks(row, label, peak):
    """The allocator's peak, and the bytes requested at the peak of requests (bench.Peak says why both)."""
    row[f"{label}_peak_mib"] = (peak.allocated or 0) / 2 ** 20
    if peak.requested is not None:
        row[f"{label}_requested_peak_mib"] = peak.requested / 2 ** 20


@contextlib.contextmanager
def held(a, alone):
    """With --timing-lock (jobs at once, or runs at once given one lock file): a compile holds the lock shared, and
    timing rounds hold it alone, so they start once every job's compile has ended and no compile starts while they
    run. (Compiles and tuning still run beside other jobs' compiles: their seconds read longer than alone.)"""
    if not a.timing_lock:
        yield
        return
    with open(a.timing_lock, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def run_model(name, a):
    with held(a, alone=False):
        row, steps = compile_model(name, a)
    with held(a, alone=True):
        times = {} if a.no_time else _interleaved_times(steps, a.device)
    for backend, t in times.items():
        row[f"{backend}_ms"], row[f"{backend}_speedup"] = t["median_ms"], t.get("speedup")
    for backend in a.backends.split(","):   # kiln against Inductor in the same mode ("kiln@max-autotune")
        rival = backend.replace("kiln", "inductor", 1)
        if backend.startswith("kiln") and f"{backend}_ms" in row and f"{rival}_ms" in row:
            row[f"{backend}_vs_inductor"] = row[f"{rival}_ms"] / row[f"{backend}_ms"]
    return row


def compile_model(name, a):
    """The row of everything but times (accuracy, compile time, memory, kiln's counts) and each backend's step."""
    train, device, autocast = a.train, a.device, "bfloat16" if a.amp else None
    dtype = torch.float32 if train or device == "cpu" else torch.bfloat16
    size = a.size or ("gpu" if device == "cuda" else "quick")
    w = workload(name)
    module = w.make_module(device, dtype, size, train)
    inputs = w.make_inputs(device, dtype, size)
    with accuracy.exact_float32():   # (TF32 off: see kiln.tools.accuracy)
        fp64, eager, nudged = _references(module, inputs, train, autocast)
    if device == "cuda":
        torch.cuda.empty_cache()   # the fp64 model's memory goes back to the jobs running beside this one
    row = {"model": name, "mode": f"{'train' if train else 'inference'} {'amp-bf16' if autocast else str(dtype)[6:]}"}
    steps = {"eager": _make_step(copy.deepcopy(module), inputs, train, autocast)}
    _put_peaks(row, "eager", _peak_memory(steps["eager"], device))
    count_launches = a.launches and device == "cuda"
    if count_launches:
        row["eager_launches"] = launches(steps["eager"])
    for turn, backend in enumerate(a.backends.split(",")):
        kiln.reset_stats()
        _own_recompile_budget(turn)
        try:
            step = _make_step(_compile(copy.deepcopy(module), backend), inputs, train, autocast)
            with accuracy.exact_float32():
                result, row[f"{backend}_compile_s"] = _compile_time(step, device)
        except Exception as e:   # a row, never a crash
            row[f"{backend}_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
            row[f"{backend}_where"] = where(e)
            continue
        row[f"{backend}_accuracy"] = accuracy.accuracy_error(result, eager, fp64, nudged=nudged) or "ok"
        _put_peaks(row, backend, _peak_memory(step, device))
        if count_launches:
            row[f"{backend}_launches"] = launches(step)
        if backend.startswith("kiln"):
            stats = kiln.stats()
            row.update(kiln_kernels=stats["kernels_generated"], kiln_fallback_ops=stats["fallback_ops"],
                       kiln_graphs_fallback=stats["graphs_fallback"], kiln_graphs=stats["graphs_compiled"])
        steps[backend] = step
    return row, steps


def both_orders(row, reversed_row):
    """Merge the row of a second run, after a Dynamo reset, that compiled the backends in the reverse order.
    Both compilers' graphs of a code object sit in one Dynamo cache, and on models whose frames recompile
    (BART's decoder layers) the backend compiled second ran slower: BART's AMP training read 1.494x Inductor with
    kiln compiled first and 0.844x with it second (bench/NOTES.md 53). A ratio becomes the geomean of the two
    orders', each kept under `<ratio>_orders` (this order's first); the other run's times and accuracy are kept
    under `reversed`."""
    for key in [k for k in row if k.endswith("_vs_inductor")]:
        if reversed_row.get(key):
            row[f"{key}_orders"] = [row[key], reversed_row[key]]
            row[key] = (row[key] * reversed_row[key]) ** 0.5
    row["reversed"] = {k: v for k, v in reversed_row.items() if k.endswith(("_ms", "_accuracy", "_error"))}


def launches(step):
    """The GPU kernels (and copies and fills) one call of step launches."""
    from torch.profiler import profile, ProfilerActivity
    step()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        step()
        torch.cuda.synchronize()
    return sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)


def where(e):
    """The innermost frames of an error, so that a row names the line that failed."""
    frames = traceback.extract_tb(e.__traceback__)[-4:]
    return " < ".join(f"{os.path.basename(f.filename)}:{f.lineno} {f.name}" for f in reversed(frames))


def markdown(rows):
    # the backends as the rows name them ("inductor@max-autotune", "kiln@max-autotune"), in their order
    backends = list(dict.fromkeys(k[:-len("_compile_s")] for r in rows for k in r if k.endswith("_compile_s")))
    kilns = [b for b in backends if b.startswith("kiln")]
    cols = ["model", "mode", "eager_ms", *(f"{b}_speedup" for b in backends), *(f"{b}_vs_inductor" for b in kilns),
            *(f"{b}_accuracy" for b in kilns), "eager_launches", *(f"{b}_launches" for b in backends),
            *(f"{b}_compile_s" for b in backends), "eager_peak_mib", *(f"{b}_peak_mib" for b in backends),
            "eager_requested_peak_mib", *(f"{b}_requested_peak_mib" for b in backends),
            "kiln_fallback_ops", "kiln_graphs_fallback"]

    def cell(v):
        return f"{v:.3g}" if isinstance(v, float) else ("" if v is None else str(v))
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(cell(r.get(c, r.get(c.replace("accuracy", "error")))) for c in cols) + " |"
              for r in rows]
    return "\n".join(lines)


def write(path, meta, rows):
    with open(path + ".json", "w") as f:
        json.dump({"metadata": meta, "rows": rows}, f, indent=1)
    with open(path + ".md", "w") as f:
        f.write(markdown(rows) + "\n")


def run_jobs(a, names, path, meta, gpus):
    """Split the models over a.jobs processes of this script running at once, each on GPU `job % gpus`; merge
    their rows. Timed only where every job has a GPU of its own (two tunings on one GPU would time each other's
    kernels), their timing rounds one job at a time (`held`)."""
    parts, procs = [p for p in (names[i::a.jobs] for i in range(a.jobs)) if p], []
    a.no_time = a.no_time or gpus < len(parts)
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", ",".join(map(str, range(gpus)))).split(",")
    meta["jobs"] = f"{len(parts)} processes at once" + ("" if a.no_time else ", each on its own GPU, timed alone")
    for i, part in enumerate(parts):
        argv = [sys.executable, __file__, "--out", os.path.join(a.out, f"job{i}"), "--models", ",".join(part),
                "--device", a.device, "--budget-s", str(a.budget_s), "--backends", a.backends]
        argv += [flag for flag, on in (("--train", a.train), ("--amp", a.amp), ("--no-time", a.no_time),
                                              ("--launches", a.launches)) if on]
        argv += ["--size", a.size] if a.size else []
        argv += [] if a.no_time else ["--timing-lock", a.timing_lock or os.path.join(a.out, "timing.lock")]
        env = dict(os.environ, CUDA_VISIBLE_DEVICES=visible[i % gpus]) if gpus else None
        procs.append((subprocess.Popen(argv, env=env),
                      os.path.join(a.out, f"job{i}", os.path.basename(path) + ".json")))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))   # a `timeout` ends the workers too, and rows merge
    try:
        for proc, _ in procs:
            proc.wait()
    finally:
        for proc, _ in procs:
            proc.kill()
        rows = []
        for _, part_path in procs:
            if os.path.exists(part_path):
                with open(part_path) as f:
                    rows += json.load(f)["rows"]
        order = {name: i for i, name in enumerate(names)}
        write(path, meta, sorted(rows, key=lambda r: order[r["model"]]))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--models", default=None, help="comma-separated (default: the whole suite)")
    p.add_argument("--train", action="store_true")
    p.add_argument("--amp", action="store_true", help="with --train: fp32 weights, the forward under autocast to bf16")
    p.add_argument("--device", default="cuda", help="cuda (full-size models) or cpu (small ones: a check of this script)")
    p.add_argument("--size", choices=["tiny", "quick", "gpu"], help="size preset (default: gpu on cuda, quick on cpu)")
    p.add_argument("--backends", default="inductor,kiln", help="comma-separated, compared with eager")
    p.add_argument("--no-time", action="store_true", help="accuracy, memory and compile time only")
    p.add_argument("--launches", action="store_true", help="count the GPU launches of a call (torch.profiler)")
    p.add_argument("--jobs", type=int, default=1,
                   help="processes running models at once (timed only with a GPU for each: see above)")
    p.add_argument("--timing-lock", help="a lock file shared with other runs of this script at once (see held; "
                   "--jobs makes one in --out for its processes where none is given)")
    p.add_argument("--budget-s", type=float, default=500, help="no model starts after this many seconds")
    p.add_argument("--both-orders", action="store_true",
                   help="time each model again with the backends compiled in the reverse order (see both_orders)")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    names = a.models.split(",") if a.models else suite_workloads("models")
    start, rows = time.time(), []
    path = os.path.join(a.out, f"models_{'train' if a.train else 'infer'}{'_amp' if a.amp else ''}")
    meta = {"device": torch.cuda.get_device_name() if a.device == "cuda" else "cpu", "torch": torch.__version__,
            "date": time.strftime("%Y-%m-%d"), "command": "PYTHONPATH=. python3 " + " ".join(sys.argv)}
    if a.jobs > 1:
        return run_jobs(a, names, path, meta, torch.cuda.device_count() if a.device == "cuda" else 0)
    for name in names:
        if time.time() - start > a.budget_s:
            print(f"budget spent: {name} and later models not run", flush=True)
            break
        torch._dynamo.reset()
        try:
            row = run_model(name, a)
            if a.both_orders:
                torch._dynamo.reset()
                both_orders(row, run_model(name, argparse.Namespace(**dict(vars(a), backends=",".join(
                    reversed(a.backends.split(",")))))))
        except Exception as e:
            row = {"model": name, "error": f"{type(e).__name__}: {str(e)[:200]}", "where": where(e)}
        rows.append(row)
        print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
        if a.device == "cuda":
            torch.cuda.empty_cache()
        write(path, meta, rows)


if __name__ == "__main__":
    main()
