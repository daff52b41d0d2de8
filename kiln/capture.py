"""Capture: kiln as a torch.compile backend.

TorchDynamo hands us an FX graph; AOTAutograd turns it into forward/backward ATen graphs
(decomposed, functionalized, partitioned by min-cut rematerialization), and each ATen graph goes
through lowering -> scheduling -> codegen -> wrapper in `compile_graph`.
"""
import collections
import contextlib
import copy
import functools
import gc
import itertools
import logging
import operator
import subprocess
import sys
import threading
import time

import torch
from torch._dynamo.exc import RestartAnalysis
from torch._dynamo.utils import counters, flatten_graph_inputs
from torch._functorch import config as functorch_config
from torch._functorch.aot_autograd import aot_module_simplified, make_boxed_func
from torch._functorch.partitioners import min_cut_rematerialization_partition
from torch.multiprocessing.reductions import StorageWeakRef

from kiln import freezing, warm_start
from kiln.config import Options, default_trace_dir
from kiln.decompositions import kiln_decompositions
from kiln.eager_strides import eager_output_strides, user_output_strides
from kiln.ir import InputBuffer, format_ir
from kiln.patterns import (accumulate_scatters_into_sums, eliminate_common_subexpressions,
                           fold_padding_into_convolutions, mutated_inputs, overlap_collectives, rewrite_attention,
                           rewrite_identity_calls, scalars_on_their_readers_device)
from kiln.runtime import cuda_graphs, graph_cache, library_plans, triton_binaries
from kiln.runtime.module import build_cpp, build_triton, load
from kiln.runtime.wrapper import graph_device, graph_devices
from kiln.tools.trace import GraphTrace, install_dynamo_hooks

log = logging.getLogger("kiln")

STATS = collections.Counter()
_graph_ids = itertools.count()


def stats():
    """Cumulative counters: graphs_compiled, graphs_fallback, kernels_generated, fallback_ops, ..."""
    keys = ("graphs_compiled", "graphs_fallback", "kernels_generated", "fallback_ops", "extern_calls")
    return {k: STATS[k] for k in keys} | dict(STATS) | dict(cuda_graphs.COUNTS) | dict(triton_binaries.COUNTS) | \
        dict(library_plans.COUNTS)


def reset_stats():
    STATS.clear()
    cuda_graphs.COUNTS.clear()
    triton_binaries.COUNTS.clear()
    library_plans.COUNTS.clear()


_FROZEN = {"depth": 0, "froze": False}
_FROZEN_LOCK = threading.Lock()


@contextlib.contextmanager
def old_objects_frozen():
    """While kiln compiles, the objects that existed before are left out of the garbage collector's passes
    (gc.freeze, undone by gc.unfreeze when the last compile running ends): compiling makes many long-lived objects
    (SymPy expressions, IR), whose count sets off full passes over the whole process's heap, torch's modules and
    the user's among them. EfficientNet-B0's GPU training graphs spent ~20% of their lowering, scheduling and codegen
    in those passes (bench/NOTES.md 79). The young generations are collected first (a few ms), so that garbage
    just made (Dynamo's trace) is not frozen into the oldest generation; old garbage waits for the first full
    pass after the compile. A process that froze objects itself before the compile keeps them frozen. The frozen
    objects are counted only before freezing: counting walks them all (~50 ms for a process holding transformers'
    BERT, twice a graph when kiln counted what it froze too)."""
    with _FROZEN_LOCK:
        if _FROZEN["depth"] == 0:
            frozen = gc.get_freeze_count()   # (a child interpreter is asked only where some are frozen)
            _FROZEN["froze"] = gc.isenabled() and (frozen == 0 or frozen <= interpreter_frozen_count())
            if _FROZEN["froze"]:
                gc.collect(1)
                gc.freeze()
        _FROZEN["depth"] += 1
    try:
        yield
    finally:
        with _FROZEN_LOCK:
            _FROZEN["depth"] -= 1
            if _FROZEN["depth"] == 0 and _FROZEN["froze"]:
                gc.unfreeze()


