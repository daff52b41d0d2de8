"""`kiln bench`: compile a suite of workloads with several backends, check and time them, and report.

Every measurement runs in a new worker process, so that a crash or hang is one failed row and every
compile starts with no compiler state. Per workload (`--backends eager,inductor,kiln` makes 3 workers):

  cold  one per compiling backend, on fresh KILN_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR and TRITON_CACHE_DIR:
        the cold compile time, the accuracy of the first result against an fp64 reference
        (kiln.tools.accuracy), the peak memory of a call (eager's too), and kiln's kernel and
        fallback counts.
  time  one for all backends, on the cache dirs their cold runs filled: each backend's warm compile
        time and the accuracy of its first result, then all timed together in interleaved rounds after a
        warm-up, reporting medians (CUDA events on the GPU) and each backend's speedup as the median
        of its per-round ratios to eager.

A compile time is the first call's time minus a steady-state call's, in a worker that has already
imported the compilers and run one throwaway Dynamo compile: each graph's own cost, without the one-time
start-up that all backends share.
"""
import argparse
import copy
import ctypes
import datetime
import gc
import importlib.metadata
import json
import math
import multiprocessing
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import typing
from pathlib import Path

import torch

from kiln.tools import accuracy
from kiln.tools.workloads import SUITES, WORKLOADS, suite_workloads, workload

REPO_ROOT = str(Path(__file__).resolve().parents[2])
CACHE_VARS = {"KILN_CACHE_DIR": "kiln", "TORCHINDUCTOR_CACHE_DIR": "inductor", "TRITON_CACHE_DIR": "triton"}
MIN_SAMPLE_S = 1e-3       # a timing sample batches calls up to this long, so timer overhead stays small
TIMING_BUDGET_S = 2.0     # timing rounds of a workload (all backends) go on this long, MIN_ROUNDS at least
MIN_ROUNDS, MAX_ROUNDS = 12, 100   # (12: whole blocks of forward and reversed turns for up to 3 steps)

# ---------------------------------------------------------------- inside a worker process


def _sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def _wall_time(step, device):
    """Seconds one call takes, and its result."""
    _sync(device)
    start = time.perf_counter()
    result = step()
    _sync(device)
    return time.perf_counter() - start, result


def _time_calls(step, calls, device) -> float:
    """Seconds per call over `calls` back-to-back calls."""
    if device == "cuda":
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            step()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3 / calls
    start = time.perf_counter()
    for _ in range(calls):
        step()
    return (time.perf_counter() - start) / calls


def _build(spec):
    w, dtype = workload(spec["workload"]), getattr(torch, spec["dtype"])
    return (w.make_module(spec["device"], dtype, spec["size"], spec["train"]),
            w.make_inputs(spec["device"], dtype, spec["size"]))


def _make_step(module, inputs, train, autocast=None):
    """One run of module as a function returning tensors: its output under no_grad, or with train its
    loss (the module returns it) and the gradients of the floating-point inputs and the parameters; a module
    that runs its own training step, as it is.
    With autocast (a dtype name), the forward runs under torch.autocast to that dtype (mixed precision)."""
    def forward():
        if autocast is None:
            return module(*inputs)
        with torch.autocast(inputs[0].device.type, dtype=getattr(torch, autocast)):
            return module(*inputs)
    if getattr(module, "steps_itself", False):   # a training step (kiln.tools.train_steps), gradients on
        return forward
    if not train:
        def step():
            with torch.no_grad():
                return [forward()]
        return step
    inputs = [x.detach().clone().requires_grad_(x.is_floating_point()) for x in inputs]
    leaves = [x for x in inputs if x.requires_grad] + list(module.parameters())

    def step():
        for leaf in leaves:
            leaf.grad = None
        loss = forward()
        loss.backward()
        return [loss.detach()] + [leaf.grad for leaf in leaves]
    return step


def _compile(module, backend):
    """backend: "eager", "kiln", or another torch.compile backend; "kiln@max-autotune" names a mode too."""
    backend, _, mode = backend.partition("@")
    if backend == "eager":
        return module
    if backend == "kiln":
        import kiln
        return kiln.compile(module, mode=mode or None)
    return torch.compile(module, backend=backend, mode=mode or None)


