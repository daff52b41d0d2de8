"""mode="max-autotune": each generated Triton kernel's launch configuration chosen by timing.

At compile time, every kernel's candidate configurations (TritonKernel.candidates: tile sizes and warps that keep
the code's shape) are generated, built together on the compile pool, and each is run on zero-filled buffers of
the kernel's sizes and strides (a gathered index reads 0, always in bounds). The fastest is kept. Choices are
stored on disk by what determines them (the kernel's text, its sizes, the GPU, Triton's version), so a warm
start, or another graph with the same kernel, times nothing.
"""
import hashlib
import importlib.metadata
import json
import os
import tempfile
import statistics
import time
import warnings

import sympy
import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln import ir
from kiln.logs import get_logger
from kiln.scheduler import LaunchGroup

log = get_logger("autotune")
VERSION = 1
TIMER = None   # tests: a function (run, config) -> seconds, in place of timing run


def tune(kernels, graph, device, cache_dir, debug=False):
    """{kernel name: the configuration timed fastest} for the graph's kernels with a choice to make (a launch
    group's parts keep the heuristic's: they share one launch)."""
    with unset_fake_temporarily():   # (AOTAutograd compiles under its fake mode; the timed buffers are real)
        return tune_unfaked(kernels, graph, device, cache_dir, debug)


def tune_unfaked(kernels, graph, device, cache_dir, debug):
    from kiln.codegen import triton as codegen
    started, chosen, trials, cached = time.perf_counter(), {}, [], 0
    for k in kernels:
        if isinstance(k, LaunchGroup):
            continue
        options = codegen.TritonKernel(k, graph).candidates()
        if len(options) < 2:
            continue
        modules = [codegen.generate_module([k], graph, {k.name: c}) for c in options]
        key = choice_key(modules[0], k.name, graph, device, options)
        found = stored(cache_dir, key)
        if found in options:
            chosen[k.name], cached = found, cached + 1
        else:
            trials.append((k.name, key, options, modules))
    launches = [[candidate(source, launches[name], texts[name], graph, cache_dir, debug)
                 for source, launches, texts in modules]
                for name, _, _, modules in trials]
    build([c for per_kernel in launches for c in per_kernel if c is not None], device)
    for (name, key, options, _), runs in zip(trials, launches):
        times = [measure(run, config) for run, config in zip(runs, options)]
        if all(t is None for t in times):
            continue
        best = chosen[name] = options[fastest(times)]
        store(cache_dir, key, best, times)
        log.debug("kiln max-autotune: %s: %s (XBLOCK, RBLOCK, persistent, warps) in %s", name, best,
                  ", ".join(f"{c}: {'failed' if t is None else f'{t * 1e6:.1f} us'}" for c, t in zip(options, times)))
    log.info("kiln max-autotune: %d kernels timed (%d configurations), %d from the tuning cache, %d moved from the "
             "heuristic's configuration, in %.2fs", len(trials), sum(len(o) for _, _, o, _ in trials), cached,
             sum(c != codegen.TritonKernel(k, graph).config() for k in kernels if (c := chosen.get(k.name))),
             time.perf_counter() - started)
    return chosen


def choose_matmuls(steps, graph, device, cache_dir):
    """Each mm, addmm and bmm of the graph that kiln's Triton matmul can compute (runtime/matmul.py) timed in
    the library and in each of the matmul's configurations, on random matrices of its sizes and strides; where a
    configuration is faster, the step calls it instead of the library."""
    with unset_fake_temporarily():
        return choose_matmuls_unfaked(steps, graph, device, cache_dir)


