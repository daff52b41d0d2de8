"""mode="max-autotune": each generated Triton kernel's launch configuration, and each float16/bfloat16 product's
implementation, chosen by timing at compile time.

- Kernels: every candidate configuration (Tiles.candidates: tile sizes and warps that keep the code's
  shape) is generated and built on the compile pool, then run on zero-filled buffers of the kernel's sizes and
  strides (a gathered index reads 0, always in bounds), allocated for one kernel at a time.
- Products (mm, addmm, bmm): the library call and each configuration of kiln's Triton matmul (runtime/matmul.py)
  run on random matrices of the product's sizes and strides, drawn from a generator of their own (the user's
  random stream is left as it was).
A candidate replaces the heuristic's configuration, or the library, only where it is 3% faster. Choices are stored
in the kernel cache by what determines them (the kernel's text, dtypes and sizes, the candidates, the GPU, the
versions of torch, Triton and kiln's matmul), so a warm start, or another graph with the same kernel, times nothing.
"""
import contextlib
import functools
import hashlib
import importlib.metadata
import json
import os
import statistics
import time
import warnings

import sympy
import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln import ir, launches
from kiln.logs import get_logger
from kiln.runtime.graph_cache import write_whole
from kiln.runtime.triton_launch import build_ahead, interpreting, launcher, load_module
from kiln.runtime.wrapper import index_flags

log = get_logger("autotune")
VERSION = 3
MARGIN = 0.97  # a candidate replaces the default where it takes less than this share of the default's time
TIMER = None   # tests: a function (run, choice) -> seconds, in place of timing run


def tune(kernels, graph, device, cache_dir, debug=False):
    """{kernel name: the launch configuration chosen} for the graph's kernels with a choice to make (a launch
    group's parts keep the heuristic's: they share one launch)."""
    with timing_on(device):
        return tune_kernels(kernels, graph, device, cache_dir, debug)


def choose_matmuls(steps, graph, device, cache_dir):
    """Each mm, addmm and bmm of the graph that kiln's Triton matmul can compute, timed in the library and in each
    of the matmul's configurations; where a configuration is faster, the step calls it instead of the library."""
    with timing_on(device):
        return choose_matmuls_timed(steps, graph, device, cache_dir)


def timing_on(device):
    """Real tensors (AOTAutograd compiles under its fake mode) on the graph's device, whatever device is current."""
    stack = contextlib.ExitStack()
    stack.enter_context(unset_fake_temporarily())
    if device.type == "cuda":
        stack.enter_context(torch.cuda.device(device))
    return stack


def tune_kernels(kernels, graph, device, cache_dir, debug):
    from kiln.codegen import triton as codegen
    from kiln.codegen.triton_tiles import Tiles
    started, chosen, trials, cached, heuristic = time.perf_counter(), {}, [], 0, {}
    for k in kernels:
        if isinstance(k, launches.LaunchGroup):
            continue
        options = Tiles(k, graph).candidates()
        if len(options) < 2:
            continue
        heuristic[k.name] = options[0]
        modules = [codegen.generate_module([k], graph, {k.name: c}) for c in options]
        key = choice_key(modules[0], k.name, graph, device, options)
        found = stored(cache_dir, key)
        if found in options:
            chosen[k.name], cached = found, cached + 1
            continue
        candidates = [candidate(source, facts[k.name], texts[k.name], graph, cache_dir, debug)
                      for source, facts, texts in modules]
        if None not in candidates:
            trials.append((k.name, key, options, candidates))
    build([(c.launch, c.warmup) for _, _, _, candidates in trials for c in candidates], device)
    for name, key, options, candidates in trials:
        buffers = {b: zeros(graph, b, device) for b in candidates[0].buffers}   # (one kernel's at a time)
        times = [measure(c.bound(buffers), config, device) for c, config in zip(candidates, options)]
        del buffers
        if all(t is None for t in times):
            continue
        best = chosen[name] = options[fastest(times)]
        store(cache_dir, key, best, times)
        log.debug("kiln max-autotune: %s: %s (XBLOCK, RBLOCK, persistent, warps) in %s", name, best,
                  ", ".join(f"{c}: {'failed' if t is None else f'{t * 1e6:.1f} us'}" for c, t in zip(options, times)))
    log.info("kiln max-autotune: %d kernels timed (%d configurations), %d from the tuning cache, %d moved from the "
             "heuristic's configuration, in %.2fs", len(trials), sum(len(o) for _, _, o, _ in trials), cached,
             sum(c != heuristic[name] for name, c in chosen.items()),
             time.perf_counter() - started)
    return chosen


