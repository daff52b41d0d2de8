"""Warm starts without AOTAutograd's trace: a Dynamo graph stored whole in the graph cache.

AOTAutograd's trace (functionalization, the joint graph, min-cut partitioning) took most of a warm start once
kiln's own graphs came from the graph cache: ~2 s of a small ResNet's training step on the CPU. A Dynamo graph
compiled cold is therefore stored whole, under a key of the graph as Dynamo hands it over
(graph_cache.dynamo_key), with what a later process needs to rebuild AOTAutograd's callable around kiln's cached
graphs:

- an inference graph whose AOTAutograd wrappers add nothing but turning grad mode off and moving the version
  counters of the inputs it writes (`aot_adds_nothing`): the graph itself, called with the tensors the Dynamo graph
  holds (an optimizer step's parameters and states: `called_with`) and the Dynamo graph's inputs
  (graph_cache.DynamoEntry);
- a training graph: its forward and backward, and the arguments AOTAutograd built its autograd.Function from
  (AOTDispatchAutograd.post_compile: the runtime metadata of inputs, outputs and saved tensors, the inputs to
  detach, the autocast switch). A warm start calls post_compile again with them and the cached graphs, so the
  forward and backward run under AOTAutograd's own runtime code, as after a cold compile
  (graph_cache.TrainingEntry). Where AOTAutograd wrapped the forward or the autograd.Function in more (tensor
  subclasses, effect tokens, functionalized RNG, duplicated or aliased inputs), the graph is not stored whole.
"""
import copy
import dataclasses
import functools
import inspect
import io
import logging
import pickle
import threading
import time

import torch

from kiln.runtime import graph_cache

log = logging.getLogger("kiln")


def dynamo_cache_key(gm, example_inputs, opts):
    """(the graph cache's key of a Dynamo graph, the tensors the graph holds: graph_cache.dynamo_key), or (None, [])
    where it is not looked up: the cache is off, the trace or freezing is on, or Dynamo's DDPOptimizer compiles it
    (AOTAutograd's wrapper hands fake outputs to its first call)."""
    context = torch._guards.TracingContext.try_get()
    if not opts.graph_cache or opts.trace or opts.freezing or not isinstance(gm, torch.fx.GraphModule) or \
            getattr(context, "fakify_first_call", False):
        return None, []
    try:
        return graph_cache.dynamo_key(gm, example_inputs, opts)
    except graph_cache.Uncacheable as e:
        log.getChild("cache").debug("kiln graph cache: Dynamo graph is not cached whole: %s", e)
        return None, []
    except Exception as e:   # the cache is an optimization
        if opts.strict:
            raise
        from kiln.capture import first_line
        log.warning("kiln: the graph cache's key failed for a Dynamo graph; compiling it through AOTAutograd: %s: %s",
                    type(e).__name__, first_line(e))
        return None, []