def choose_matmuls_unfaked(steps, graph, device, cache_dir):
    from kiln.runtime import matmul
    started, timed, replaced = time.perf_counter(), [], 0
    for step in steps:
        if not isinstance(step, ir.ExternKernel) or step.fallback or step.target not in matmul.OPS:
            continue
        args = [random_like(graph, a) if isinstance(a, ir.TensorRef) else a for a in step.args]
        if any(a is None for a in args) or not matmul.applies(step.target, args, step.kwargs):
            continue
        op = matmul.OPS[step.target]
        rows, columns = args[-2].shape[-2], args[-1].shape[-1]
        options = [None, *(matmul.TritonMatmul(op, c) for c in matmul.configs_for(rows, columns))]
        key = hashlib.sha256(repr([VERSION, op, [(tuple(a.shape), a.stride(), a.storage_offset(), a.dtype)
                                                 for a in args], step.kwargs, options, gpu_name(device),
                                   importlib.metadata.version("triton")]).encode()).hexdigest()[:32]
        found = stored(cache_dir, key)
        if found is None:
            runs = [MatmulRun(step.target if o is None else o, args, step.kwargs) for o in options]
            build(list(filter(None, (r.candidate() for r in runs))), device)
            times = [measure(run, option) for run, option in zip(runs, options)]
            found = (fastest(times),)
            store(cache_dir, key, found, times)
            timed.append(step.name)
        if 0 < found[0] < len(options):
            step.target, replaced = options[found[0]], replaced + 1
    if timed or replaced:
        log.info("kiln max-autotune: %d matmuls timed against the library, %d run as kiln's Triton matmul, in %.2fs",
                 len(timed), replaced, time.perf_counter() - started)


class MatmulRun:
    """One way of computing a product, on random matrices."""

    def __init__(self, fn, args, kwargs):
        self.fn, self.args, self.kwargs = fn, args, kwargs

    def __call__(self):
        self.fn(*self.args, **self.kwargs)

    def candidate(self):
        """The kernel's launch with its warmup arguments (to build it ahead), or None for the library."""
        from kiln.runtime import matmul
        if not isinstance(self.fn, matmul.TritonMatmul):
            return None
        a, b, bias = (self.args[1], self.args[2], self.args[0]) if self.fn.op == "addmm" else (*self.args, None)
        out = torch.empty((*a.shape[:-1], b.shape[-1]), dtype=a.dtype, device=a.device)
        _, args = matmul.launch_args(a, b, bias, out, self.fn.config)
        return Candidate(matmul.launcher(self.fn.config), 1, args,
                         [t.dtype if isinstance(t, torch.Tensor) else t for t in args])


def random_like(graph, ref):
    """Random values laid out as an extern's argument (None where a size has no hint)."""
    sizes, strides = ([graph.size_hint(e) for e in es] for es in (ref.sizes, ref.strides))
    offset = graph.size_hint(ref.offset)
    if None in sizes or None in strides or offset is None:
        return None
    layout = ref.buffer.layout
    span = offset + sum((n - 1) * abs(st) for n, st in zip(sizes, strides) if n > 0) + 1
    data = torch.randn(span, device=layout.device).to(layout.dtype) if layout.dtype.is_floating_point else \
        torch.zeros(span, dtype=layout.dtype, device=layout.device)
    return data.as_strided(sizes, strides, offset)


def gpu_name(device):
    from kiln.codegen.triton import interpreting
    return torch.cuda.get_device_name(device) if device.type == "cuda" else "interpreter" if interpreting() else "cpu"


def choice_key(module, name, graph, device, options):
    """What the choice depends on: the kernel's text at its heuristic configuration, its sizes where the graph
    has symbols (at their hints), the candidates, the GPU and the compiler."""
    source, launches, texts = module
    info = launches[name]
    sizes = [(s, graph.size_hint(sympy.Symbol(s))) for s in info["symbols"]]
    parts = [VERSION, texts[name], sizes, options, gpu_name(device), importlib.metadata.version("triton")]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def path_of(cache_dir, key):
    return os.path.join(cache_dir, "tuning", f"{key}.json")