@functools.cache
def interpreter_frozen_count():
    """How many objects a fresh interpreter of this executable holds in the collector's permanent generation, which
    gc.freeze fills, before any code of the user's runs. Since Python 3.12 the collector moves immortal objects
    there itself (375 tuples of a fresh 3.12 process: every process has them); unfreezing them is harmless, as the
    collector moves them back when its next pass meets them. Asked of a child interpreter (~15 ms, once a
    process), isolated and without site, so that nothing of the user's runs in it; 0 if that fails."""
    if sys.version_info < (3, 12) or not sys.executable:
        return 0
    try:
        child = subprocess.run([sys.executable, "-I", "-S", "-c", "import gc; print(gc.get_freeze_count())"],
                               capture_output=True, text=True, timeout=60, check=True)
        return int(child.stdout)
    except (OSError, ValueError, subprocess.SubprocessError):
        return 0


def kiln_backend(gm, example_inputs, mode=None, options=None):
    """The `torch.compile` backend: `torch.compile(m, backend="kiln")`.

    A failure in kiln's part (the rewrite, kiln's decompositions, AOTAutograd's trace with them, and
    compile_graph for what it does not catch itself) makes the graph run eagerly, with one warning. The
    judge of what is kiln's: the same AOTAutograd trace without kiln's table and compilers (aot_eager). If
    that fails too, its error is raised as aot_eager would raise it, for Dynamo to handle (a graph break
    for data-dependent outputs) or for the user (an error eager raises too)."""
    opts = options if isinstance(options, Options) else Options.make(mode, options)
    if any(isinstance(x, (list, tuple, dict)) for x in example_inputs):
        # compiled autograd's graph takes its gradients as one list: flattened first, as torch's AOTAutograd
        # backends do (AOTAutograd takes tensors and scalars only)
        return flatten_graph_inputs(gm, example_inputs, functools.partial(kiln_backend, options=opts))
    if opts.trace:   # torch.compile(backend="kiln", options={"trace": DIR}): Dynamo's events from now on
        install_dynamo_hooks(opts.trace)
    gid = next(_graph_ids)
    # Dynamo's DDPOptimizer counts AOTAutograd's invocations to know that the compiled piece of a DDP model
    # returns fake outputs to its first, fake call (AOTAutograd's FakifiedOutWrapper): counted as its own
    # aot_autograd backend counts them, whichever of the two paths below runs
    counters["aot_autograd"]["total"] += 1
    try:
        return compile_dynamo_graph(gm, example_inputs, opts, gid)
    except Exception as e:
        # Dynamo's RestartAnalysis is no failure: it asks Dynamo to trace the frame again, as AOTAutograd's pass
        # that turns float scalars into tensors does under dynamic=True (BERT's graph ran eagerly when it was caught)
        if opts.strict or isinstance(e, RestartAnalysis):
            raise
        compiled = aot_eager(gm, example_inputs)
        stage, node = failure_site(e)
        log.warning("kiln: %s failed%s for graph %d; running this graph eagerly: %s: %s", stage,
                    f" at node {node}" if node else "", gid, type(e).__name__, first_line(e))
        STATS["graphs_fallback"] += 1
        return compiled


def aot_eager(gm, example_inputs):
    """AOTAutograd as kiln calls it, without kiln's decompositions and compilers: its graphs run op by op."""
    def eager(graph, inputs):
        return make_boxed_func(graph)
    return aot_module_simplified(gm, example_inputs, fw_compiler=eager, bw_compiler=untraced(eager),
                                 partition_fn=min_cut_rematerialization_partition, keep_inference_input_mutations=True)


def untraced(backward_compiler):
    """AOTAutograd compiles the backward at its first call, which may come from inside a frame Dynamo is running
    (a compiled train step's loss.backward(), after its graph break): Dynamo must neither trace the compiler
    (it traced kiln's lowering and sympy, and crashed) nor the compiled backward."""
    @torch._dynamo.disable
    def compile_backward(graph, inputs):
        return torch._dynamo.disable(backward_compiler(graph, inputs))
    return compile_backward