class Pending:
    """What a Dynamo graph compiled cold leaves for a warm start, gathered from kiln's compilers and AOTAutograd's
    post_compile as they run, and stored once complete (the backward is compiled at its first call)."""

    def __init__(self, digest, example_inputs, opts, name, lifted=0):
        """example_inputs: those of AOTAutograd's graphs, the `lifted` tensors the Dynamo graph holds first"""
        self.digest, self.opts, self.name, self.lifted = digest, opts, name, lifted
        self.input_layouts = layouts(example_inputs)   # (not the inputs: this outlives the compile)
        self.graphs = {}        # kind -> (the graph cache's key, the inputs it writes, the callable kiln returned)
        self.versioned = None   # an inference graph's inputs written that autograd sees (aot_adds_nothing)
        self.backward_graph = None   # the backward graph kiln compiled (compiled autograd traces it again)
        self.backward_devices = None
        self.autograd = None    # AOTDispatchAutograd.post_compile's named arguments, checked
        self.records = []       # (arguments, result) of each post_compile while this graph compiles
        self.settled = False    # stored, or known not to be: nothing more is gathered or held

    def settle(self):
        self.settled = True
        self.graphs, self.autograd, self.records = {}, None, None
        self.backward_graph = self.backward_devices = None

    def compiled(self, kind, graph, inputs, keep, call):
        """kiln compiled one of the graph's AOTAutograd graphs (keep: compile_graph's record of its cache entry)."""
        if self.settled:
            return
        # (not cached: this Dynamo graph is not stored whole; nor is a training graph holding tensors, untried)
        if not keep or self.lifted and kind != "inference":
            self.settle()
            return
        self.graphs[kind] = (keep["digest"], keep["mutated"], call)
        if kind == "inference":
            self.versioned = aot_adds_nothing(graph, self.input_layouts)
        if kind == "backward":
            self.backward_graph = graph
            self.backward_devices = [str(x.device) for x in inputs if isinstance(x, torch.Tensor)]
        self.store_if_complete()

    def traced(self, compiled):
        """AOTAutograd returned compiled: its autograd.Function, if it built one, is rebuilt on a warm start only if
        AOTAutograd's wrappers around kiln's forward and around the function add nothing."""
        if self.settled:
            return
        reason = "AOTAutograd's wrappers do more than call the inference graph" if "inference" in self.graphs else \
            "AOTAutograd built no autograd.Function around kiln's forward"
        if len(self.records) == 1 and "forward" in self.graphs:
            (arguments, result), = self.records
            reason = autograd_unlike_cold(arguments, self.graphs["forward"][2], getattr(compiled, "__wrapped__", None)
                                          is result)
            self.autograd = arguments
        if reason:
            log.getChild("cache").debug("kiln graph cache: %s is not stored whole: %s", self.name, reason)
            self.settle()
        else:
            self.records = None
            self.store_if_complete()

    def store_if_complete(self):
        if self.settled:
            return
        entry = None
        if "inference" in self.graphs and self.versioned is not None:
            digest, mutated, _ = self.graphs["inference"]
            entry = graph_cache.DynamoEntry(self.name, digest, mutated, self.versioned)
        elif "forward" in self.graphs and "backward" in self.graphs and self.autograd is not None:
            try:
                autograd, backward_graph = stored_arguments(self.autograd), reduced_graph(self.backward_graph)
            except Exception as e:   # a field that does not pickle: compiled through AOTAutograd on every start
                log.getChild("cache").debug("kiln graph cache: %s is not stored whole: %s: %s", self.name,
                                            type(e).__name__, e)
                self.settle()
                return
            (forward, mutated, _), (backward, mutated_backward, _) = self.graphs["forward"], self.graphs["backward"]
            entry = graph_cache.TrainingEntry(self.name, forward, mutated, backward, mutated_backward,
                                              self.backward_devices, autograd, backward_graph)
        if entry is not None:
            graph_cache.put(self.opts.kernel_cache_dir, self.digest, entry, "dynamo")
            self.settle()


# ------------------------------------------------------------------------------- AOTAutograd's autograd.Function

_recording = threading.local()
REBUILT = {"compiled_fw_func", "compiled_bw_func", "lazy_backward_info", "bw_compiler", "aot_config",
           "try_save_cache_entry"}   # post_compile's arguments a warm start makes itself


def post_compile_of_aot():
    """AOTAutograd's AOTDispatchAutograd.post_compile as torch defines it (not kiln's recording wrapper)."""
    from torch._functorch._aot_autograd.runtime_wrappers import AOTDispatchAutograd
    function = AOTDispatchAutograd.post_compile
    return getattr(function, "kiln_records", None) or function


def named_arguments(function, args, kwargs):
    """post_compile's arguments by name: torch 2.11 takes them one by one, 2.13 as one
    AOTDispatchAutogradCompileSpec."""
    bound = inspect.signature(function).bind(*args, **kwargs).arguments
    if list(bound) == ["spec"]:
        spec = bound["spec"]
        return {name: getattr(spec, name) for name in spec.__dataclass_fields__}
    return dict(bound)


