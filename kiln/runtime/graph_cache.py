"""The graph cache: a compiled graph's Artifact on disk, found again by a later process (a warm start), which then
skips lowering, scheduling and code generation and only loads the kernels (from the kernel caches) and the
wrapper.

The key is a hash of everything the Artifact depends on: every node of the ATen graph as FX prints it, with
its tensor's shape, strides, dtype and device and the marks lowering reads, the bytes of the graph's constant
tensors, the example inputs (and which of them share storage), the layouts asked of the outputs, the options
that change code, kiln's own source, and the versions of torch, Triton, Python and the C++ compiler. Graphs
with symbolic sizes are not cached: their code depends on the shape environment's facts and hints too.

A Dynamo graph is also stored whole (kiln.warm_start), under its own key: the Dynamo graph, its inputs (the tensors
it holds first, by their layouts and names: AOTAutograd passes them to its graphs as inputs), grad mode, autocast,
the default dtype, AOTAutograd's configuration. A warm start then skips AOTAutograd's trace as well,
which took most of kiln's warm start. Graphs that call a function from outside torch and Python's operators are
not stored whole: its meaning may differ in another process.

Entries are written whole and renamed into place, so that processes sharing the cache never read half of one;
an entry that does not load, or whose recorded key is not the one looked up, is a miss and is written again.
"""
import dataclasses
import functools
import hashlib
import io
import logging
import os
import pickle
import platform
import sys
import tempfile
import types

import torch
from torch._subclasses.fake_tensor import unset_fake_temporarily

log = logging.getLogger("kiln.cache")

VERSION = 1
# kiln's environment variables that do not change code (the others, like KILN_TARGET, are in the key)
NOT_CODE = {"KILN_CACHE_DIR", "KILN_TEST_CACHE_DIR", "KILN_LOGS", "KILN_TRACE", "KILN_COMPILE_THREADS",
            "KILN_BUILD_WORKERS", "KILN_TRITON_LAUNCHER", "KILN_CUDA_DRIVER", "KILN_GRAPH_CACHE", "KILN_STRICT"}


class Uncacheable(Exception):
    """This graph is compiled but not cached (the reason is logged)."""


def key(gm, example_inputs, opts, kind, *facts, lifted=()):
    """The graph's cache key (facts: what else its code depends on); raises Uncacheable where the graph has symbolic
    sizes or other inputs than tensors. lifted: the names of the graph's tensors that it is called with (among
    example_inputs), not constants whose values are hashed."""
    h = hashlib.sha256()

    def add(*parts):
        for part in parts:
            h.update(repr(part).encode())
            h.update(b"\0")
    add(f"kiln graph cache {VERSION}", kiln_source_digest(), torch.__version__, sys.version, platform.machine())
    add(kind, *facts, opts.target, opts.debug, opts.tunes, opts.dependent_launch,
        torch.are_deterministic_algorithms_enabled(),
        matmul_precisions(), sorted((k, v) for k, v in os.environ.items()
                                                      if k.startswith("KILN_") and k not in NOT_CODE))
    storages = {}
    for x in example_inputs:
        if not isinstance(x, torch.Tensor):
            raise Uncacheable(f"an input is a {type(x).__name__}")
        add(tensor_meta(x), x.requires_grad, storages.setdefault(x.untyped_storage()._cdata, len(storages)))
    devices = {x.device for x in example_inputs}
    for node in gm.graph.nodes:
        value = node.meta.get("val", node.meta.get("example_value"))
        # every device the graph touches, not only its inputs': a graph of CPU inputs may move them to a GPU, and
        # that GPU's kernels are built for its compute capability (programmatic dependent launch from 9.0 on)
        devices.update(v.device for v in (value if isinstance(value, (list, tuple)) else [value])
                       if isinstance(v, torch.Tensor))
        add(node.format_node(), meta_of(value),
            str(node.meta.get("recompute")),
            str(node.meta.get("original_aten")))
        if node.op == "get_attr" and node.target not in lifted:
            value = getattr(gm, node.target)
            if isinstance(value, torch.Tensor):
                with unset_fake_temporarily():   # (compiled under AOTAutograd's fake mode; the constant is real)
                    data = value.detach().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()
                add(tensor_meta(value), hashlib.sha256(data).hexdigest())
                devices.add(value.device)
            else:   # a subgraph, a script object: not hashed here
                raise Uncacheable(f"a constant {type(value).__name__}")
    devices = tuple(sorted(devices, key=str))
    add(devices, toolchain(opts.target, devices))
    return h.hexdigest()