def choose_matmuls_timed(steps, graph, device, cache_dir):
    from kiln.runtime import matmul
    started, timed, replaced = time.perf_counter(), 0, 0
    generator = torch.Generator(device=device).manual_seed(0)
    for step in steps:
        aten_op = product_of(step.target) if isinstance(step, ir.ExternKernel) and not step.fallback else None
        if aten_op is None or not all(isinstance(a, ir.TensorRef) for a in step.args):
            continue
        layouts = [hinted(graph, a) for a in step.args]
        if None in layouts or not matmul.applies(aten_op, [a.buffer.layout for a in step.args], step.kwargs):
            continue
        op = matmul.OPS[aten_op]
        (a_sizes, _, _), (b_sizes, _, _) = layouts[-2:]
        options = [None, *(matmul.TritonMatmul(op, c) for c in matmul.configs_for(a_sizes[-2], b_sizes[-1]))]
        dtype = step.args[0].buffer.layout.dtype
        key = digest([VERSION, str(step.target), layouts, dtype, step.kwargs, options, gpu_name(device), versions(),
                      matmul.SOURCE_DIGEST])
        found = stored(cache_dir, key)
        if found is None:   # (random matrices only where the product is timed)
            args = [random_like(layout, a.buffer.layout, generator) for layout, a in zip(layouts, step.args)]
            build([o.build_args(*args) for o in options[1:]], device)
            times = [measure(functools.partial(step.target if o is None else o, *args, **step.kwargs), o, device)
                     for o in options]
            found = (fastest(times),)
            store(cache_dir, key, found, times)
            timed += 1
        if 0 < found[0] < len(options):
            step.target, replaced = options[found[0]], replaced + 1
    if timed or replaced:
        log.info("kiln max-autotune: %d matmuls timed against the library, %d run as kiln's Triton matmul, in %.2fs",
                 timed, replaced, time.perf_counter() - started)


def fuse_products(steps, graph, device, cache_dir, configs):
    """Each mm and addmm that kiln's Triton matmul computes, whose result the next kernel reads
    (launches.product_consumers), is timed computed inside that kernel (launches.FusedProduct), in each tile
    configuration of kiln's matmul, against the product as chosen so far (the library or kiln's
    matmul) followed by the kernel in its tuned configuration; where a fused kernel is faster, it replaces both.
    configs: the kernels' tuned configurations (tune)."""
    with timing_on(device):
        fuse_products_timed(steps, graph, device, cache_dir, configs)