def call_post_compile(arguments):
    """AOTAutograd's callable for a training graph, built by post_compile from named arguments."""
    function = post_compile_of_aot()
    if list(inspect.signature(function).parameters) == ["spec"]:
        from torch._functorch._aot_autograd.runtime_wrappers import AOTDispatchAutogradCompileSpec
        return function(AOTDispatchAutogradCompileSpec(**arguments))
    return function(**arguments)


class recording:
    """While a Dynamo graph compiles in this thread: each AOTDispatchAutograd.post_compile's arguments and result go to
    records (a list). post_compile is wrapped once per process, and the wrapper only passes its call on elsewhere."""

    def __init__(self, records):
        self.records = records
        from torch._functorch._aot_autograd.runtime_wrappers import AOTDispatchAutograd
        original = AOTDispatchAutograd.post_compile
        if getattr(original, "kiln_records", None) is None:
            @functools.wraps(original)
            def post_compile(*args, **kwargs):
                result = original(*args, **kwargs)
                records = getattr(_recording, "records", None)
                if records is not None:
                    records.append((named_arguments(original, args, kwargs), result))
                return result
            post_compile.kiln_records = original
            AOTDispatchAutograd.post_compile = staticmethod(post_compile)

    def __enter__(self):
        self.outer = getattr(_recording, "records", None)
        _recording.records = self.records
        return self

    def __exit__(self, *exc):
        _recording.records = self.outer


def autograd_unlike_cold(arguments, forward, function_is_returned):
    """Why post_compile called again with these arguments would not give what AOTAutograd returned cold, or None.
    forward: kiln's compiled forward; function_is_returned: whether AOTAutograd returned post_compile's result with
    no wrapper of its own (deduplicated or synthetic-base inputs, debug asserts) around it. AOTAutograd's wrappers
    around the forward (effect tokens, tensor subclasses, functionalized RNG) pass the call through where the
    metadata has none of these (torch 2.11 wraps the forward in them all the same): it is then called without
    them."""
    meta = arguments.get("fw_metadata")
    symints = arguments.get("num_symints_saved_for_bw", arguments.get("num_symints_saved_for_bw_"))
    if not wraps_only(arguments.get("compiled_fw_func"), forward):
        return "AOTAutograd's forward is not kiln's"
    if not function_is_returned:
        return "AOTAutograd wraps its autograd.Function (duplicated or aliased inputs)"
    if arguments.get("maybe_subclass_meta") is not None or arguments.get("backward_state_indices") or symints:
        return "tensor subclasses, a backward state or symbolic sizes saved for the backward"
    if meta is None or getattr(meta, "tokens", True) or getattr(meta, "num_graphsafe_rng_states", 0) or \
            getattr(meta, "is_rng_op_functionalized", True):
        return "effect tokens, or random number generator states passed to the graphs"
    if set(arguments) - REBUILT - {"maybe_subclass_meta", "num_symints_saved_for_bw", "num_symints_saved_for_bw_",
                                   "backward_state_indices", "disable_amp", "indices_of_inps_to_detach",
                                   "fw_metadata"}:
        return f"post_compile takes arguments kiln does not know: {sorted(set(arguments) - REBUILT)}"
    return None


def wraps_only(function, inner):
    """Whether function is inner, or wrappers made by functools.wraps around it."""
    while function is not inner:
        function = getattr(function, "__wrapped__", None)
        if function is None:
            return False
    return True


def stored_arguments(arguments):
    """post_compile's arguments as bytes: those it is called with again (the metadata as the backward's compile
    left it), AOTAutograd's configuration without its compilers and decomposition table, and the names of those
    a warm start makes itself."""
    config = copy.copy(arguments["aot_config"])   # (a frozen dataclass: its fields set as its __init__ sets them)
    for name in ("fw_compiler", "bw_compiler", "inference_compiler", "partition_fn", "cache_info"):
        if hasattr(config, name):
            object.__setattr__(config, name, None)
    object.__setattr__(config, "decompositions", {})
    kept = {k: v for k, v in arguments.items() if k not in REBUILT}
    # kiln's backward never reuses the memory of saved tensors, and the backward a warm start loads is compiled:
    # AOTAutograd's check that the saved tensors are used once (against buffers donated to the backward) would
    # refuse retain_graph, where its lazy compile empties the list first
    meta = kept["fw_metadata"] = copy.copy(kept["fw_metadata"])
    if getattr(meta, "bw_donated_idxs", None):
        object.__setattr__(meta, "bw_donated_idxs", [])
    object.__setattr__(meta, "output_info", [without_view_replay(o) for o in meta.output_info])
    return pickle.dumps((kept, config, sorted(set(arguments) & REBUILT)))


