"""Turns a scheduled graph into a callable: kernel source for the target, its build, and the wrapper."""
import dataclasses
import functools
import hashlib
import itertools
import linecache
import time
import weakref

import sympy
import torch

from kiln import ir
from kiln.config import warn_once
from kiln.logs import output_code_logger
from kiln.runtime.profile import KernelProfiler
from kiln.runtime.wrapper import WrapperCode, base_globals, graph_device, index_globals
from kiln.scheduler import Kernel

output_code_log = output_code_logger()
wrapper_numbers = itertools.count()


@dataclasses.dataclass
class Artifact:
    """What a graph compiles to, as data: the kernels' source and what loading them needs, the wrapper's source
    and the objects it names. `load` turns it into the callable; the graph cache stores it."""
    name: str
    target: str                 # "cpp" or "triton"
    kernel_source: str
    kernels: dict               # cpp: {function: (buffers, symbols)}; triton: {function: (text, warps, warmups,
    #                             stages: None for Triton's default)}
    special_functions: bool     # cpp: links the special-function library
    wrapper_source: str
    consts: dict                # the objects the wrapper's source names, beyond wrapper.base_globals()
    index_checks: tuple | None  # for wrapper.index_globals
    kernel_count: int
    output_strides: list = None  # a forward graph's outputs' strides, reported to AOTAutograd for the backward
    activations_from: int = None  # a training forward's first output saved for the backward alone
    extern_calls: int = 0
    fallback_ops: int = 0
    devices: tuple = ()         # the device types of the graph's buffers (a CUDA graph would not replay CPU work)
    placed: tuple = ()          # the inputs that tell its call sites apart (runtime.cuda_graphs.placed_inputs)
    read_in_storage: tuple = ()   # the inputs it reads beyond their elements (lowering.views.lower_as_strided)
    relaid: dict = dataclasses.field(default_factory=dict)   # made from frozen constants (GraphLowering.relaid)
    products: list = dataclasses.field(default_factory=list)   # triton: kiln's matmul's launches (matmul_warmups)
    calls_blas: bool = False    # cpp: calls BLAS for library products, bound at load (codegen.cpp_products)
    planned: tuple = ()         # triton: (device, arguments) of each convolution_backward, planned at load

    def named(self, name):
        """This artifact for the graph named name (its wrapper's header, its error messages)."""
        header = f"# kiln wrapper for {self.name}\n"
        source = f"# kiln wrapper for {name}\n" + self.wrapper_source.removeprefix(header)
        return dataclasses.replace(self, name=name, wrapper_source=source)


@dataclasses.dataclass
class CompiledModule:
    call: object
    kernel_count: int
    distinct_kernels: int
    wrapper_source: str
    kernel_source: str
    code: object = None         # the wrapper's compiled source
    scope: dict = None          # the objects it names, its kernels' launchers among them

    def bound_to(self, counterparts):
        """The wrapper's call where each object it names is replaced by counterparts[id(object)] where that is given
        (the constants of another set of frozen parameters, kiln.freezing): the same kernels."""
        scope = {name: counterparts.get(id(value), value) for name, value in self.scope.items()}
        exec(self.code, scope)
        # (popped: the call and its globals would hold each other, its constants freed by the collector alone)
        return scope.pop("call")


