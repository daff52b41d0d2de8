"""Turns a scheduled graph into a callable: kernel source for the target, its build, and the wrapper."""
import dataclasses
import itertools
import linecache
import weakref

import sympy

from kiln import ir
from kiln.logs import output_code_logger
from kiln.runtime.profile import KernelProfiler
from kiln.runtime.wrapper import WrapperCode
from kiln.scheduler import Kernel

output_code_log = output_code_logger()
wrapper_numbers = itertools.count()


@dataclasses.dataclass
class CompiledModule:
    call: object
    kernel_count: int
    wrapper_source: str
    kernel_source: str


def build_cpp(lowering, sched, opts, name, trace):
    from kiln.codegen import cpp
    from kiln.runtime import cpp_build
    kernels = [s for s in sched.steps if isinstance(s, Kernel)]
    source, signatures, texts = cpp.generate_module(kernels, lowering)
    for k in kernels:
        trace.stage("kernel", texts[k.name] + "\n", filename=f"{k.name}.cpp")
    fns = {}
    if kernels:
        link = cpp_build.special_library(cpp.special_library_source(), opts.kernel_cache_dir) \
            if cpp.uses_special_functions(texts.values()) else []
        fns = cpp_build.load(source, opts.kernel_cache_dir, signatures, link)

    def launch(k):
        buffers, symbols = signatures[k.name]
        return f"{k.name}({', '.join([f'{b}.data_ptr()' for b in buffers] + symbols)})"
    return finish(lowering, sched, name, trace, launch, fns, source, len(kernels),
                  {n: b for n, (b, _) in signatures.items()}, ".cpp", opts.trace_profile)


def build_triton(lowering, sched, opts, name, trace):
    from kiln.codegen import triton
    from kiln.runtime.triton_launch import Launcher, load_module
    from kiln.runtime.wrapper import pyexpr
    kernels = [s for s in sched.steps if isinstance(s, Kernel)]
    source, launches, texts = triton.generate_module(kernels, lowering)
    for k in kernels:
        trace.stage("kernel", texts[k.name] + "\n", filename=f"{k.name}.py")
    module = load_module(source, opts.kernel_cache_dir) if kernels else None
    fns = {k.name: Launcher(getattr(module, k.name), launches[k.name]["num_warps"], opts.debug) for k in kernels}

    def launch(k):
        grid, args = triton.launch_call(launches[k.name], pyexpr)
        return f"{k.name}({grid}, {', '.join(args)})"
    return finish(lowering, sched, name, trace, launch, fns, source, len(kernels),
                  {n: info["buffers"] for n, info in launches.items()}, ".py", opts.trace_profile)


def finish(lowering, sched, name, trace, launch, kernel_fns, kernel_source, count, kernel_args=None, ext="",
           trace_profile=False):
    """Generates and loads the Python wrapper around the launches."""
    profiled = False
    if trace.enabled:
        table = trace_kernels(trace, lowering, sched, kernel_args or {}, ext)
        if trace_profile and table:
            device = next(b.layout.device.type for b in lowering.graph_inputs if hasattr(b, "layout"))
            kernel_fns = dict(kernel_fns, _profile=KernelProfiler(trace, table, device))
            profiled = True
    code = WrapperCode(lowering, sched, launch, name, profiled)
    source = f"# kiln wrapper for {name}\n" + code.generate()
    trace.stage("wrapper", source)
    scope = dict(code.globals, **kernel_fns)
    filename = f"<kiln wrapper {name} #{next(wrapper_numbers)}>"
    exec(compile(source, filename, "exec"), scope)
    # Tracebacks, profilers and CUDA memory snapshots show the wrapper's lines while the wrapper lives
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    weakref.finalize(scope["call"], linecache.cache.pop, filename, None)
    output_code_log.debug("kiln output code for %s:\n# kernels (%s)\n%s\n%s", name, ext.lstrip(".") or "none",
                          kernel_source, source)
    return CompiledModule(scope["call"], count, source, kernel_source)


def known_bytes(sizes, dtype) -> int:
    """The bytes of a tensor of these sizes; 0 where a size is symbolic (the trace shows what is known)."""
    numel = sympy.sympify(sympy.prod(sizes))
    return int(numel) * dtype.itemsize if numel.is_number else 0


def trace_kernels(trace, lowering, sched, kernel_args, ext):
    """The after-fusion diagram and the kernel table (with the bytes each kernel must move)."""
    kernel_of = {}
    for step in sched.steps:
        for n in (step.nodes if isinstance(step, Kernel) else []):
            kernel_of[n.name] = step.name
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
    trace.kernels(table)
    return table