DEFAULT_RECOMPILE_LIMIT = torch._dynamo.config.recompile_limit
RECOMPILES_PER_BACKEND = 64   # graphs per code object: a model's layers, each compiled apart


def _own_recompile_budget(turn):
    """Dynamo counts every graph compiled for a code object against one limit (recompile_limit, 8 by default),
    whichever backend compiled it; past it, the frame runs eagerly, from then on. Backends compiled one after
    another in one process share it, so on models whose frames recompile (an encoder-decoder's layers, once per
    layer index) the later ones were left fewer graphs: BART's AMP training step read 0.86x Inductor with kiln
    compiled second, and 1.12x profiled with a Dynamo of its own (bench/NOTES.md 52). Nor is the default enough
    for one backend: transformers' layers share one `__call__` frame, which BART's training step compiles once
    per decoder layer (a guard on its cache's per-layer flag) besides the encoder's, more than 8 times: the first
    backend ran its last layers eagerly, and the frame stayed eager for the next (kiln's BART step ran 18 kernels
    and eager's peak memory, bench/NOTES.md 82). The backend compiled in turn k (from 0) gets the limit raised
    by k + 1 allowances of RECOMPILES_PER_BACKEND graphs."""
    torch._dynamo.config.recompile_limit = max(DEFAULT_RECOMPILE_LIMIT, RECOMPILES_PER_BACKEND) * (turn + 1)


def _compile_time(step, device):
    """The first call's result and how much longer than a steady-state call it took: the compile time.
    The garbage collector runs a full pass first. Otherwise a full pass may start inside the timed call or not,
    by the process's history rather than the backend's work. Python starts one when the objects that survived
    since the last one reach a quarter of those it kept. A process holding fewer objects (kiln imports less than
    Inductor) reaches that sooner: warm CPU starts of BERT read 1.9 s with kiln and 1.3 with Inductor. kiln's
    processes ran one 0.3 s full pass inside Dynamo's trace, Inductor's none, and kiln's backend took 0.01 s
    against Inductor's 0.07 (bench/NOTES.md 60)."""
    gc.collect()
    first_s, result = _wall_time(step, device)
    # a copy: a training step's result is its parameters, which the next calls step on
    result = [t.detach().clone() if isinstance(t, torch.Tensor) else t for t in result]
    steady_s = statistics.median(_wall_time(step, device)[0] for _ in range(3))
    return result, first_s - steady_s


def _status_bytes(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(field + ":"))


class Peak(typing.NamedTuple):
    """How far memory rose above its level before one call. allocated: the allocator's bytes, which count a
    whole cached block where a smaller request took it unsplit (a large block is split only where more than 1
    MiB would remain), so they depend on where the pool's earlier frees left its gaps; requested: the bytes the
    call's tensors asked for, the same in every process (bench/NOTES.md 105). On the CPU, resident bytes, and
    no requested figure."""
    allocated: int | None
    requested: int | None


def _peak_memory(step, device) -> Peak:
    """One call's Peak: on CUDA from the caching allocator's statistics, on the CPU from the resident peak
    (None where /proc cannot reset it)."""
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_stats()
        step()
        torch.cuda.synchronize()
        after = torch.cuda.memory_stats()
        return Peak(*(after[f"{kind}_bytes.all.peak"] - before[f"{kind}_bytes.all.current"]
                      for kind in ("allocated", "requested")))
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets VmHWM, the peak resident size, to the current one
    except OSError:
        return Peak(None, None)
    before = _status_bytes("VmRSS")
    step()
    return Peak(_status_bytes("VmHWM") - before, None)


def _prewarm(device):
    """Pay, before measuring, what each compiler pays once per process: a tiny compile through each backend
    loads its modules (and Dynamo's) and starts its toolchain. Compile times are then each graph's own
    cost, for both backends alike."""
    import kiln
    tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).to(device)   # a module, a matmul, 2-D indices
    for compiled in (torch.compile(tiny, backend="inductor"), kiln.compile(tiny)):
        compiled(torch.ones(2, 3, device=device))
        torch._dynamo.reset()