def compile_dynamo_graph(gm, example_inputs, opts, gid):
    """Dynamo's graph, loaded as an earlier process stored it (a warm start), else traced by AOTAutograd and
    compiled with the objects older than the compile frozen: a warm start makes too few objects to be worth the
    young generations' collection that freezing starts with (~40 ms of GPT-2's ~100 ms warm backend on the CPU)."""
    guard_storage_offsets(gm.gm if isinstance(gm, torch._dynamo.utils.GmWrapper) else gm)
    # (lifted: the tensors the graph holds, which AOTAutograd passes to its graphs first: an optimizer's states)
    dynamo_digest, lifted = warm_start.dynamo_cache_key(gm, example_inputs, opts)
    if dynamo_digest:
        compiled = warm_start.load_dynamo_graph(dynamo_digest, [*lifted, *example_inputs], opts, gid)
        if compiled is not None:
            return warm_start.called_with(compiled, lifted)
    with old_objects_frozen():
        return trace_dynamo_graph(gm, example_inputs, opts, gid, dynamo_digest, lifted)


def guard_storage_offsets(dynamo_gm):
    """Guards the storage offset of each input whose storage an as_strided at an explicit offset reads (or its
    copy, scatter or in-place form): that offset is absolute in the storage, and lowering takes it from the input's
    traced offset, where Dynamo guards none: given at another offset, the input compiles anew. (An as_strided that
    kiln's decompositions make names the traced offset too, and reads right with or without the guard;
    `w.as_strided(size, stride, 2)` of an input given at another offset computed wrong with kiln and Inductor:
    bench/results/s96/as_strided_offset.py.) Not seen: an as_strided inside a higher-order op's body or a custom
    op (kiln.freezing keeps its own check for frozen parameters)."""
    from torch._dynamo.guards import GuardBuilder
    from torch._dynamo.source import TensorProperty, TensorPropertySource
    context = torch._guards.TracingContext.try_get()
    read = set()   # the storages read at an explicit offset
    for n in dynamo_gm.graph.nodes:
        # (a call_method's target is the method's name; a call_function's need not be hashable)
        name = n.target if isinstance(n.target, str) else getattr(n.target, "__name__", "")
        position = EXPLICIT_OFFSET.get(name) if n.op in ("call_function", "call_method") else None
        if position is None or not n.args or not isinstance(n.args[0], torch.fx.Node):
            continue
        offset = n.args[position] if len(n.args) > position else n.kwargs.get("storage_offset")
        # (an offset computed in the graph, from an input's symbolic storage offset, follows the input's)
        if isinstance(offset, int) and isinstance(n.args[0].meta.get("example_value"), torch.Tensor):
            read.add(StorageWeakRef(n.args[0].meta["example_value"].untyped_storage()))
    if context is None or not read:
        return
    for node in dynamo_gm.graph.find_nodes(op="placeholder"):
        arg, value = node.meta.get("grapharg"), node.meta.get("example_value")
        # (a Python number passed as a tensor has no storage offset to guard)
        if getattr(arg, "source", None) is not None and arg.is_tensor and not getattr(arg, "pass_arg_as_tensor", False) \
                and isinstance(value, torch.Tensor) and StorageWeakRef(value.untyped_storage()) in read:
            offset = TensorPropertySource(arg.source, TensorProperty.STORAGE_OFFSET)
            context.guards_context.dynamo_guards.add(offset.make_guard(GuardBuilder.CONSTANT_MATCH))


EXPLICIT_OFFSET = {"as_strided": 3, "as_strided_copy": 3, "as_strided_": 3, "as_strided_scatter": 4}   # its index