def fuse_products_timed(steps, graph, device, cache_dir, configs):
    from kiln.codegen import triton as codegen
    from kiln.codegen.triton_product import ProductNotFused
    from kiln.runtime import matmul
    outputs = {o.buffer.name for o in graph.graph_outputs if hasattr(o, "buffer")}
    started, timed, fused = time.perf_counter(), 0, 0
    generator = torch.Generator(device=device).manual_seed(0)
    for i, kernel, kept in reversed(launches.product_consumers(steps, outputs)):   # (fusing drops steps[i])
        step, refs = steps[i], steps[i].args
        aten_op = product_of(step.target)
        if aten_op not in (torch.ops.aten.mm.default, torch.ops.aten.addmm.default) or \
                not all(isinstance(a, ir.TensorRef) and static(a) for a in refs) or \
                not matmul.applies(aten_op, [a.buffer.layout for a in refs], step.kwargs):
            continue
        m, n = int(refs[-2].sizes[0]), int(refs[-1].sizes[1])
        if m * n == 0:   # (no program would run)
            continue
        options = ["apart", *(launches.FusedProduct(step, config, kept) for config in matmul.configs_for(m, n))]
        modules = []
        try:
            for option in options:
                kernel.product = None if option == "apart" else option
                modules.append(codegen.generate_module([kernel], graph, configs))
        except ProductNotFused as e:
            log.debug("kiln max-autotune: %s", e)
            continue
        except Exception as e:   # (a failure of this trial leaves the product apart, not the graph to eager)
            log.warning("kiln max-autotune: %s computed in %s failed to generate; they run apart: %s: %s",
                        step.target, kernel.name, type(e).__name__, e)
            continue
        finally:
            kernel.product = None
        names = modules[-1][1][kernel.name]["buffers"]   # (their dtypes: a float16 and a bfloat16 load read alike)
        key = digest([VERSION, [texts[kernel.name] for _, _, texts in modules], [hinted(graph, r) for r in refs],
                      [graph.buffer_dtype(b) for b in names],
                      [str(e) for e in (kernel.numel, kernel.rnumel)], str(step.target), [o.config for o in options[1:]],
                      gpu_name(device), versions(), matmul.SOURCE_DIGEST])
        found = stored(cache_dir, key)
        if found is None:
            candidates = [candidate(source, facts[kernel.name], texts[kernel.name], graph, cache_dir, False)
                          for source, facts, texts in modules]
            if None in candidates:
                continue
            build([(c.launch, c.warmup) for c in candidates], device)
            buffers = {b: zeros(graph, b, device) for c in candidates for b in c.buffers}
            for ref in refs:   # (random operands, as the library's products are timed)
                buffers[ref.buffer.name].normal_(generator=generator)
            apart = functools.partial(step.target, *(buffers[r.buffer.name].as_strided(
                [int(e) for e in r.sizes], [int(e) for e in r.strides], int(r.offset)) for r in refs), **step.kwargs)
            runs = [functools.partial(run_both, apart, candidates[0].bound(buffers)),
                    *(c.bound(buffers) for c in candidates[1:])]
            times = [measure(run, option, device) for run, option in zip(runs, options)]
            del buffers
            found = (fastest(times),)
            store(cache_dir, key, found, times)
            timed += 1
            log.debug("kiln max-autotune: %s and %s: %s", step.name, kernel.name, ", ".join(
                f"{o if o == 'apart' else 'tiles %sx%sx%s, %s stages, %s warps' % o.config}: "
                f"{'failed' if t is None else f'{t * 1e6:.1f} us'}" for o, t in zip(options, times)))
        if 0 < found[0] < len(options):
            launches.fuse_product(steps, i, options[found[0]].config, kept)
            fused += 1
    if timed or fused:
        log.info("kiln max-autotune: %d products timed inside the kernels that read them, %d fused there, in %.2fs",
                 timed, fused, time.perf_counter() - started)


def run_both(first, second):
    first()
    second()


def static(ref):
    return all(ir.is_static(e) for e in (*ref.sizes, *ref.strides, ref.offset))


def product_of(target):
    """The ATen product (mm, addmm, bmm) an extern's target computes where kiln's Triton matmul could compute it
    instead: the op called directly, through kiln's aligned-rows blocks (a head with misaligned rows, which a tile
    stores directly, where cuBLAS's aligned kernels need the blocks), or kiln's matmul already; else None."""
    from kiln.lowering.externs import aligned_rows_addmm, aligned_rows_mm
    from kiln.lowering.values import OpThen
    from kiln.runtime import matmul
    if isinstance(target, matmul.TritonMatmul):
        return next(o for o, name in matmul.OPS.items() if name == target.op)
    if isinstance(target, OpThen):
        return {aligned_rows_mm: torch.ops.aten.mm.default, aligned_rows_addmm: torch.ops.aten.addmm.default}.get(
            target.op)
    return target if target in matmul.OPS else None


class Candidate:
    """One configuration of one kernel: its launcher, its arguments by name, and what building it ahead takes."""

    def __init__(self, launch, grid, names, values, buffers):
        self.launch, self.grid, self.names, self.buffers = launch, grid, names, buffers
        self.warmup = values   # (buffers as their dtypes)

    def bound(self, buffers):
        """A callable launching this configuration on these buffers (its .func is the Launcher)."""
        return functools.partial(self.launch, self.grid,
                                 *[buffers[n] if n in self.buffers else v for n, v in zip(self.names, self.warmup)])


def candidate(source, info, text, graph, cache_dir, debug):
    """The Candidate of a one-kernel module's source; None where its sizes have no hint."""
    from kiln.codegen import triton as codegen
    warmup = codegen.warmup_args(info, graph)
    if warmup is None:
        return None
    grid, names = codegen.launch_call(info, lambda e: str(graph.size_hint(e)))
    fn = launcher(load_module(source, cache_dir), info["function"], text, info["num_warps"], debug,
                  num_stages=info["num_stages"])
    return Candidate(fn, eval(grid, {}), names, warmup, info["buffers"])