def build_cpp(lowering, sched, opts, name, trace):
    from kiln.codegen import cpp, cpp_ops, cpp_products
    if opts.tunes:
        warn_once(f"kiln: mode={opts.mode!r} tunes Triton kernels; C++ kernels keep their default loops "
                  "(on the CPU the mode equals the default)")
    kernels = [s for s in sched.steps if isinstance(s, Kernel)]
    source, signatures, texts = cpp.generate_module(kernels, lowering)
    for k in kernels:
        trace.stage("kernel", texts[k.name] + "\n", filename=f"{k.name}.cpp")
    products = {s.name: call for s in sched.steps if isinstance(s, ir.ExternKernel)
                and (call := cpp_products.product_call(s)) is not None}
    for step, (_, text, _) in products.items():
        trace.stage("kernel", text + "\n", filename=f"{step}.cpp")
    if products:   # (the library products' functions, in the same module)
        # one definition per function: the products of one body (named by its hash) from different ops differ in
        # the comment naming their ops (a linear and a 1x1 convolution lowered as a product: a build error)
        definitions = {}
        for function, text, _ in products.values():
            definitions.setdefault(function, text)
        source = cpp_products.declarations() + source + "".join("\n" + text + "\n" for text in definitions.values())
    signatures.update({step: (function, buffers, []) for step, (function, _, buffers) in products.items()})

    def call(function, buffers, symbols):
        return f"{function}({', '.join([f'{b}.data_ptr()' for b in buffers] + symbols)})"

    def launch(k):
        return call(*signatures[k.name])
    runs = {}   # a run's function -> (its text, its pointers' count, its symbols)

    def merge(steps, holder):
        function, text, pointers, symbols = cpp.run_function([signatures[s.name] for s in steps], holder,
                                                             lowering.buffer_dtype)
        runs[function] = (text, len(pointers), symbols)
        return call(function, pointers, symbols)
    artifact, profiler = wrapped(lowering, sched, name, trace, launch, "cpp", source,
                                 {f: (b, s) for f, b, s in signatures.values()}, kernels,
                                 {n: b for n, (_, b, _) in signatures.items()}, opts.trace_profile,
                                 special_functions=bool(kernels) and cpp_ops.uses_special_functions(texts.values()),
                                 launched_externs=set(products), merge=merge)
    artifact.calls_blas = bool(products)
    artifact.kernel_source += "".join(f"\n{text}\n" for text, _, _ in runs.values())
    artifact.kernels.update({f: ([None] * count, symbols) for f, (_, count, symbols) in runs.items()})
    return artifact, profiler


def dependent_launch(opts, device):
    """Whether a graph's Triton kernels launch as programmatic dependents: asked for, and its GPU takes it."""
    from kiln.runtime.triton_launch import dependent_launch_supported
    return opts.dependent_launch and device.type == "cuda" and dependent_launch_supported(device.index)


def build_triton(lowering, sched, opts, name, trace):
    from kiln.codegen import triton
    from kiln.runtime.wrapper import pyexpr
    kernels = [s for s in sched.steps if isinstance(s, Kernel)]
    device, configs = graph_device(lowering), {}
    if opts.tunes:
        from kiln.runtime import autotune
        configs = autotune.tune(kernels, lowering, device, opts.kernel_cache_dir, opts.debug)
        autotune.choose_matmuls(sched.steps, lowering, device, opts.kernel_cache_dir)
        autotune.fuse_products(sched.steps, lowering, device, opts.kernel_cache_dir, configs)
    source, launches, texts = triton.generate_module(kernels, lowering, configs, dependent_launch(opts, device))
    for k in kernels:
        trace.stage("kernel", texts[k.name] + "\n", filename=f"{k.name}.py")
    built = {}   # function -> (text, warps, the distinct warmups of its launches: (device, arguments), stages)
    for k in kernels:
        info = launches[k.name]
        warmups = built.setdefault(info["function"], (texts[k.name], info["num_warps"], [], info["num_stages"]))[2]
        args = triton.warmup_args(info, lowering)
        if args is not None and (device.index, args) not in warmups:
            warmups.append((device.index, args))

    def launch(k):
        grid, args = triton.launch_call(launches[k.name], pyexpr)
        return f"{launches[k.name]['function']}({grid}, {', '.join(args)})"
    artifact, profiler = wrapped(lowering, sched, name, trace, launch, "triton", source, built, kernels,
                                 {n: info["buffers"] for n, info in launches.items()}, opts.trace_profile)
    artifact.products = matmul_warmups(sched.steps, lowering, device)
    if device.type == "cuda":
        from kiln.runtime.library_plans import planned_calls
        artifact.planned = planned_calls(sched.steps, lowering)
    return artifact, profiler


def matmul_warmups(steps, lowering, device):
    """(configuration, device index, arguments as Triton's warmup takes them) of each distinct launch of kiln's
    Triton matmul that the wrapper makes in place of a library product (a head with misaligned rows; max-autotune's
    choices), at the graph's size hints: built ahead with the graph's kernels, not at the first call. Not for an
    operand at a storage offset off 16 bytes: Triton's warmup takes every pointer as aligned, so that build would
    not be the one its call launches."""
    from kiln.runtime.autotune import hinted
    from kiln.runtime.matmul import TritonMatmul
    found = []
    for step in steps:
        if not isinstance(step, ir.ExternKernel) or not isinstance(step.target, TritonMatmul):
            continue
        layouts = [hinted(lowering, a) for a in step.args]
        if None in layouts or any(offset * a.buffer.layout.dtype.itemsize % 16
                                  for (_, _, offset), a in zip(layouts, step.args)):
            continue
        operands = [torch.empty_strided(sizes, strides, dtype=a.buffer.layout.dtype, device="meta")
                    for (sizes, strides, _), a in zip(layouts, step.args)]
        warmup = (step.target.config, device.index, step.target.build_args(*operands)[1])
        if warmup not in found:
            found.append(warmup)
    return found