def trace_dynamo_graph(gm, example_inputs, opts, gid, dynamo_digest, lifted):
    """compile_dynamo_graph's cold path: AOTAutograd's trace with kiln's decompositions and compilers."""
    # (AOTAutograd traces a backward where grad mode is on and an input, or a parameter it lifts, requires grad)
    decomps = kiln_decompositions(inference=not (torch.is_grad_enabled() and any(
        isinstance(x, torch.Tensor) and x.requires_grad for x in itertools.chain(example_inputs, gm.parameters()))))
    # (compiled autograd's graph comes wrapped: kiln_backend flattens its inputs)
    graph_module = gm.gm if isinstance(gm, torch._dynamo.utils.GmWrapper) else gm
    rewrite_identity_calls(graph_module)
    try:
        STATS["attention_rewrites"] += rewrite_attention(graph_module)
    except Exception as e:   # each rewrite matches before it changes anything: the graph is as traced or rewritten
        if opts.strict:
            raise
        log.warning("kiln: the attention rewrite failed for graph %d; compiling it as written: %s: %s", gid,
                    type(e).__name__, first_line(e))
    before = trace_before_decomposition(opts, gm, example_inputs)
    try:
        user_strides = eager_output_strides(graph_module)
    except Exception as e:
        if opts.strict:
            raise
        log.warning("kiln: eager's output layouts could not be derived for graph %d; outputs keep the traced "
                    "layouts: %s: %s", gid, type(e).__name__, first_line(e))
        user_strides = None

    frozen = freezing.frozen_inputs(gm, example_inputs) if opts.freezing and graph_module is gm else {}
    # what a warm start needs to load this graph without AOTAutograd's trace
    pending = warm_start.Pending(dynamo_digest, [*lifted, *example_inputs], opts, f"g{gid}", len(lifted)) \
        if dynamo_digest else None
    ahead = {}   # the backward compiled ahead of its first call (compile_backward_ahead), until AOTAutograd asks
    # (the compilers below outlive this call, AOTAutograd holding the backward's until the backward's first call or
    # for good: they name no example input, which would keep the first call's tensors, a graph break's activations,
    # alive as long as the compiled graph)
    inputs_count = len(example_inputs)

    def compiler(kind):
        def compile_one(graph, inputs):
            if kind == "backward" and ahead.get("inputs") is inputs and ahead.get("code") == graph.code:
                call = ahead["call"]
                ahead.clear()
                return call
            frozen_here = frozen if kind == "inference" else None
            if frozen_here and len(inputs) != inputs_count:   # (effect tokens, subclasses: other inputs)
                log.info("kiln: g%d_%s is not frozen: its inputs are not the Dynamo graph's", gid, kind)
                frozen_here = None
            keep = {} if pending else None
            compiled = compile_graph(graph, inputs, opts, f"g{gid}_{kind}", (graph_module.code, before),
                                     user_strides if kind != "backward" else None, frozen_here, keep)
            if pending:
                pending.compiled(kind, graph, inputs, keep, compiled)
            return compiled
        return compile_one

    records = pending.records if pending else []   # AOTAutograd's post_compile calls while it compiles this graph
    # (effect tokens, which order ops with side effects, made inside the graphs rather than passed in and out of
    # them: a training forward's outputs are then AOTAutograd's own count, its saved activations where
    # num_forward_returns says, their strides reported where it reads them)
    with warm_start.recording(records), functorch_config.patch(unlift_effect_tokens=True):
        compiled = aot_module_simplified(gm, example_inputs, fw_compiler=compiler("forward"),
                                         bw_compiler=untraced(compiler("backward")),
                                         inference_compiler=compiler("inference"), decompositions=decomps,
                                         partition_fn=partition, keep_inference_input_mutations=True)
    if pending:
        pending.traced(compiled)
    if builds_behind(example_inputs) and not opts.tunes and not compiled_autograd_on():
        compile_backward_ahead(records, compiler("backward"), ahead, opts, gid)
    return compiled


def compile_backward_ahead(records, compile_backward, ahead, opts, gid):
    """AOTAutograd compiles a training graph's backward at its first call (where no symbolic size is saved for
    it): after the forward's kernels are built and the forward has run. Where they build in the background
    (`triton_launch.build_behind`), kiln compiles the backward now instead, while they build, from what that
    later compile will be handed (post_compile's lazy_backward_info: the graph, its inputs restrided to the saved
    activations' layouts, the tracing context), and puts the result in `ahead`, which that compile returns
    where it is handed the same inputs and graph. Where AOTAutograd built no lazy backward, or a DDP bucket's
    metadata is swapped in at that compile, nothing is done here. (Not under max-autotune, whose timings the
    forward's build would disturb, nor compiled autograd, which traces the backward graph itself. A forward called
    without torch.no_grad() whose backward never runs pays for its compile.)"""
    if len(records) != 1:
        return
    arguments = records[0][0]
    info = arguments.get("lazy_backward_info")
    context = getattr(info, "saved_context", None)
    if arguments.get("compiled_bw_func") is not None or context is None or \
            getattr(context, "ddp_optimizer_ctx", None) is not None:
        return
    try:
        graph = copy.deepcopy(info.bw_module)   # (AOTAutograd's compile is handed a copy too)
        code = graph.code
        autocast = torch._C._DisableAutocast() if arguments.get("disable_amp") else contextlib.nullcontext()
        with torch._guards.tracing(context), torch._guards.compile_context(info.saved_compile_context), autocast, \
                torch.no_grad():   # (as autograd runs the lazy compile)
            call = compile_backward(graph, info.placeholder_list)
    except Exception as e:   # (AOTAutograd's own compile, at the first call, is as before)
        if opts.strict:
            raise
        log.info("kiln: graph %d's backward was not compiled ahead: %s: %s", gid, type(e).__name__, first_line(e))
        return
    STATS["backwards_compiled_ahead"] += 1
    ahead.update(inputs=info.placeholder_list, code=code, call=call)