def zeros(graph, name, device):
    """A kernel buffer's stand-in: zeros spanning every element its layout reaches (at its size hints)."""
    if name == ir.INDEX_FLAGS:
        return index_flags(device)
    layout = graph.buffer(name).layout
    sizes, strides, offset = ([graph.size_hint(e) or 0 for e in es] for es in (layout.sizes, layout.strides,
                                                                              [layout.offset]))
    return torch.zeros(span(sizes, strides, offset[0]) + abs(offset[0]), dtype=layout.dtype, device=layout.device)


def hinted(graph, ref):
    """An extern argument's (sizes, strides, storage offset) at the graph's size hints; None where one has none."""
    sizes, strides = ([graph.size_hint(e) for e in es] for es in (ref.sizes, ref.strides))
    offset = graph.size_hint(ref.offset)
    return None if None in sizes or None in strides or offset is None else (tuple(sizes), tuple(strides), offset)


def random_like(layout, buffer_layout, generator):
    """Random values of the buffer's dtype and device, laid out as layout (sizes, strides, storage offset)."""
    sizes, strides, offset = layout
    data = torch.randn(span(sizes, strides, offset), device=buffer_layout.device, generator=generator)
    return data.to(buffer_layout.dtype).as_strided(sizes, strides, offset)


def span(sizes, strides, offset):
    """The elements from a strided layout's storage start to its last element, inclusive."""
    return abs(offset) + sum((n - 1) * abs(st) for n, st in zip(sizes, strides) if n > 0) + 1


def gpu_name(device):
    return torch.cuda.get_device_name(device) if device.type == "cuda" else "interpreter" if interpreting() else "cpu"


def versions():
    return torch.__version__, importlib.metadata.version("triton")


def digest(parts):
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def choice_key(module, name, graph, device, options):
    """What a kernel's choice depends on: its text at the heuristic's configuration, its buffers' dtypes, its sizes
    (N and R, which a static kernel's text may not name; symbols at their hints), the candidates, the GPU and the
    compilers."""
    _, facts, texts = module
    info = facts[name]
    sizes = [(s, graph.size_hint(sympy.Symbol(s))) for s in info["symbols"]] + [
        graph.size_hint(p[d]) for p in info["parts"] for d in ("numel", "rnumel")]
    dtypes = [graph.buffer_dtype(b) for b in info["buffers"]]
    return digest([VERSION, texts[name], dtypes, sizes, options, gpu_name(device), versions()])


def path_of(cache_dir, key):
    return os.path.join(cache_dir, "tuning", f"{key}.json")


def stored(cache_dir, key):
    try:
        with open(path_of(cache_dir, key)) as f:
            return tuple(json.load(f)["config"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(cache_dir, key, config, times):
    try:
        write_whole(path_of(cache_dir, key), json.dumps({"config": list(config), "seconds": times}))
    except OSError as e:   # a full disk, a read-only cache: the choice holds for this compile only
        log.warning("kiln max-autotune: a choice is not stored: %s", e)


def build(launches, device):
    """Every candidate built before any is timed, by the build workers (as a graph's new kernels are).
    launches: (Launcher, its arguments as Triton's warmup takes them)."""
    if not interpreting():
        build_ahead([(launch, device.index, args) for launch, args in launches], in_workers=True)


def measure(run, choice, device):
    """run's time in seconds (None where it fails to build or launch: that choice is not made)."""
    try:
        quietly(run)   # (a first launch: built, and any fault seen, before timing)
        if TIMER is not None:
            return TIMER(run, choice)
        if device.type == "cuda":
            return gpu_seconds(run)
        return min(quietly(run) for _ in range(3))   # Triton's interpreter: its wall time
    except Exception as e:
        log.debug("kiln max-autotune: %s failed: %s: %s", choice, type(e).__name__, e)
        return None


def gpu_seconds(run, launches=10, rounds=5):
    """run's GPU time, back to back as in a graph, where its buffers' recent writes sit in L2 (a cold-cache
    timing, which flushes L2 before each launch, chose no better: bench/NOTES.md 49). A sleeping kernel holds
    the GPU while the host queues the launches, so that host time is not counted."""
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


def fastest(times):
    """The index of the fastest time, where it beats the first (the heuristic's, or the library) by MARGIN; else 0:
    a choice within timing noise of the default is not worth a change."""
    timed = [(t, i) for i, t in enumerate(times) if t is not None]
    if not timed:
        return 0
    best, i = min(timed)
    return i if times[0] is None or best < MARGIN * times[0] else 0


def quietly(run):
    """run(), its wall time; the interpreter's numpy warnings of 0/0 on the zeros silenced."""
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        run()
    return time.perf_counter() - start
