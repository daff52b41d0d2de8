"""mode="reduce-overhead": a compiled graph recorded as a CUDA graph after a warm-up call, then replayed.

A replay launches the whole wrapper (kernels and library calls) at once, at the addresses it was recorded
with. So each call of a recorded graph:
- reads an input in place where its address is the recorded one (parameters, buffers, a static KV cache: any
  input whose address was the same at the warm-up and at the recording, and stays so; and any input with gaps,
  which no buffer can take). Another input is copied into a buffer the graph owns; an input read in place that
  moves makes the graph be recorded again, copying that input from then on (one with gaps: read in place at its
  new address);
- copies the inputs it mutates back from the graph's own buffer, where it has one;
- returns fresh outputs: they are copied out of the graph's memory, storage by storage (outputs that view one
  storage still view one), so that the next replay never overwrites a tensor the caller holds. That costs a
  copy of the outputs (a forward's saved activations too), where Inductor hands out the graph's memory and
  raises when an overwritten output is read; kiln chose never to hand it out.
Since a replay leaves nothing behind that another graph reads, every graph of a device records into one
memory pool: graphs split by breaks, and a forward and its backward, share their intermediates' memory.

A graph is recorded once per shape (dynamic=True), at most MAX_RECORDINGS times in all; past that, new shapes
run without a graph, with one warning. Graphs that cannot be recorded run as compiled, with one log line
saying why (CPU tensors, a capture that fails). Random draws take their seeds from a tensor drawn on the device at
each call (lowering.graph.Seeds), by torch's generator, which CUDA graphs replay with fresh offsets: a replayed
dropout draws a new mask."""
import collections
import logging

import torch

log = logging.getLogger("kiln.cudagraphs")
COUNTS = collections.Counter()   # cuda_graph_recordings, cuda_graph_replays (in kiln.stats())

MODES = ("reduce-overhead", "max-autotune")   # the modes that record CUDA graphs
MAX_RECORDINGS = 8   # per compiled graph: its shapes, and recordings again after an input moved

_view = torch._C._dynamo.guards._reinterpret_tensor


def graphed(call, mutated, example_inputs, name, computes_on=()):
    """call (a compiled graph's boxed callable) replayed from recordings, or call itself with a log line saying
    why it cannot be. mutated: the indices of the inputs the graph writes; computes_on: the device types of the
    graph's buffers."""
    devices = {t.device for t in example_inputs if isinstance(t, torch.Tensor)}
    device = devices.pop() if len(devices) == 1 else None
    if device is None:
        reason = "it reads tensors on several devices" if devices else "it reads no tensor"
    elif device.type not in RECORDERS:
        reason = f"it runs on the {device.type.upper()}"
    elif set(computes_on) - {device.type}:
        reason = f"part of it runs on the {'/'.join(sorted(set(computes_on) - {device.type})).upper()}, which a " \
                 "replay would not run"
    else:
        return GraphedCall(call, name, mutated, shape_key_inputs(example_inputs),
                           RECORDERS[device.type](device))
    log.info("kiln: %s runs without a CUDA graph: %s", name, reason)
    return call


def shape_key_inputs(example_inputs):
    """The indices of the inputs that tell one shape from another: sizes passed as ints, tensors of symbolic
    sizes. Empty for a graph of static shapes."""
    def symbolic(a):
        return isinstance(a, torch.SymInt) or isinstance(a, torch.Tensor) and any(
            isinstance(n, torch.SymInt) for n in a.shape)
    return [i for i, a in enumerate(example_inputs) if symbolic(a)]