def stored(cache_dir, key):
    try:
        with open(path_of(cache_dir, key)) as f:
            return tuple(json.load(f)["config"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(cache_dir, key, config, times):
    folder = os.path.dirname(path_of(cache_dir, key))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump({"config": list(config), "seconds": times}, f)
    os.replace(tmp, path_of(cache_dir, key))


class Candidate:
    """One configuration of one kernel, launchable on buffers of zeros."""

    def __init__(self, launch, grid, args, warmup):
        self.launch, self.grid, self.args, self.warmup = launch, grid, args, warmup

    def __call__(self):
        self.launch(self.grid, *self.args)


def candidate(source, info, text, graph, cache_dir, debug):
    """The Candidate of a one-kernel module's source; None where its sizes have no hint."""
    from kiln.codegen import triton as codegen
    from kiln.runtime.triton_launch import launcher, load_module
    warmup = codegen.warmup_args(info, graph)
    if warmup is None:
        return None
    grid, names = codegen.launch_call(info, lambda e: str(graph.size_hint(e)))
    buffers = {b: zeros(graph, b) for b in info["buffers"]}
    args = [buffers[n] if n in buffers else value for n, value in zip(names, warmup)]
    fn = launcher(load_module(source, cache_dir), info["function"], text, info["num_warps"], debug)
    return Candidate(fn, eval(grid, {}), args, warmup)


def zeros(graph, name):
    """A buffer's stand-in: zeros spanning every element its strides reach (at its size hints)."""
    if name == ir.INDEX_FLAGS:
        return torch.tensor([0, 0, 0, 1], dtype=torch.int64, device=graph_device_of(graph))
    layout = graph.buffer(name).layout
    hint = lambda e: graph.size_hint(e) or 0   # noqa: E731
    span = abs(hint(layout.offset)) + sum((hint(n) - 1) * abs(hint(s)) for n, s in zip(layout.sizes, layout.strides)
                                          if hint(n) > 0) + 1
    return torch.zeros(span + abs(hint(layout.offset)), dtype=layout.dtype, device=layout.device)


def graph_device_of(graph):
    from kiln.runtime.wrapper import graph_device
    return graph_device(graph)


def build(candidates, device):
    """Every candidate built before any is timed, on the compile pool (as a graph's kernels are)."""
    from kiln.codegen.triton import interpreting
    from kiln.runtime.triton_launch import build_ahead
    if not interpreting():
        build_ahead([(c.launch, device.index, c.warmup) for c in candidates])


def measure(run, config):
    """run's time in seconds (None where it fails to build or launch: that configuration is not chosen)."""
    if run is None:
        return None
    try:
        quietly(run)   # (a first launch: built, and any fault seen, before timing)
        if TIMER is not None:
            return TIMER(run, config)
        if any(isinstance(a, torch.Tensor) and a.is_cuda for a in run.args):
            return gpu_seconds(run)
        return min(quietly(run) for _ in range(3))   # the interpreter: its wall time
    except Exception as e:
        log.debug("kiln max-autotune: configuration %s failed: %s: %s", config, type(e).__name__, e)
        return None


def gpu_seconds(run, launches=10, rounds=5):
    """run's GPU time, back to back as in a graph, where its buffers' recent writes sit in L2 (a cold-cache
    timing, which flushes L2 before each launch, chose configurations that ran 1-6% slower in the models). A
    sleeping kernel holds the GPU while the host queues the launches, so that host time is not counted."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(rounds):
        torch.cuda._sleep(1_000_000)
        start.record()
        for _ in range(launches):
            run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3 / launches)
    return statistics.median(times)


def fastest(times, margin=0.97):
    """The index of the fastest time, where it beats the first (the heuristic's, or the library) by the margin;
    else 0: a choice within timing noise of the default is not worth a change."""
    timed = [(t, i) for i, t in enumerate(times) if t is not None]
    if not timed:
        return 0
    best, i = min(timed)
    return i if times[0] is None or best < margin * times[0] else 0


def quietly(run):
    """run(), its wall time; the interpreter's numpy warnings of 0/0 on the zeros silenced."""
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        run()
    return time.perf_counter() - start