def without_view_replay(output_info):
    """An output's alias info without the view functions functionalization recorded for it (its ViewMeta
    sequence), which AOTAutograd replays on the output's base: a warm start then remakes the view from the traced
    output's own view function, or by as_strided, as AOTAutograd does where it has none. A ViewMeta's pickled state
    is not always its own: an `_unsafe_view`'s (matmul's decomposition) held sizes read from freed memory (torch
    2.13), and a warm start replayed garbage sizes (random programs, seed 8828; reading them crashed a process)."""
    fields = {f.name for f in dataclasses.fields(output_info)} & {"view_meta_sequence", "functional_tensor"}
    return dataclasses.replace(output_info, **dict.fromkeys(fields)) if fields else output_info


def reduced_graph(graph):
    """A graph module as bytes: its code and constants, without its metadata (fake tensors)."""
    meta, graph.meta = graph.meta, {}
    try:
        buffer = io.BytesIO()
        graph_cache.ArtifactPickler(buffer).dump(graph)
        return buffer.getvalue()
    finally:
        graph.meta = meta


# ------------------------------------------------------------------------------------------------- loading

def load_dynamo_graph(digest, example_inputs, opts, gid):
    """The callable of a Dynamo graph stored whole, as AOTAutograd would return it, or None where the entry or one
    of its graphs is not in the cache, or does not load."""
    entry = graph_cache.get(opts.kernel_cache_dir, digest, "dynamo")
    if entry is None:
        return None
    training = isinstance(entry, graph_cache.TrainingEntry)
    # (kind, the graph cache's key, the inputs it writes, inputs on the devices of its own: a CUDA graph's choice)
    graphs = [("forward", entry.forward, entry.mutated, example_inputs),
              ("backward", entry.backward, entry.mutated_backward, entry.backward_devices)] if training else \
        [("inference", entry.inference, entry.mutated, example_inputs)]
    artifacts = [graph_cache.get(opts.kernel_cache_dir, digest) for _, digest, _, _ in graphs]
    if any(a is None for a in artifacts):
        return None
    try:
        calls = [loaded(artifact, f"g{gid}_{kind}", mutated, opts,
                        [torch.empty(0, device=d) for d in inputs] if kind == "backward" else inputs)
                 for (kind, _, mutated, inputs), artifact in zip(graphs, artifacts)]
        compiled = training_function(entry, *calls) if training else inference_function(entry, *calls)
    except Exception as e:   # a kernel that does not build: compile the graph through AOTAutograd instead
        if opts.strict:
            raise
        from kiln.capture import first_line
        log.warning("kiln: g%d from the graph cache did not load; compiling it: %s: %s", gid, type(e).__name__,
                    first_line(e))
        return None
    from kiln.capture import STATS
    STATS["dynamo_graphs_from_cache"] += 1
    return compiled


def loaded(artifact, name, mutated, opts, example_inputs):
    from kiln.capture import boxed, finished
    from kiln.runtime.module import load
    started, times = time.perf_counter(), {}
    module = load(artifact.named(name), opts, times, generated=False)
    times["loading"] = time.perf_counter() - started - sum(times.values())
    return finished(module, artifact, name, True, times, boxed(artifact, opts, name, mutated, example_inputs))