class GraphedCall:
    """A compiled graph's boxed callable, replayed from a recording per shape."""

    def __init__(self, call, name, mutated, key_inputs, recorder):
        self.call, self.name, self.mutated, self.key_inputs, self.recorder = call, name, mutated, key_inputs, recorder
        self.warm = {}         # shape key -> the inputs' addresses at the warm-up call
        self.recordings = {}   # shape key -> Recording
        self.copied = {}       # shape key -> indices of inputs to copy (their address moved once)
        self.count = 0
        self.disabled = None   # why nothing more is recorded
        self._boxed_call = True

    def __call__(self, args):
        key = tuple(args[i] if not isinstance(args[i], torch.Tensor) else tuple(args[i].shape)
                    for i in self.key_inputs)
        recording = self.recordings.get(key)
        if recording is not None:
            outputs = recording.replay(args)
            if outputs is not None:
                COUNTS["cuda_graph_replays"] += 1
                args.clear()
                return outputs
            moved = recording.moved(args)
            log.info("kiln: %s records its CUDA graph again: input %s is not where it was recorded", self.name,
                     ", ".join(map(str, moved)))
            self.copied[key] = sorted(set(self.copied.get(key, ())) | set(moved))
            del self.recordings[key]
        elif key not in self.warm or self.disabled:
            # the first call of a shape runs as compiled (it builds any kernel not yet built, starts cuBLAS),
            # and shows which inputs keep their address
            self.warm.setdefault(key, addresses(args))
            return self.call(args)
        if self.count >= MAX_RECORDINGS:
            self.disabled = f"it was recorded {MAX_RECORDINGS} times (shapes, or inputs that moved)"
            log.warning("kiln: %s runs without a CUDA graph from now on wherever it has no recording (a new shape, "
                        "inputs that moved): %s", self.name, self.disabled)
            return self.call(args)
        stable = {i for i, (a, b) in enumerate(zip(self.warm[key], addresses(args))) if a is not None and a == b}
        # an input with gaps cannot be copied into a buffer: read in place all the same, even after it moved (a
        # backward's saved q, k and v, slices of one product, are often where the allocator put the last step's),
        # recorded again where it moves (at most MAX_RECORDINGS times in all)
        gaps = {i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and not dense(a)}
        in_place = sorted((stable - set(self.copied.get(key, ()))) | gaps)
        try:
            recording = Recording(self.recorder, self.call, args, in_place, self.mutated)
        except Exception as e:   # noqa: BLE001 (an op that synchronizes, an input that cannot be copied, ...)
            self.disabled = f"recording failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            log.warning("kiln: %s runs without a CUDA graph: %s", self.name, self.disabled)
            self.warm[key] = addresses(args)
            return self.call(args)
        self.count += 1
        COUNTS["cuda_graph_recordings"] += 1
        self.recordings[key] = recording
        outputs = recording.replay(args)   # (recording runs nothing: the first replay computes this call)
        COUNTS["cuda_graph_replays"] += 1
        args.clear()
        return outputs


def addresses(args):
    return [a.data_ptr() if isinstance(a, torch.Tensor) else None for a in args]


def addresses_equal(tensors, addresses, indices):
    return all(tensors[i].data_ptr() == addresses[i] for i in indices)


# the same check in C++ where torch is built with CUDA (a replay checks every parameter's address), for lists of
# tensors and ints
addresses_equal_in_cpp = getattr(torch._C, "_tensors_data_ptrs_at_indices_equal", addresses_equal)