def partition(joint, joint_inputs, **kwargs):
    """AOTAutograd's min-cut rematerialization, except that a forward value the backward compares for equality
    (max, amin, ...'s gradient: x == max(x)) is saved, not recomputed: a recomputed copy may round otherwise (a
    C++ loop's vectorized expm1 against its scalar tail), and the gradient then misses the selected elements.
    The mark also tells lowering to compute the value once in the forward (lowering.GraphLowering.run_node)."""
    from torch.utils.checkpoint import CheckpointPolicy

    from kiln.lowering import EQUALITY
    backward = set()   # the nodes that read the tangents
    for node in joint.graph.nodes:
        if node.op == "placeholder" and node.name.startswith("tangents") or \
                any(a in backward for a in node.all_input_nodes):
            backward.add(node)
    for node in joint.graph.nodes:
        if node.op == "call_function" and node.target in EQUALITY:
            for operand in node.all_input_nodes:
                if operand.op == "call_function" and operand not in backward:
                    operand.meta["recompute"] = CheckpointPolicy.MUST_SAVE
    return min_cut_rematerialization_partition(joint, joint_inputs, **kwargs)


def failure_site(e):
    """(stage, Dynamo node) of an exception from kiln_backend: a decomposition tags what it failed on."""
    while e is not None:
        if hasattr(e, "kiln_decomposition"):
            op, node = e.kiln_decomposition
            return f"decomposition of {op}", node
        e = e.__cause__ or e.__context__
    return "AOTAutograd's trace with kiln's decompositions", None


def first_line(e):
    return str(e).splitlines()[0] if str(e) else ""


def compile(model, *, dynamic=None, fullgraph=False, mode=None, options=None):
    """`kiln.compile(model)`: the model compiled by kiln, called exactly as before."""
    opts = Options.make(mode, options)
    if opts.trace:
        install_dynamo_hooks(opts.trace)   # graph breaks happen before the backend is first called
    backend = functools.partial(kiln_backend, options=opts)
    backend.__name__ = "kiln"
    return torch.compile(model, backend=backend, dynamic=dynamic, fullgraph=fullgraph)


def compile_graph(gm, example_inputs, opts, name, dynamo_graphs=("", ""), user_strides=None, frozen=None, keep=None):
    """An ATen graph -> a Python callable; on failure, the graph itself runs eagerly. A graph compiled before
    (by this process or another, with the same kiln, torch and options) is loaded from the graph cache.
    frozen: {input index: tensor} of the parameters an inference graph holds as constants
    (options={"freezing": True}); such a graph is not cached (its key would have to hold their values).
    keep: a dict that receives the graph's cache key and the inputs it writes, where it is compiled and cached."""
    trace = GraphTrace(opts.trace, name)
    where = {"stage": "graph cache", "lowering": None}   # how far it got, for the log line of a failure
    fallback = freezing.unfrozen(gm) if frozen else gm   # (what runs eagerly on a failure)
    try:
        with old_objects_frozen():   # (a backward compiles at its first call, or ahead on a thread)
            return compiled_graph(gm, example_inputs, opts, name, dynamo_graphs, user_strides, frozen, keep, trace,
                                  where, fallback)
    except Exception as e:
        if opts.strict or isinstance(e, RestartAnalysis):
            raise
        op = getattr(getattr(where["lowering"], "current_node", None), "target", None) \
            if where["stage"] == "lowering" else None
        log.warning("kiln: %s failed%s for graph %s; running this graph eagerly: %s: %s",
                    where["stage"], f" at {op}" if op is not None else "", name, type(e).__name__, first_line(e))
        STATS["graphs_fallback"] += 1
        trace.finish()
        return make_boxed_func(fallback)