# Functions a Dynamo graph may call and still be cached: torch's and Python's operators, whose meaning comes with
# torch's version (in the key). A user's function (allow_in_graph) or custom op may mean another thing in another
# process under the same name.
TRUSTED_MODULES = {"torch", "_operator", "operator", "math", "builtins"}


def trusted(target):
    """Whether the name a node prints for target says all it does: an ATen or prims operator, or a function of torch
    or Python's operators that its printed module and name lead back to (not a closure or wrapper, whose name
    leaves out what it wraps; not an object with state)."""
    if isinstance(target, torch._ops.OpOverload):
        return target.namespace in ("aten", "prims")
    if isinstance(target, torch._ops.OpOverloadPacket):
        return target._qualified_op_name.split("::")[0] in ("aten", "prims")
    if not isinstance(target, (types.FunctionType, types.BuiltinFunctionType)):
        return False   # (a higher-order operator: its subgraphs, and the ops it takes as arguments)
    try:
        name = torch.fx.node._get_qualified_name(target)   # as the node prints it
    except Exception:
        return False
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):   # the longest prefix that is a module, then attributes
        found = sys.modules.get(".".join(parts[:cut]))
        if found is not None:
            for part in parts[cut:]:
                found = getattr(found, part, None)
            return parts[0] in TRUSTED_MODULES and found is target
    return False


def traced_flags():
    """Settings that change which ops AOTAutograd's trace records for the same Dynamo graph (Dynamo does not
    guard them): the attention kernels allowed (flash, memory-efficient, math, cuDNN) and their order, and
    opt_einsum's contraction order."""
    cuda, einsum = torch.backends.cuda, getattr(torch.backends, "opt_einsum", None)
    names = ("flash_sdp_enabled", "mem_efficient_sdp_enabled", "math_sdp_enabled", "cudnn_sdp_enabled",
             "fp16_bf16_reduction_math_sdp_allowed")
    flags = [(n, getattr(cuda, n)()) for n in names if hasattr(cuda, n)]
    if hasattr(torch._C, "_get_sdp_priority_order"):
        flags.append(("sdp order", tuple(torch._C._get_sdp_priority_order())))
    if einsum is not None:
        flags.append(("opt_einsum", einsum.enabled, einsum.strategy if einsum.is_available() else None))
    return flags


def lifted_tensors(gm):
    """{name: tensor} of the parameters and buffers a Dynamo graph holds (an optimizer step's parameters and
    states), in the order AOTAutograd passes them to its graphs before the Dynamo graph's inputs."""
    return {**dict(gm.named_parameters(remove_duplicate=False)), **dict(gm.named_buffers(remove_duplicate=False))}