class Recording:
    """One recorded graph: the inputs it reads in place (their indices, and every input's address at the
    recording) and the buffers it copies the others into, and how each output is made from the graph's memory
    after a replay."""

    def __init__(self, recorder, call, args, in_place, mutated):
        self.in_place, self.addresses = list(in_place), addresses(args)
        self.same_addresses = addresses_equal_in_cpp if all(isinstance(a, (torch.Tensor, int)) for a in args) \
            else addresses_equal
        in_place, mutated = set(in_place), set(mutated)
        self.copied = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and i not in in_place]
        for i in self.copied:
            if not dense(args[i]):
                raise ValueError(f"input {i} overlaps itself or has gaps: it cannot be copied into a buffer")
        self.static = [torch.empty_strided(args[i].shape, args[i].stride(), dtype=args[i].dtype,
                                           device=args[i].device) for i in self.copied]
        self.copied_back = [(i, s) for i, s in zip(self.copied, self.static) if i in mutated]
        inputs = list(args)
        for i, s in zip(self.copied, self.static):
            inputs[i] = s
        self.replay_graph, outputs = recorder.record(call, inputs)
        # each output as: ("value", v) | ("empty", sizes, strides, dtype, device) | ("input", index, sizes,
        # strides, offset from the input's) | ("memory", storage number, dtype, sizes, strides, storage offset)
        self.memory, numbers, self.recipes = [], {}, []
        for o in outputs:
            if not isinstance(o, torch.Tensor):
                self.recipes.append(("value", o))
                continue
            storage = o.untyped_storage()
            if storage.nbytes() == 0:   # (every empty storage has address 0: it views nothing)
                self.recipes.append(("empty", o.shape, o.stride(), o.dtype, o.device))
                continue
            i = next((i for i, t in enumerate(inputs) if isinstance(t, torch.Tensor) and within(o, t)), None)
            if i is not None:
                self.recipes.append(("input", i, o.shape, o.stride(), o.storage_offset() - inputs[i].storage_offset()))
                continue
            if storage.data_ptr() not in numbers:
                numbers[storage.data_ptr()] = len(self.memory)
                self.memory.append(torch.empty(0, dtype=torch.uint8, device=o.device).set_(storage))
            self.recipes.append(("memory", numbers[storage.data_ptr()], o.dtype, o.shape, o.stride(),
                                 o.storage_offset()))

    def moved(self, args):
        return [i for i in self.in_place if args[i].data_ptr() != self.addresses[i]]

    def replay(self, args):
        """This call's outputs, or None where an input read in place is not where it was recorded."""
        if not self.same_addresses(args, self.addresses, self.in_place):
            return None
        if self.copied:
            torch._foreach_copy_(self.static, [args[i] for i in self.copied])
        self.replay_graph()
        if self.copied_back:
            torch._foreach_copy_([args[i] for i, _ in self.copied_back], [s for _, s in self.copied_back])
        fresh = [torch.empty_like(m) for m in self.memory]
        if fresh:
            torch._foreach_copy_(fresh, self.memory)
        outputs = []
        for recipe in self.recipes:
            if recipe[0] == "value":
                outputs.append(recipe[1])
            elif recipe[0] == "empty":
                _, sizes, strides, dtype, device = recipe
                outputs.append(torch.empty_strided(sizes, strides, dtype=dtype, device=device))
            elif recipe[0] == "input":
                _, i, sizes, strides, offset = recipe
                outputs.append(_view(args[i], sizes, strides, offset))
            else:
                _, number, dtype, sizes, strides, offset = recipe
                outputs.append(_view(fresh[number].view(dtype), sizes, strides, offset))
        return outputs


def within(o, t):
    """Whether tensor o views memory inside tensor t's own span, in t's storage: o is then rebuilt as a view of
    whatever tensor is passed there next (an input's storage may hold more than the input)."""
    if o.untyped_storage().data_ptr() != t.untyped_storage().data_ptr() or t.numel() == 0:
        return False
    return t.data_ptr() <= o.data_ptr() and o.data_ptr() + span(o) <= t.data_ptr() + span(t)


def span(t):
    """The bytes from t's first element to the end of its last."""
    return (sum((n - 1) * st for n, st in zip(t.shape, t.stride())) + 1) * t.element_size() if t.numel() else 0


def dense(t):
    return t.numel() == 0 or torch._prims_common.is_non_overlapping_and_dense_or_false(t)


class CudaRecorder:
    """Records a callable as a CUDA graph into the device's shared memory pool (see above). The pool is a MemPool
    held for the process: a pool named by a bare handle is released with the last graph recorded into it, and
    recording into its handle again failed an assert in the allocator (a model's graphs freed, the next model's
    recorded)."""
    pools = {}

    def __init__(self, device):
        self.device = device

    def record(self, call, inputs):
        """(a function replaying the graph, the outputs as recorded, in the graph's memory)"""
        with torch.cuda.device(self.device):
            if self.device not in CudaRecorder.pools:
                CudaRecorder.pools[self.device] = torch.cuda.MemPool()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, pool=CudaRecorder.pools[self.device].id):
                outputs = call(list(inputs))
        return graph.replay, outputs


RECORDERS = {"cuda": CudaRecorder}   # by device type (tests add a CPU recorder that replays by running the call)