def wrapped(lowering, sched, name, trace, launch, target, kernel_source, built, kernels, kernel_args, trace_profile,
            special_functions=False, launched_externs=frozenset(), merge=None):
    """The Artifact of a graph: the Python wrapper around its launches, generated."""
    profiler = None
    if trace.enabled:
        ext = ".cpp" if target == "cpp" else ".py"
        table = trace_kernels(trace, lowering, sched, kernel_args, ext)
        if trace_profile and table:
            device = next(b.layout.device.type for b in lowering.graph_inputs if hasattr(b, "layout"))
            profiler = KernelProfiler(trace, table, device)
    code = WrapperCode(lowering, sched, launch, name, profiler is not None, launched_externs, merge)
    source = f"# kiln wrapper for {name}\n" + code.generate()
    trace.stage("wrapper", source)
    artifact = Artifact(name, target, kernel_source, built, special_functions, source, code.globals,
                        code.index_checks, len(kernels))
    return artifact, profiler


def load(artifact, opts, times, profiler=None, generated=True):
    """The callable of an Artifact: its kernels built or found in the kernel caches, and its wrapper.
    generated: the artifact was just generated (not loaded from the graph cache), so its kernels are likely new."""
    started = time.perf_counter()
    kernel_fns = load_cpp(artifact, opts) if artifact.target == "cpp" else load_triton(artifact, opts, generated)
    times["build"] = time.perf_counter() - started
    if profiler is not None:
        kernel_fns["_profile"] = profiler
    source, name = artifact.wrapper_source, artifact.name
    named = {**base_globals(), **artifact.consts, **index_globals(name, artifact.index_checks), **kernel_fns}
    filename = f"<kiln wrapper {name} #{next(wrapper_numbers)}>"
    code, scope = compile(source, filename, "exec"), dict(named)
    exec(code, scope)
    # Tracebacks, profilers and CUDA memory snapshots show the wrapper's lines while the wrapper lives
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    weakref.finalize(scope["call"], linecache.cache.pop, filename, None)
    output_code_log.debug("kiln output code for %s:\n# kernels (%s)\n%s\n%s", name, artifact.target,
                          artifact.kernel_source, source)
    return CompiledModule(scope["call"], artifact.kernel_count, len(artifact.kernels), source, artifact.kernel_source,
                          code, named)


def load_cpp(artifact, opts):
    from kiln.runtime import cpp_build
    if not artifact.kernels:
        return {}
    link = []   # (codegen's modules imported only where needed: a warm start loads built kernels, ~25 ms of imports)
    if artifact.special_functions:
        from kiln.codegen import cpp_ops
        link = cpp_build.special_library(cpp_ops.special_library_source(), opts.kernel_cache_dir)
    signatures = artifact.kernels
    if artifact.calls_blas:
        from kiln.codegen import cpp_products
        signatures = {**signatures, cpp_products.BIND: ([None] * len(cpp_products.BLAS), [])}
    fns = cpp_build.load(artifact.kernel_source, opts.kernel_cache_dir, signatures, link)
    if artifact.calls_blas:
        cpp_products.bind_blas(fns)
    return fns