def _references(module, inputs, train, autocast=None):
    """For kiln.tools.accuracy: the results of eager in fp64 (never autocast), in the workload's dtype, and
    accuracy.NUDGED_RUNS times on inputs, parameters and buffers each moved by one ulp."""
    with accuracy.Float64Throughout():
        fp64 = _make_step(copy.deepcopy(module).double(), [x.double() if x.is_floating_point() else x for x in inputs],
                          train)()
    eager = _make_step(copy.deepcopy(module), inputs, train, autocast)()
    nudged = []
    for run in range(accuracy.NUDGED_RUNS):
        g = torch.Generator(inputs[0].device if inputs else next(module.parameters()).device).manual_seed(run)
        moved = copy.deepcopy(module)
        with torch.no_grad():
            for t in [*moved.parameters(), *moved.buffers()]:
                t.copy_(accuracy.nudged(t, g))
        nudged.append(_make_step(moved, [accuracy.nudged(x, g) for x in inputs], train, autocast)())
    return fp64, eager, nudged


def _cold(spec):
    """On fresh cache dirs: the cold compile time, the accuracy of that first result, the peak memory of a
    call (eager's too), and kiln's kernel and fallback counts."""
    device, backend, train, autocast = spec["device"], spec["backend"], spec["train"], spec.get("autocast")
    if device == "cpu":
        # glibc then maps tensors of 64 KiB and more separately and unmaps them when freed, so that resident
        # memory follows the live tensors and its peak is a call's (set for this process alone: the compilers
        # it starts keep their allocator settings)
        ctypes.CDLL(None).mallopt(-3, 64 * 1024)  # -3: M_MMAP_THRESHOLD
    _prewarm(device)
    _own_recompile_budget(0)   # (frames past Dynamo's default limit would run eagerly)
    module, inputs = _build(spec)
    eager_peak = _peak_memory(_make_step(copy.deepcopy(module), inputs, train, autocast), device).allocated
    if backend.startswith("kiln"):   # (also "kiln@max-autotune")
        import kiln
        kiln.reset_stats()
    step = _make_step(_compile(module, backend), inputs, train, autocast)
    with accuracy.exact_float32():
        fp64, eager, nudged = _references(module, inputs, train, autocast)
        result, compile_s = _compile_time(step, device)
    cold = {"compile_cold_s": compile_s, "accuracy_error": accuracy.accuracy_error(result, eager, fp64, nudged=nudged),
            "peak_mem_bytes": _peak_memory(step, device).allocated, "eager_peak_mem_bytes": eager_peak}
    if backend.startswith("kiln"):
        stats = kiln.stats()
        cold.update(kernels=stats["kernels_generated"], fallback_ops=stats["fallback_ops"],
                    graphs_fallback=stats["graphs_fallback"])
    return cold


def _interleaved_times(steps, device) -> dict:
    """Each step's median milliseconds per call and their interquartile range, from rounds that take one
    sample of every step in turn, so that drifts in machine speed hit all alike. Whoever goes first rotates,
    and every other block of rounds runs in reverse, so that each step follows each other step equally often:
    with a fixed order, the step sampled after eager's read ~3% slower on the H100, whichever it was (bench/NOTES.md
    49).
    A step's speedup is the median over rounds of eager's time over its own in the same round: pairing the
    samples cancels the drift that two separate medians keep."""
    if not steps:
        return {}
    per_call = {backend: min(_time_calls(step, 1, device) for _ in range(3)) for backend, step in steps.items()}
    calls = {backend: max(1, math.ceil(MIN_SAMPLE_S / seconds)) for backend, seconds in per_call.items()}
    order = list(steps)
    samples = {backend: [] for backend in steps}
    deadline = time.perf_counter() + TIMING_BUDGET_S
    rounds = 0
    while rounds < MIN_ROUNDS or (rounds < MAX_ROUNDS and time.perf_counter() < deadline):
        turn = order if rounds // len(order) % 2 == 0 else order[::-1]
        for backend in turn[rounds % len(order):] + turn[:rounds % len(order)]:
            samples[backend].append(_time_calls(steps[backend], calls[backend], device))
        rounds += 1
    quartiles = {backend: statistics.quantiles(times, n=4) for backend, times in samples.items()}
    times = {backend: {"median_ms": q2 * 1e3, "iqr_ms": (q3 - q1) * 1e3} for backend, (q1, q2, q3) in quartiles.items()}
    for backend, row in times.items():
        if "eager" in samples:
            row["speedup"] = statistics.median(e / t for e, t in zip(samples["eager"], samples[backend]))
    return times