def dynamo_key(gm, example_inputs, opts):
    """(the key of a graph as Dynamo hands it over, for a warm start without AOTAutograd's trace (kiln.warm_start);
    the tensors the graph holds, `lifted_tensors`). Besides what `key` hashes: grad mode, autocast, the default
    dtype, which inputs are leaves of autograd's graph, AOTAutograd's configuration, the partitioner's and
    `traced_flags`. The tensors the graph holds are inputs passed first, by their layouts, not their values. Raises
    Uncacheable where the graph calls a module or a function not `trusted`, holds modules of its own (saved-tensor
    hooks come as modules no node calls), AOTAutograd's configuration holds a function (a joint graph pass: another
    process may hold another under the same name), or an input is a tensor subclass, a sparse tensor or a lazily
    conjugated or negated one."""
    for node in gm.graph.nodes:
        if node.op == "call_module" or node.op == "call_function" and not trusted(node.target):
            raise Uncacheable(f"it calls {node.target}")
    if next(gm.children(), None) is not None:
        raise Uncacheable("the graph holds modules of its own")
    lifted = lifted_tensors(gm)
    example_inputs = [*lifted.values(), *example_inputs]
    for x in example_inputs:
        if isinstance(x, torch.Tensor) and (type(x) not in (torch.Tensor, torch.nn.Parameter) or
                                            x.layout != torch.strided or x.is_conj() or x.is_neg()):
            raise Uncacheable(f"an input is a {type(x).__name__} ({x.layout}, conj {x.is_conj()}, neg {x.is_neg()})")
    functorch = sorted(torch._functorch.config.get_config_copy().items())
    for name, value in functorch:
        if callable(value):
            raise Uncacheable(f"AOTAutograd's {name} is a function")
    leaves = [x.is_leaf if isinstance(x, torch.Tensor) else None for x in example_inputs]
    # (a tensor marked static, mark_static_address, is read in place by a CUDA graph: cuda_graphs.placed_inputs)
    static = [getattr(x, "_dynamo_static_input_type", None) for x in example_inputs]
    return key(gm, example_inputs, opts, "dynamo", torch.is_grad_enabled(), autocast_state(), leaves, static,
               str(torch.get_default_dtype()), functorch, partitioner_flags(), traced_flags(), list(lifted),
               lifted=set(lifted)), list(lifted.values())


def partitioner_flags():
    """The settings torch's min-cut partitioner reads besides AOTAutograd's own: activation quantization, from the
    fusion options of Inductor's configuration, as the partitioner module holds it (kiln never imports it)."""
    from torch._functorch import partitioners
    return repr(getattr(getattr(partitioners, "inductor_config", None), "post_grad_fusion_options", None))


def matmul_precisions():
    """torch's float32 matmul precision through both its APIs: the older one's (None where it raises, as it does
    once the newer per-backend one was used), and oneDNN's and cuBLAS's own."""
    try:
        legacy = torch.get_float32_matmul_precision()
    except RuntimeError:
        legacy = None
    return legacy, *(getattr(getattr(backend, "matmul", None), "fp32_precision", None)
                     for backend in (torch.backends.mkldnn, torch.backends.cuda))


def autocast_state():
    """Autocast as AOTAutograd's trace applies it: on or off, and to which dtype, on the CPU and CUDA devices."""
    state = [(device, torch.is_autocast_enabled(device), str(torch.get_autocast_dtype(device)))
             for device in ("cpu", "cuda")]
    if torch._C._is_any_autocast_enabled() and not any(enabled for _, enabled, _ in state):
        raise Uncacheable("autocast is on for another device")
    return state


@dataclasses.dataclass
class DynamoEntry:
    """A Dynamo graph whose AOTAutograd result was its inference graph alone, called with the Dynamo graph's own
    inputs (warm_start.aot_adds_nothing): what a warm start needs to load that graph without AOTAutograd's trace."""
    name: str
    inference: str     # the graph cache's key of the inference graph
    mutated: list      # the inputs the graph writes (a CUDA graph's replay copies them back)
    versioned: list    # those of them autograd sees: AOTAutograd's wrapper moves their version counters at each call


@dataclasses.dataclass
class TrainingEntry:
    """A Dynamo graph compiled to a forward and a backward: what a warm start needs to rebuild AOTAutograd's
    autograd.Function around them without AOTAutograd's trace (warm_start.training_function)."""
    name: str
    forward: str            # the graph cache's keys of the forward and the backward graphs
    mutated: list           # the inputs the forward writes
    backward: str
    mutated_backward: list
    backward_devices: list  # the devices of the backward's inputs (whether a CUDA graph can replay it)
    autograd: bytes         # AOTDispatchAutograd.post_compile's stored arguments (warm_start.stored_arguments)
    backward_graph: bytes   # the backward graph module, for compiled autograd