def load_triton(artifact, opts, generated):
    """The Launchers of an artifact's kernels, returned while their kernels build in the background (a kernel's first
    launch waits for that), with kiln's Triton matmul's launches where the graph was just generated. Those of a
    graph loaded from the graph cache launch the binaries stored by an earlier process where it has them
    (triton_binaries), and the kernel module runs only where one has none."""
    from kiln.runtime import cuda_graphs, matmul
    from kiln.runtime.triton_binaries import BinaryStore
    from kiln.runtime.triton_launch import (build_behind, interpreting, jit_options, launcher, load_c_launcher,
                                            load_module, waits_for_prior)
    if artifact.planned and not opts.tunes and opts.mode not in cuda_graphs.MODES and not interpreting():
        from kiln.runtime.library_plans import plan_ahead
        plan_ahead(artifact.planned)   # (not where graphs are recorded: a capture must see no other work)
    if not artifact.kernels and not artifact.products:
        return {}
    module = functools.cache(functools.partial(load_module, artifact.kernel_source, opts.kernel_cache_dir))
    module_key = hashlib.sha256(artifact.kernel_source.encode()).hexdigest()
    fns = {f: launcher(module, f, text, num_warps, opts.debug, None if interpreting() else
                       BinaryStore(opts.kernel_cache_dir, module_key, f,
                                   jit_options(num_warps, opts.debug, stages, waits_for_prior(text))),
                       stages)
           for f, (text, num_warps, _, stages) in artifact.kernels.items()}
    if (generated or interpreting()) and artifact.kernels:
        # run here, where a module that fails to run fails the graph's load (which then runs eagerly), not inside
        # build_ahead, which leaves every failure to the kernel's first launch, in the user's call. A graph loaded
        # from the cache ran the same text when it was stored.
        module()
    if interpreting():
        return fns
    if not generated:
        load_c_launcher(opts.kernel_cache_dir)   # (once a process: the stored binaries launch through it)
    # built in the background: the kernels of a graph just generated, by the workers (they are likely new); of one
    # loaded, each kernel with none of its binaries stored for the device (a backward that never ran). One with some
    # is left to the JIT, at a launch none of them fits (building it ahead, ResNet-18's 5 such kernels ran the
    # kernel module and the JIT, 0.6 s of a 1.5 s warm start).
    warmups = [(fns[f], device, args) for f, (_, _, warmups, _) in artifact.kernels.items() for device, args in warmups
               if generated or not fns[f].load_stored(device)]
    if generated:   # (kiln's matmul, built in a process before, loads from Triton's cache at its first launch)
        warmups += [(matmul.launcher(config), device, args) for config, device, args in artifact.products]
    if generated or warmups:
        build_behind(warmups, opts.kernel_cache_dir, in_workers=generated)
    return fns


def known_bytes(sizes, dtype) -> int:
    """The bytes of a tensor of these sizes; 0 where a size is symbolic (the trace shows what is known)."""
    numel = sympy.sympify(sympy.prod(sizes))
    return int(numel) * dtype.itemsize if numel.is_number else 0


def trace_kernels(trace, lowering, sched, kernel_args, ext):
    """The after-fusion diagram and the kernel table (with the bytes each kernel must move)."""
    from kiln.codegen.cpp_products import product_flops
    kernel_of = {}
    for step in sched.steps:
        for n in (step.nodes if isinstance(step, Kernel) else []):
            kernel_of[n.name] = step.name
        if isinstance(step, Kernel) and step.product is not None:
            kernel_of[step.product.step.name] = step.name
    nodes = [{"name": b.name, "op": "input", "inputs": [], "kernel": None}
             for b in lowering.graph_inputs if hasattr(b, "layout")]
    for b in lowering.buffers:
        outputs = [o for o in getattr(b, "outputs", [b]) if o is not None]
        nodes.append({"name": outputs[0].name if outputs else b.name, "op": ", ".join(map(str, b.origins)),
                      "inputs": sorted(b.reads()), "kernel": kernel_of.get(b.name, b.name)})
    trace.graph("after", nodes)
    layouts = {b.name: b.layout for b in lowering.graph_inputs if hasattr(b, "layout")}
    layouts.update({o.name: o.layout for b in lowering.buffers for o in getattr(b, "outputs", [b]) if o is not None})
    table = []
    for step in sched.steps:
        if isinstance(step, Kernel):
            moved = [layouts[a] for a in kernel_args.get(step.name, ()) if a in layouts]   # (not the error flags)
            table.append({"name": step.name, "kind": "kernel", "fallback": False, "file": step.name + ext,
                          "bytes": sum(known_bytes(lay.sizes, lay.dtype) for lay in moved),
                          "source_ops": step.origins(), "nodes": [n.name for n in step.nodes]})
        else:   # a library call or an eager fallback: its operands as it sees them, and its outputs
            outputs = [o.layout for o in step.outputs if o is not None]
            table.append({"name": step.name, "kind": "extern", "fallback": step.fallback, "target": str(step.target),
                          "bytes": sum(known_bytes(r.sizes, r.buffer.layout.dtype)
                                       for r in ir.tensor_refs((step.args, list(step.kwargs.values()))))
                                   + sum(known_bytes(lay.sizes, lay.dtype) for lay in outputs),
                          "dtype": str(outputs[0].dtype).removeprefix("torch.") if outputs else None,
                          "source_ops": [str(o) for o in step.origins]})
            flops = product_flops(step)
            if flops is not None:
                table[-1]["flops"] = flops
    trace.kernels(table)
    return table