def _time(spec):
    """A new process on the filled cache dirs: each backend's warm compile time and the accuracy of its first
    result; then all of them timed together."""
    device = spec["device"]
    _prewarm(device)
    module, inputs = _build(spec)
    with accuracy.exact_float32():
        fp64, eager, nudged = _references(module, inputs, spec["train"], spec.get("autocast"))
    steps, compile_s, errors = {}, {}, {}
    for turn, backend in enumerate(spec["backends"]):
        os.environ.update(spec["cache_envs"][backend])
        _own_recompile_budget(turn)
        try:
            step = _make_step(_compile(copy.deepcopy(module), backend), inputs, spec["train"], spec.get("autocast"))
            with accuracy.exact_float32():
                result, compile_s[backend] = _compile_time(step, device)
        except Exception as e:
            errors[backend] = _describe(e)
            continue
        steps[backend] = step  # timed even if inaccurate; its row says it failed
        error = accuracy.accuracy_error(result, eager, fp64, nudged=nudged)
        if error:
            errors[backend] = f"accuracy: {error}"
    return {"compile_warm_s": compile_s, "times": _interleaved_times(steps, device), "errors": errors}


STAGES = {"cold": _cold, "time": _time}


def _describe(error: BaseException) -> str:
    return " ".join(f"{type(error).__name__}: {error}".split())[:400]


def _worker_main(stage, spec_json, result_path):
    try:
        result = STAGES[stage](json.loads(spec_json))
    except Exception as e:
        traceback.print_exc()
        result = {"error": _describe(e)}
    Path(result_path).write_text(json.dumps(result))

# ---------------------------------------------------------------- the bench command