def tensor_meta(t):
    meta = (tuple(t.shape), t.stride(), t.storage_offset(), str(t.dtype), str(t.device), str(t.layout))
    if not all(isinstance(v, int) for part in meta[:2] for v in part) or not isinstance(meta[2], int):
        raise Uncacheable("symbolic sizes")
    return meta


def meta_of(value):
    if isinstance(value, torch.Tensor):
        return tensor_meta(value)
    if isinstance(value, (list, tuple)):
        return [meta_of(v) for v in value]
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        raise Uncacheable("symbolic sizes")
    return repr(value)


@functools.cache
def kiln_source_digest():
    """A hash of kiln's own source: an edited kiln never loads what another kiln compiled."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as f:
                    h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()


@functools.cache
def toolchain(target, devices):
    """The compilers and GPUs the kernels are built for (once per process and device set: the key of every graph)."""
    if any(d.type == "cuda" for d in devices) or target == "triton":
        import importlib.metadata
        gpus = [(torch.cuda.get_device_name(d), torch.cuda.get_device_capability(d)) for d in devices if d.type == "cuda"]
        return importlib.metadata.version("triton"), gpus, os.environ.get("TRITON_INTERPRET")
    from kiln.runtime.cpp_build import toolchain_id
    return toolchain_id()


def path_of(cache_dir, digest, folder="graphs"):
    return os.path.join(cache_dir, folder, digest[:2], f"{digest}.pkl")


def get(cache_dir, digest, folder="graphs"):
    """The stored Artifact (a DynamoEntry in folder "dynamo"), or None."""
    path = path_of(cache_dir, digest, folder)
    if not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as f, unset_fake_temporarily():   # constant tensors come back real, not fake
            entry = pickle.load(f)
        if entry["key"] != digest:
            raise ValueError("the entry records another key")
        log.info("kiln graph cache hit: %s", path)
        return entry["artifact"]
    except Exception as e:   # cut short, from another kiln, unreadable: compile the graph again
        log.info("kiln graph cache: %s does not load (%s: %s); compiling the graph", path, type(e).__name__, e)
        return None


def put(cache_dir, digest, artifact, folder="graphs"):
    """Stores artifact under digest; returns whether it did."""
    path = path_of(cache_dir, digest, folder)
    buffer = io.BytesIO()
    try:
        with unset_fake_temporarily():
            ArtifactPickler(buffer).dump({"key": digest, "artifact": artifact})
    except Exception as e:   # an object in the wrapper's scope that does not pickle: the graph stays uncached
        log.info("kiln graph cache: %s is not stored: %s: %s", artifact.name, type(e).__name__, e)
        return False
    try:
        write_whole(path, buffer.getvalue())
    except OSError as e:   # a full disk, a read-only cache: the graph runs, uncached
        log.warning("kiln graph cache: %s is not stored: %s", artifact.name, e)
        return False
    return True


def write_whole(path, data):
    """path's contents replaced by data (bytes or text) at once: a reader finds the old file or the new one, never
    a part (written to a temporary file in the same folder, then renamed over path)."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def op_named(namespace, name, overload):
    return getattr(getattr(getattr(torch.ops, namespace), name), overload)


class ArtifactPickler(pickle.Pickler):
    """Pickles ATen operators (extern calls and eager fallbacks in the wrapper's scope) by their names."""

    def reducer_override(self, obj):
        if isinstance(obj, torch._ops.OpOverload):
            namespace, name = obj._schema.name.split("::")
            return op_named, (namespace, name, obj._overloadname or "default")
        return NotImplemented