def compiled_graph(gm, example_inputs, opts, name, dynamo_graphs, user_strides, frozen, keep, trace, where, eager):
    """compile_graph's work, where failures are raised (eager: the graph as given, unfrozen)."""
    started = time.perf_counter()
    if trace.enabled:
        dynamo_code, before = dynamo_graphs
        trace.stage("dynamo_graph", dynamo_code)
        if "backward" in name:
            trace.stage("aot_backward", "# AOTAutograd's backward graph, decomposed as kiln receives it\n" + gm.code)
        else:
            trace.stage("aot_forward", before)
    constants, placed = None, cuda_graphs.placed_inputs(gm)   # (placed: before freezing drops placeholders)
    if frozen:
        where["stage"] = "freezing"
        constants = freezing.freeze(gm, frozen)
        STATS["frozen_ops_folded"] += constants.folded
        STATS["graphs_frozen"] += 1
        where["stage"] = "graph cache"
    eliminate_common_subexpressions(gm)
    fold_padding_into_convolutions(gm)
    accumulate_scatters_into_sums(gm)
    scalars_on_their_readers_device(gm)
    overlap_collectives(gm)
    context = torch._guards.TracingContext.try_get()
    reports_strides = context is not None and context.output_strides is not None   # a forward graph
    saved_from = context.fw_metadata.num_forward_returns if reports_strides and context.fw_metadata else None
    output_strides = user_output_strides(context, user_strides, gm.graph.output_node().args[0])
    digest = cache_key(gm, example_inputs, opts, name, output_strides, saved_from, reports_strides, placed, trace) \
        if not frozen else None
    artifact, profiler = graph_cache.get(opts.kernel_cache_dir, digest) if digest else None, None
    from_cache = artifact is not None
    if from_cache:   # compiled for another graph of this program or another: named as this one
        artifact = artifact.named(name)
    times = {"cache": time.perf_counter() - started} if digest else {}
    stored = from_cache
    if not from_cache:
        artifact, profiler = generate(gm, example_inputs, opts, name, trace, saved_from, output_strides,
                                      reports_strides, times, where)
        artifact.placed = tuple(placed)   # (stored with it, and in its key: a warm start has no AOTAutograd metadata)
        if digest:
            where["stage"] = "graph cache"
            stored = graph_cache.put(opts.kernel_cache_dir, digest, artifact)
    where["stage"] = "kernel build"
    module = load(artifact, opts, times, profiler, generated=not from_cache)
    times["loading"] = time.perf_counter() - started - sum(times.values())
    if reports_strides:   # the backward graph is compiled for the layouts of the saved activations
        context.output_strides.extend(artifact.output_strides)
    mutated = mutated_inputs(gm)
    if keep is not None and stored:
        keep.update(digest=digest, mutated=mutated)
    trace.finish()
    callable_of = boxed(artifact, opts, name, mutated, example_inputs)
    call = finished(module, artifact, name, from_cache, times, callable_of)
    if constants is None:
        return call
    freezing.release(gm)
    # (a frozen tensor written in place later: what was computed from it is computed again, before a replay too;
    # other parameters: the same kernels on constants computed from them)
    return freezing.per_parameter_set(call, constants, artifact, lambda counterparts: callable_of(
        module.bound_to(counterparts)), make_boxed_func(eager), name)


def boxed(artifact, opts, name, mutated, example_inputs):
    """What makes a loaded wrapper's call the graph's callable: boxed (it takes the argument list itself and clears
    it, freeing inputs early), replayed from CUDA graphs in the modes that record them (mutated: the inputs it
    writes). Decided now: it holds no example input."""
    replayed = cuda_graphs.graphing(mutated, example_inputs, name, artifact.devices, artifact.activations_from,
                                    artifact.placed, artifact.read_in_storage) \
        if opts.mode in cuda_graphs.MODES else None

    def callable_of(call):
        call._boxed_call = True
        return replayed(call) if replayed is not None else call
    return callable_of


def finished(module, artifact, name, from_cache, times, callable_of):
    """A loaded graph's callable (callable_of its wrapper's call), counted and logged."""
    STATS["graphs_compiled"] += 1
    STATS["graphs_from_cache"] += from_cache
    STATS["kernels_generated"] += module.kernel_count
    STATS["fallback_ops"] += artifact.fallback_ops
    STATS["extern_calls"] += artifact.extern_calls
    for part, seconds in times.items():
        STATS[f"seconds_{part}"] += seconds
    log.getChild("codegen").info("kiln: %s %s in %.2fs (%s): %d kernels, %d distinct",
                                 "loaded from the graph cache" if from_cache else "compiled", name,
                                 sum(times.values()), ", ".join(f"{k} {v:.2f}s" for k, v in times.items()),
                                 module.kernel_count, module.distinct_kernels)
    return callable_of(module.call)