def _workers(device):
    """Workers are forks of a server that has imported torch and kiln and run nothing: they start in a
    fraction of a second, yet with no compiler state. A fork cannot use CUDA once its parent has touched
    it, so kiln's import must not touch CUDA; Inductor is loaded by each worker's prewarm."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["kiln.tools.bench"])
    return context


def _worker_process(stage, spec_json, env, log_path, result_path):
    os.setsid()  # a process group of its own, so that stopping it stops the compile workers it starts too
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.environ.update(env)
    _worker_main(stage, spec_json, result_path)


def _run_worker(stage, spec, env, log_name, args) -> dict:
    """Run one stage in a new worker process; its result, or {"error": ...}. Its output goes to
    OUT/logs/log_name.log."""
    log_path, result_path = (args.out / "logs" / (log_name + suffix) for suffix in (".log", ".json"))
    result_path.unlink(missing_ok=True)
    proc = _workers(spec["device"]).Process(target=_worker_process,
                                            args=(stage, json.dumps(spec), env, log_path, result_path))
    proc.start()
    try:
        proc.join(args.timeout)
        timed_out = proc.is_alive()
    finally:  # also on Ctrl-C
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything the worker left running, and the worker if it timed out
        except ProcessLookupError:
            pass
        proc.kill()  # in case it timed out before it made its process group
        proc.join()
    if timed_out:
        return {"error": f"timed out after {args.timeout:g} s; see {log_path}"}
    if not result_path.exists():
        return {"error": f"the worker died (exit code {proc.exitcode}); see {log_path}"}
    return json.loads(result_path.read_text())


def _fail(row, error):
    row["ok"] = False
    row["error"] = "; ".join(filter(None, [row["error"], error]))


def bench_workload(name, args, cache_root: Path, progress) -> list[dict]:
    """The rows of one workload, one per backend in args.backends (eager first)."""
    spec = {"workload": name, "device": args.device, "dtype": args.dtype, "size": args.size, "train": args.train,
            "autocast": args.autocast}
    rows = {backend: dict(workload=name, backend=backend, device=args.device, dtype=args.dtype, train=args.train,
                          ok=True, error=None, median_ms=None, iqr_ms=None, speedup=None, compile_cold_s=None,
                          compile_warm_s=None, peak_mem_bytes=None, kernels=None, fallback_ops=None,
                          graphs_fallback=None, unreliable=None)
            for backend in args.backends}
    cache_envs = {backend: {var: str(cache_root / name / backend / sub) for var, sub in CACHE_VARS.items()}
                  for backend in args.backends}
    timed = ["eager"]  # and the backends whose cold run finished, accurate or not
    for backend in args.backends[1:]:
        progress(f"{name}: {backend}, cold")
        cold = _run_worker("cold", dict(spec, backend=backend), cache_envs[backend],
                           f"{name}-{backend}-cold", args)
        if "error" in cold:
            _fail(rows[backend], f"cold: {cold['error']}")
            continue
        timed.append(backend)
        if cold["accuracy_error"]:
            _fail(rows[backend], f"cold accuracy: {cold['accuracy_error']}")
        for key in ("compile_cold_s", "peak_mem_bytes", "kernels", "fallback_ops", "graphs_fallback"):
            rows[backend][key] = cold.get(key)
        if rows["eager"]["peak_mem_bytes"] is None:
            rows["eager"]["peak_mem_bytes"] = cold["eager_peak_mem_bytes"]
    progress(f"{name}: {', '.join(timed)}, warm and timing")
    timing = _run_worker("time", dict(spec, backends=timed, cache_envs=cache_envs), {},
                         f"{name}-time", args)
    for backend in timed:
        error = timing.get("error") or timing["errors"].get(backend)
        if error:
            _fail(rows[backend], f"warm run: {error}")
        if "error" not in timing:
            rows[backend].update(timing["times"].get(backend, {}))
            if backend != "eager":
                rows[backend]["compile_warm_s"] = timing["compile_warm_s"].get(backend)
    for backend in timed[1:]:
        rows[backend]["unreliable"] = unreliable(rows[backend], rows["eager"])
    return list(rows.values())


NOISY_IQR = 0.10        # an interquartile range above this share of the median makes a time unreliable
RATIOS_AGREE = 0.05     # the paired speedup and the ratio of the two medians may differ by this share


def unreliable(row, eager) -> str | None:
    """Why a row's speedup cannot be trusted, or None: its times or eager's spread too widely, or the paired
    speedup and the ratio of the medians disagree (each round's ratio pairs samples taken moments apart; the ms
    column's medians do not, so on a noisy machine the two can fall on opposite sides of 1)."""
    if row["speedup"] is None or row["median_ms"] is None or eager["median_ms"] is None:
        return None
    reasons = [f"{who} iqr {100 * r['iqr_ms'] / r['median_ms']:.0f}% of its median"
               for who, r in (("eager's", eager), ("its", row)) if r["iqr_ms"] > NOISY_IQR * r["median_ms"]]
    ratio = eager["median_ms"] / row["median_ms"]
    if abs(ratio / row["speedup"] - 1) > RATIOS_AGREE or (ratio - 1) * (row["speedup"] - 1) < 0:
        reasons.append(f"eager ms / ms = {ratio:.2f} against a paired speedup of {row['speedup']:.2f}")
    return "; ".join(reasons) or None


def geomean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def geomean_speedups(rows) -> dict:
    """backend -> (geomean speedup over its ok rows, ok rows, rows), for every backend but eager."""
    summary = {}
    for backend in dict.fromkeys(row["backend"] for row in rows if row["backend"] != "eager"):
        mine = [row for row in rows if row["backend"] == backend]
        ok = [row["speedup"] for row in mine if row["ok"] and row["speedup"]]
        summary[backend] = (geomean(ok), len(ok), len(mine))
    return summary


def _fmt(value, spec):
    return "-" if value is None else format(value, spec)


# (header, width in the terminal, cell, what it is: the legend under the table)
COLUMNS = [
    ("workload", 16, lambda r: r["workload"], "the program timed (kiln.tools.workloads)"),
    ("backend", 9, lambda r: r["backend"], "eager is the baseline; the others are torch.compile backends"),
    ("ok", 4, lambda r: "ok" if r["ok"] else "FAIL",
     "ok, or FAIL: an error, or a result outside the fp64 accuracy rule (the error column says which)"),
    ("ms", 9, lambda r: _fmt(r["median_ms"], ".3f"), "median milliseconds per call over the interleaved rounds"),
    ("iqr %", 5, lambda r: _fmt(r["iqr_ms"] and 100 * r["iqr_ms"] / r["median_ms"], ".0f"),
     "interquartile range of those times, in % of the median: their spread"),
    ("speedup", 7, lambda r: _fmt(r["speedup"], ".2f") + ("?" if r.get("unreliable") else ""),
     "median over rounds of eager's time / the backend's in the same round (>1: faster than eager). Pairing "
     "cancels drift, so it can differ from the ratio of the ms column; '?': unreliable, listed below the table"),
    ("cold s", 6, lambda r: _fmt(r["compile_cold_s"], ".1f"),
     "compile time in a fresh process with empty caches (first call minus a steady call)"),
    ("warm s", 6, lambda r: _fmt(r["compile_warm_s"], ".2f"), "compile time again, on the caches the cold run filled"),
    ("peak MiB", 8, lambda r: _fmt(r["peak_mem_bytes"] and r["peak_mem_bytes"] / 2**20, ".1f"),
     "peak memory of one call above what was allocated before it"),
    ("kernels", 7, lambda r: _fmt(r["kernels"], "d"), "kernels kiln generated"),
    ("fallbacks", 9, lambda r: _fmt(r["fallback_ops"], "d") + (f", {r['graphs_fallback']} graphs"
                                                                 if r["graphs_fallback"] else ""),
     "ops kiln ran eagerly inside its graphs, and graphs that fell back whole"),
    ("error", 0, lambda r: r["error"] or "", "why a row failed"),
]


def legend_lines() -> list[str]:
    return [f"{header}: {meaning}" for header, _, _, meaning in COLUMNS]


def unreliable_lines(rows) -> list[str]:
    flagged = [row for row in rows if row.get("unreliable")]
    return ([f"unreliable speedups ({len(flagged)}; rerun on a quieter machine):"] if flagged else []) + \
        [f"  {row['workload']} {row['backend']}: {row['unreliable']}" for row in flagged]


def table_line(cells, error_width=70) -> str:
    *fixed, error = cells
    return "  ".join(cell.rjust(width) if i > 1 else cell.ljust(width)
                     for i, (cell, (_, width, _, _)) in enumerate(zip(fixed, COLUMNS))) + "  " + error[:error_width]


def summary_lines(rows) -> list[str]:
    return [f"geomean speedup over eager, {backend}: " + (f"{mean:.2f}x" if mean else "-") + f" ({ok}/{total} ok)"
            for backend, (mean, ok, total) in geomean_speedups(rows).items()]


def _version(package):
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _git(*command):
    try:
        done = subprocess.run(["git", "-C", REPO_ROOT, *command], capture_output=True, text=True)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor()


def metadata(args, argv) -> dict:
    status = _git("status", "--porcelain")
    return {
        "command": "kiln bench " + " ".join(argv),
        "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "suite": args.suite, "workloads": args.workloads, "size": args.size, "backends": args.backends,
        "device": args.device, "dtype": args.dtype, "train": args.train, "autocast": args.autocast,
        "versions": {"kiln": _version("kiln"), "torch": torch.__version__, "triton": _version("triton"),
                     "python": platform.python_version()},
        "git": {"commit": _git("rev-parse", "HEAD"), "dirty": None if status is None else bool(status)},
        "host": {"platform": platform.platform(), "cpu": _cpu_name(), "cpus": len(os.sched_getaffinity(0)),
                 "torch_threads": torch.get_num_threads(), "load_average_start": os.getloadavg()[0],
                 "gpu": torch.cuda.get_device_name() if args.device == "cuda" else None,
                 "cuda": torch.version.cuda if args.device == "cuda" else None},
    }


def _title(meta):
    autocast = f" under autocast to {meta['autocast']}" if meta.get("autocast") else ""
    return (f"{meta['suite']} suite ({meta['size']} size), {meta['device']}, {meta['dtype']}{autocast}, "
            f"{'training' if meta['train'] else 'inference'}")


def write_markdown(path: Path, rows, meta):
    lines = [f"# kiln bench: {_title(meta)}", "",
             f"`{meta['command']}`, {meta['started']}, {meta.get('wall_s', 0):.0f} s", ""]
    lines += [f"- {key}: {json.dumps(meta[key])}" for key in ("versions", "git", "host")]
    lines += ["", "| " + " | ".join(header for header, _, _, _ in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(row).replace("|", "\\|") for _, _, cell, _ in COLUMNS) + " |" for row in rows]
    lines += [""] + [f"- {line}" for line in summary_lines(rows)]
    lines += [""] + unreliable_lines(rows) + ["", "Columns:", ""] + [f"- {line}" for line in legend_lines()]
    path.write_text("\n".join(lines) + "\n")


def plot_speedups(path: Path, rows, meta) -> bool:
    """Bar chart of speedup over eager per workload and backend; False if matplotlib is missing."""
    try:
        import matplotlib
        import matplotlib.ticker
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    workloads = list(dict.fromkeys(row["workload"] for row in rows))
    backends = list(geomean_speedups(rows))
    speedup = {(row["workload"], row["backend"]): row["speedup"] if row["ok"] else None for row in rows}
    width = 0.8 / max(1, len(backends))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.4 + len(workloads) * (0.3 + 0.25 * len(backends))), 4.5))
    for i, backend in enumerate(backends):
        heights = [speedup.get((w, backend)) or math.nan for w in workloads]
        xs = [x + (i - (len(backends) - 1) / 2) * width for x in range(len(workloads))]
        bars = ax.bar(xs, heights, width, label=backend)
        ax.bar_label(bars, ["" if math.isnan(h) else f"{h:.2f}" for h in heights], fontsize=7)
        for x, h in zip(xs, heights):
            if math.isnan(h):
                ax.text(x, 1.0, "failed", rotation=90, ha="center", va="bottom", fontsize=7, color="red")
    ax.axhline(1.0, color="gray", linewidth=1, linestyle="--")  # eager
    ax.set_yscale("log")
    # plain numbers on the log axis ("4", "0.5"), not matplotlib's "4×10⁰"; minor ticks labelled at 2 and 5 only
    label = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
    ax.yaxis.set_major_formatter(label)
    ax.yaxis.set_minor_formatter(matplotlib.ticker.FuncFormatter(
        lambda v, _: f"{v:g}" if f"{v:.0e}"[0] in "25" else ""))
    ax.set_xticks(range(len(workloads)), workloads, rotation=30, ha="right")
    ax.set_ylabel("speedup over eager (log scale)")
    ax.set_title(f"kiln bench: {_title(meta)}")
    ax.legend()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return True


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="kiln bench", description="Compile a suite of workloads with several backends; check and time them.",
        epilog="Writes OUT/results.json, OUT/results.md, OUT/speedup.png and the workers' logs in OUT/logs. "
               "Exit status 1 if any row failed.")
    parser.add_argument("--suite", choices=SUITES, default="quick",
                        help="quick: the design documents' examples sized for a 2-core CPU (default); gpu: the "
                             "same, sized to fill an H100; models: real transformers/timm architectures with "
                             "random weights (kiln.tools.models; small configs on the CPU, full ones on CUDA)")
    parser.add_argument("--workloads", help=f"comma-separated, instead of the suite's; any of {', '.join(WORKLOADS)}")
    parser.add_argument("--size", choices=["tiny", "quick", "gpu"], help="size preset (default: the suite's)")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--backends", default="eager,inductor,kiln",
                        help="comma-separated: eager (the baseline, always run), kiln, or any torch.compile "
                             "backend such as inductor or aot_eager (default: %(default)s)")
    parser.add_argument("--dtype", choices=["float32", "bfloat16", "float16"],
                        help="default: float32 on the CPU, bfloat16 on CUDA")
    parser.add_argument("--train", action="store_true", help="run forward and backward of a loss, not inference")
    parser.add_argument("--amp", dest="autocast", action="store_const", const="bfloat16",
                        help="mixed precision: float32 weights, the forward under torch.autocast to bfloat16")
    parser.add_argument("--out", type=Path, default=Path("out/bench"), help="output directory (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds before a worker is stopped (%(default)s)")
    args = parser.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        parser.error(f"--device cuda needs a CUDA GPU, and torch.cuda.is_available() is False "
                     f"(torch {torch.__version__}, built for CUDA {torch.version.cuda or 'none'}); use --device cpu")
    suite_size = SUITES[args.suite][1]
    names = suite_workloads(args.suite)   # (registers the real models for the models suite)
    args.workloads = args.workloads.split(",") if args.workloads else names
    unknown = [name for name in args.workloads if name not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workloads {unknown}; expected some of {list(WORKLOADS)}")
    args.size = args.size or suite_size or ("gpu" if args.device == "cuda" else "quick")
    if args.autocast and args.dtype not in (None, "float32"):
        parser.error("--amp keeps float32 weights; leave --dtype out")
    args.dtype = args.dtype or ("bfloat16" if args.device == "cuda" and not args.autocast else "float32")
    args.backends = ["eager"] + [b for b in args.backends.split(",") if b and b != "eager"]
    if len(args.backends) == 1:
        parser.error("name a backend to compare with eager, e.g. --backends inductor")
    return args


def main_bench(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    (args.out / "logs").mkdir(parents=True, exist_ok=True)
    meta = metadata(args, argv)
    start, rows, done = time.perf_counter(), [], []
    live = sys.stderr.isatty()

    def progress(text):  # one status line on the terminal, rewritten in place
        if live:
            print(f"\r\033[K[{len(done)}/{len(args.workloads)}] {text}", end="", file=sys.stderr, flush=True)

    print(f"kiln bench: {_title(meta)}; {', '.join(args.workloads)} with {', '.join(args.backends)}")
    host = meta["host"]
    if args.device == "cpu" and host["load_average_start"] > host["cpus"] / 2:
        print(f"note: load average {host['load_average_start']:.1f} on {host['cpus']} CPUs; other work competes "
              "for them, so CPU timings will be noisy")
    print(table_line([header for header, _, _, _ in COLUMNS]))
    with tempfile.TemporaryDirectory(prefix="kiln-bench-") as cache_root:
        for name in args.workloads:
            workload_rows = bench_workload(name, args, Path(cache_root), progress)
            done.append(name)
            if live:
                print("\r\033[K", end="", file=sys.stderr)
            for row in workload_rows:
                print(table_line([cell(row) for _, _, cell, _ in COLUMNS]), flush=True)
            rows += workload_rows
            meta["wall_s"] = time.perf_counter() - start
            host["load_average_end"] = os.getloadavg()[0]
            (args.out / "results.json").write_text(json.dumps({"metadata": meta, "rows": rows}, indent=1))
            write_markdown(args.out / "results.md", rows, meta)
    print("\n".join(summary_lines(rows) + unreliable_lines(rows) + ["columns:"]
                    + [f"  {line}" for line in legend_lines()]))
    plotted = plot_speedups(args.out / "speedup.png", rows, meta)
    print(f"{meta['wall_s']:.0f} s; wrote {args.out}/results.json, results.md"
          + (", speedup.png" if plotted else " (no speedup.png: matplotlib is not installed)"))
    return 0 if all(row["ok"] for row in rows) else 1