def called_with(compiled, lifted):
    """compiled called with the tensors the Dynamo graph holds before its inputs, as AOTAutograd's callable passes
    them (the same tensors at every call: the graph module holds them)"""
    if not lifted:
        return compiled

    def forward(*args):
        return compiled(*lifted, *args)
    return forward


def inference_function(entry, call):
    versioned = entry.versioned

    def forward(*args):
        if versioned:
            torch.autograd.graph.increment_version(tuple(args[i] for i in versioned))
        if torch.is_grad_enabled():
            with torch.no_grad():
                return call(list(args))
        return call(list(args))
    return forward


def training_function(entry, forward, backward):
    """AOTAutograd's callable rebuilt by its post_compile from the stored arguments and the cached graphs."""
    from torch._functorch import aot_autograd
    from torch._functorch._aot_autograd.runtime_wrappers import CachedAutogradLazyBackwardCompileInfo
    kept, config, rebuilt = pickle.loads(entry.autograd)
    if hasattr(aot_autograd, "AOT_COUNTER"):   # (compiled autograd tells AOTAutograd's functions apart by it)
        object.__setattr__(config, "aot_id", next(aot_autograd.AOT_COUNTER))
    graph = entry.backward_graph
    made = dict(compiled_fw_func=forward, compiled_bw_func=torch._dynamo.disable(backward), aot_config=config,
                # compiled autograd traces the backward graph again: AOTAutograd's cache keeps it so too
                lazy_backward_info=CachedAutogradLazyBackwardCompileInfo(lambda: pickle.loads(graph)),
                bw_compiler=None, try_save_cache_entry=None)
    function = call_post_compile(dict(kept, **{name: made[name] for name in rebuilt}))

    def forward_call(*args):
        return function(list(args))
    return forward_call


def layouts(example_inputs):
    """Each input's sizes, strides and dtype where it is a plain tensor (or a parameter), else None."""
    return [(x.shape, x.stride(), x.dtype) if type(x) in (torch.Tensor, torch.nn.Parameter) else None
            for x in example_inputs]


def aot_adds_nothing(graph, input_layouts):
    """For an inference graph compiled now, under AOTAutograd: the inputs it writes that autograd sees, where
    AOTAutograd's runtime wrappers around it do nothing else than turn grad mode off for the call and move those
    inputs' version counters; else None. Then a warm start calls the compiled graph with the Dynamo graph's inputs
    itself (load_dynamo_graph). They do more where the graph's inputs are not the Dynamo graph's (duplicates
    merged, aliased inputs merged into their base, effect tokens), an output aliases an input or another output or
    is a view to replay, an input is written outside the graph (a metadata change), random ops are
    functionalized, or autocast is on (AOTAutograd turns it off around the call)."""
    from torch._functorch._aot_autograd.schemas import OutputType
    meta = getattr(torch._guards.TracingContext.try_get(), "fw_metadata", None)
    placeholders = [n.meta.get("val") for n in graph.graph.find_nodes(op="placeholder")]
    if meta is None or torch._C._is_any_autocast_enabled() or len(placeholders) != len(input_layouts) or not all(
            isinstance(p, torch.Tensor) and x is not None and (p.shape, p.stride(), p.dtype) == x
            for p, x in zip(placeholders, input_layouts)):
        return None
    plain = getattr(meta, "num_mutated_inp_runtime_indices", 1) == 0 and \
        getattr(meta, "num_intermediate_bases", 1) == 0 and getattr(meta, "grad_enabled_mutation", True) is None and \
        not getattr(meta, "tokens", True) and getattr(meta, "is_rng_op_functionalized", True) is False and \
        not getattr(meta, "dynamic_outputs", True) and \
        all(o.output_type is OutputType.non_alias for o in meta.output_info) and \
        len(meta.output_info) == len(graph.graph.output_node().args[0]) and \
        not any(type(m).__name__ == "SubclassCreationMeta"
                for m in getattr(meta, "subclass_fw_graph_out_meta", None) or [])
    versioned = getattr(meta, "mutated_graph_handled_indices_seen_by_autograd", None)
    return list(versioned) if plain and versioned is not None else None