def generate(gm, example_inputs, opts, name, trace, saved_from, output_strides, reports_strides, times, where):
    """Lowering, scheduling and code generation: the graph's Artifact (and the trace's kernel profiler)."""
    from kiln.lowering import GraphLowering
    from kiln.launches import share_launches
    from kiln.scheduler import schedule
    started = time.perf_counter()
    where["stage"] = "lowering"
    if trace.enabled:
        trace.stage("decomposed", "# after AOTAutograd with kiln's decompositions: functionalized, "
                                  "partitioned, core ATen; identical computations merged\n" + gm.code)
        trace.graph("before", graph_nodes(gm))
    start_build_workers(example_inputs)
    lowering = GraphLowering(gm, name, inference=name.endswith("inference"), saved_from=saved_from,
                             example_inputs=example_inputs, target=opts.target, output_strides=output_strides)
    where["lowering"] = lowering
    lowering.run()
    if trace.enabled:
        with lowering.in_effect():   # (the dump runs the buffers' loaders, which read the graph's size hints)
            trace.stage("ir", format_ir(lowering))
    times["lowering"] = time.perf_counter() - started
    where["stage"] = "scheduling"
    output_names = {o.buffer.name for o in lowering.graph_outputs if hasattr(o, "buffer")}
    triton = targets_triton(lowering, opts)
    with lowering.in_effect():
        rows_in_registers = lambda kernel: False   # noqa: E731 (C++ loops walk a row again)
        if triton:
            from kiln.codegen.triton import persistent_rows   # Triton is imported where a graph needs it
            rows_in_registers = functools.partial(persistent_rows, lowering)
        sched = schedule(lowering.buffers, output_names, rows_in_registers=rows_in_registers,
                         transposed_producers=triton, size_hints=lowering.size_hints)
        if triton:
            share_launches(sched)
        trace.fusion(sched.decisions)
        times["scheduling"] = time.perf_counter() - started - times["lowering"]
        where["stage"] = "codegen"
        artifact, profiler = (build_triton if triton else build_cpp)(lowering, sched, opts, name, trace)
        times["codegen"] = time.perf_counter() - started - times["lowering"] - times["scheduling"]
    artifact.output_strides = lowering.output_strides() if reports_strides else None
    meta = getattr(torch._guards.TracingContext.try_get(), "fw_metadata", None)
    # (where effect tokens or a functionalized RNG's offset come first among the outputs, the activations' index
    # is not num_forward_returns: none is kept across CUDA graph replays there)
    artifact.activations_from = saved_from if saved_from is not None and not getattr(meta, "tokens", None) \
        and not getattr(meta, "num_outputs_rng_offset", 0) else None
    artifact.relaid = lowering.relaid
    artifact.read_in_storage = tuple(i for i, b in enumerate(lowering.graph_inputs) if isinstance(b, InputBuffer)
                                     and b.name in lowering.inputs_read_in_storage)
    artifact.fallback_ops = len(lowering.fallback_ops)
    artifact.devices = tuple(sorted({d.type for d in graph_devices(lowering)}))
    artifact.extern_calls = sum(1 for s in sched.steps if not hasattr(s, "placements"))
    return artifact, profiler


def cache_key(gm, example_inputs, opts, name, output_strides, saved_from, reports_strides, placed, trace):
    """The graph cache's key, or None where the graph is not cached: the cache is off, the trace is on (it shows
    every stage), or the graph has symbolic sizes (graph_cache.Uncacheable)."""
    if not opts.graph_cache or trace.enabled:
        return None
    try:
        return graph_cache.key(gm, example_inputs, opts, name.rsplit("_", 1)[-1], output_strides, saved_from,
                               reports_strides, tuple(placed))
    except graph_cache.Uncacheable as e:
        log.getChild("cache").debug("kiln graph cache: %s is not cached: %s", name, e)
        return None
    except Exception as e:   # the cache is an optimization: the graph is compiled, uncached
        if opts.strict:
            raise
        log.warning("kiln: the graph cache's key failed for graph %s; compiling it without the cache: %s: %s", name,
                    type(e).__name__, first_line(e))
        return None


def compiled_autograd_on():
    from torch._dynamo import compiled_autograd
    return bool(torch._dynamo.config.compiled_autograd or getattr(compiled_autograd, "compiled_autograd_enabled", False))


def builds_behind(example_inputs):
    """Whether a graph of these inputs has its kernels built in the background, by processes (CUDA graphs,
    outside Triton's interpreter)."""
    from kiln.runtime.triton_launch import interpreting
    return torch.cuda.is_available() and not interpreting() and \
        any(isinstance(x, torch.Tensor) and x.is_cuda for x in example_inputs)


def start_build_workers(example_inputs):
    """Starts the processes that build Triton kernels (`build_pool`) while a CUDA graph is lowered, so that they
    have imported Triton when its kernels are generated."""
    if builds_behind(example_inputs):
        from kiln.runtime.build_pool import current_target, start_workers
        try:
            start_workers(current_target())
        except Exception as e:   # (only time is at stake: the kernels build in this process)
            log.getChild("codegen").info("kiln: the build workers did not start: %s: %s", type(e).__name__, e)


def targets_triton(lowering, opts):
    """Triton for CUDA graphs (or anywhere with options={"target": "triton"}), else C++."""
    return opts.target == "triton" or graph_device(lowering).type == "cuda"


def trace_before_decomposition(opts, gm, example_inputs):
    """For the trace: the forward as ATen ops before any decomposition (make_fx, no table)."""
    if not opts.trace:
        return ""
    try:
        from torch.fx.experimental.proxy_tensor import make_fx

        def on_meta(t):   # Dynamo's fake tensors belong to its own fake mode: trace on meta tensors instead
            if not isinstance(t, torch.Tensor):
                return t
            size = [s.node.hint if isinstance(s, torch.SymInt) else s for s in t.shape]
            stride = [s.node.hint if isinstance(s, torch.SymInt) else s for s in t.stride()]
            return torch.empty_strided(size, stride, dtype=t.dtype, device="meta")
        graph = make_fx(on_meta_module(gm, on_meta))(*[on_meta(t) for t in example_inputs])
        return "# ATen forward graph before decompositions (make_fx)\n" + graph.code
    except Exception as e:   # the trace is best effort; the compile must not depend on it
        return f"# could not trace the undecomposed ATen graph: {type(e).__name__}: {e}\n"


def on_meta_module(gm, on_meta):
    """gm reading meta copies of the tensors and submodules it holds: tracing gm itself would run its in-place
    ops on them for real (an optimizer step's state tensors are such attributes: the trace stepped them)."""
    root = {}
    for node in gm.graph.nodes:
        held = operator.attrgetter(node.target)(gm) if node.op in ("get_attr", "call_module") else None
        if isinstance(held, torch.nn.Module):   # a call_module's, or a higher-order op's body
            root[node.target] = copy.deepcopy(held).to("meta")
        elif node.op == "get_attr":
            root[node.target] = on_meta(held)
    return torch.fx.GraphModule(root, copy.deepcopy(gm.graph))


def graph_nodes(gm):
    """The ATen graph as diagram nodes."""
    nodes = []
    for n in gm.graph.nodes:
        if n.op in ("placeholder", "call_function"):
            nodes.append({"name": n.name, "op": "input" if n.op == "placeholder" else str(n.target),
                          "inputs": [a.name for a in n.all_input_nodes], "kernel": None})
    return nodes


def register_with_dynamo():
    """backend="kiln" on `import kiln`, also from a source checkout, where no installed entry point names it.
    Where Dynamo has already read the installed entry point (and when it imports kiln to load it), Dynamo
    registers the backend itself on its first lookup: registering it here too would be a duplicate name."""
    from torch._dynamo.backends import registry
    if "kiln" not in registry._BACKENDS:
        torch._dynamo.register_backend(kiln_backend, name="kiln")


register_with_dynamo()
if trace_dir := default_trace_dir():
    # torch.compile(backend="kiln") imports kiln before Dynamo traces (it looks the backend up first): the trace
    # records the graph breaks that come before kiln's first graph
    install_dynamo_hooks(trace_dir)
