"""mode="reduce-overhead": a compiled graph recorded as a CUDA graph after a warm-up call, then replayed.

A replay launches the whole wrapper (kernels and library calls) at once, at the addresses it was recorded
with. So each call of a recorded graph:
- reads an input in place where its address is the recorded one (parameters, buffers, a static KV cache: any
  input whose address was the same at the warm-up and at the recording, and stays so; any input with gaps,
  which no buffer can take; and any output another recording handed out, a forward's saved activations read by
  its backward). Another input is copied into a buffer the graph owns; an input read in place that moves makes
  the graph be recorded again, copying that input from then on (one with gaps, or handed out: read in place at
  its new address);
- copies the inputs it mutates back from the graph's own buffer, where it has one;
- hands out its outputs in the graph's own memory, where nobody holds the last replay's (a training step's
  activations, read once by the backward, are never copied); an output found still held when the graph is
  replayed again is copied out from then on, storage by storage (outputs that view one storage still view one).
  A training forward's activations (the outputs AOTAutograd saves for the backward alone) are handed out as the
  same tensor objects at every replay, which nothing else holds then (`Recording.kept`; a weak reference to one
  sees the next replay's values, as a tensor of the caller's own would see its next step's if the caller reused
  it).

Every graph of a device records into one memory pool (`Pool`), so a forward and its backward, and graphs split
by breaks, share their intermediates' memory. A recording's intermediates are free memory once it ends, where a
later recording can place its outputs; memory an output holds is never given to a later recording. So a replay
writes only over outputs handed out by itself or by recordings made after it: where one of those is still held
(a tensor views its storage), the graph is not replayed over it but recorded again (after the held memory,
which the new recording cannot take), and the outputs found held are copied out from then on. (A storage held
outside with no tensor viewing it, `t.untyped_storage()` kept alone, is not seen.)

A graph is recorded once per shape (dynamic=True), at most MAX_RECORDINGS times for shapes and inputs that
moved, and as many again after held outputs; past that, new shapes run without a graph, with one warning. Graphs
that cannot be recorded run as compiled, with one log line saying why (CPU tensors, a capture that fails). Random
draws take their seeds from a tensor drawn on the device at each call (lowering.seeds_and_constants.Seeds), by torch's
generator, which CUDA graphs replay with fresh offsets: a replayed dropout draws a new mask."""
import bisect
import collections
import functools
import logging
import sys
import threading
import weakref

import torch
from torch.multiprocessing.reductions import StorageWeakRef

from kiln.runtime import library_plans

log = logging.getLogger("kiln.cudagraphs")
COUNTS = collections.Counter()   # cuda_graph_recordings, cuda_graph_replays (in kiln.stats())

MODES = ("reduce-overhead", "max-autotune")   # the modes that record CUDA graphs
MAX_RECORDINGS = 8   # per compiled graph: its shapes, and recordings again after an input moved

_view = torch._C._dynamo.guards._reinterpret_tensor


def graphing(mutated, example_inputs, name, computes_on=(), saved_from=None):
    """What makes a compiled graph's boxed callable replay from recordings (a function of the callable), or None
    with a log line saying why it cannot be, decided from the example inputs, which it does not hold. mutated: the
    indices of the inputs the graph writes; computes_on: the device types of the graph's buffers; saved_from: a
    training forward's first output that AOTAutograd saves for the backward alone."""
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
        key_inputs = shape_key_inputs(example_inputs)
        return lambda call: GraphedCall(call, name, mutated, key_inputs, RECORDERS[device.type](device),
                                        POOLS.setdefault(device, Pool()), saved_from)
    log.info("kiln: %s runs without a CUDA graph: %s", name, reason)
    return None


def shape_key_inputs(example_inputs):
    """The indices of the inputs that tell one shape from another: sizes passed as ints, tensors of symbolic
    sizes. Empty for a graph of static shapes."""
    def symbolic(a):
        return isinstance(a, torch.SymInt) or isinstance(a, torch.Tensor) and any(
            isinstance(n, torch.SymInt) for n in a.shape)
    return [i for i, a in enumerate(example_inputs) if symbolic(a)]


class GraphedCall:
    """A compiled graph's boxed callable, replayed from a recording per shape."""

    def __init__(self, call, name, mutated, key_inputs, recorder, pool, saved_from=None):
        self.call, self.name, self.mutated, self.key_inputs = call, name, mutated, key_inputs
        self.recorder, self.pool, self.saved_from = recorder, pool, saved_from
        self.warm = {}         # shape key -> the inputs' addresses at the warm-up call
        self.recordings = {}   # shape key -> Recording
        self.copied = {}       # shape key -> indices of inputs to copy (their address moved once)
        self.copied_out = {}   # shape key -> indices of outputs to copy out (found held at a later replay)
        self.count = 0         # recordings for new shapes and inputs that moved
        self.again = 0         # recordings again after held outputs (MAX_RECORDINGS more)
        self.disabled = None   # why nothing more is recorded
        self._boxed_call = True

    def __call__(self, args):
        # one thread at a time per device: a replay must see the outputs another thread's replay hands out before it
        # writes over them, and warm-ups and recordings share the device's stream and pool
        with self.pool.lock:
            return self.replayed_or_recorded(args)

    def replayed_or_recorded(self, args):
        key = tuple(args[i] if not isinstance(args[i], torch.Tensor) else tuple(args[i].shape)
                    for i in self.key_inputs)
        recording, again = self.recordings.get(key), False
        if recording is not None:
            held = self.pool.held_over(recording)
            if held:
                # outputs held are copied out from now on, but for another graph's that this call reads (a
                # forward's activations, recorded again after this backward was): this graph only needs recording
                # after them. (Its own output read again, a state fed back, is copied out: recorded after it, the
                # next output would be held at the next call again.)
                reading = {a.untyped_storage().data_ptr() for a in args if isinstance(a, torch.Tensor)}
                for entry in held:
                    owner = entry.owner()
                    if owner is not None and (owner is self or entry.address not in reading):
                        owner.copied_out.setdefault(entry.key, set()).update(entry.outputs)
                reason, again = "outputs it would overwrite are still held", True
            else:
                outputs = recording.replay(args)
                if outputs is not None:
                    COUNTS["cuda_graph_replays"] += 1
                    args.clear()
                    return outputs
                moved = recording.moved(args)
                reason = f"input {', '.join(map(str, moved))} is not where it was recorded"
                self.copied[key] = sorted(set(self.copied.get(key, ())) | set(moved))
            log.info("kiln: %s records its CUDA graph again: %s", self.name, reason)
            self.pool.retire(recording)
            del self.recordings[key]
        elif self.disabled:
            return self.call(args)
        elif key not in self.warm:
            # the first call of a shape runs as compiled (it builds any kernel not yet built, starts cuBLAS), on
            # the stream the graph is recorded on, and shows which inputs keep their address
            self.warm[key] = addresses(args)
            return self.recorder.warm_up(self.call, args)
        if max(self.count, self.again) >= MAX_RECORDINGS:
            self.disabled = f"it was recorded {MAX_RECORDINGS} times (shapes, inputs that moved, or held outputs)"
            log.warning("kiln: %s runs without a CUDA graph from now on wherever it has no recording (a new shape, "
                        "inputs that moved): %s", self.name, self.disabled)
            return self.call(args)
        stable = {i for i, (a, b) in enumerate(zip(self.warm[key], addresses(args))) if a is not None and a == b}
        # an input with gaps cannot be copied into a buffer: read in place all the same, even after it moved (a
        # backward's saved q, k and v, slices of one product, are often where the allocator put the last step's),
        # recorded again where it moves (at most MAX_RECORDINGS times in all); so is an output another recording
        # handed out, which stays where it is while that recording replays
        gaps = {i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and not dense(a)}
        handed = {i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and self.pool.hands_out(a)}
        in_place = sorted((stable - set(self.copied.get(key, ()))) | gaps | handed)
        try:
            recording = Recording(self.recorder, self.call, args, in_place, self.mutated,
                                  self.copied_out.get(key, ()), self.saved_from)
        except Exception as e:   # noqa: BLE001 (an op that synchronizes, an input that cannot be copied, ...)
            self.disabled = f"recording failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            log.warning("kiln: %s runs without a CUDA graph: %s", self.name, self.disabled)
            self.warm[key] = addresses(args)
            return self.call(args)
        if again:
            self.again += 1
        else:
            self.count += 1
        COUNTS["cuda_graph_recordings"] += 1
        self.recordings[key] = recording
        self.pool.add(recording, self, key)
        outputs = recording.replay(args)   # (recording runs nothing: the first replay computes this call)
        COUNTS["cuda_graph_replays"] += 1
        args.clear()
        return outputs


class HandedOut:
    """A storage of a recording's memory that its outputs (their indices) view when handed out, known by a weak
    reference: the recording's memory holds it while the recording may replay, the caller's tensors after. It is
    held where a tensor views it besides the recording's own (torch's use count of the storage): its memory and
    the tensors it keeps (`ours`, see Recording.kept), or where one of those is held."""

    def __init__(self, memory, outputs, ours, recording, owner, key, pool):
        self.outputs, self.ours, self.key = outputs, ours, key
        self.recording = weakref.ref(recording, lambda _: setattr(pool, "stale", True))
        self.owner, self.retired = weakref.ref(owner), False
        self.address = memory.data_ptr()
        self.storage = StorageWeakRef(memory.untyped_storage())
        self.cdata = self.storage.cdata

    def held(self):
        """(a kept tensor held is not seen here: Pool.held_over asks its recording)"""
        if self.replayed():
            return _use_count(self.cdata) > _one_tensor_use_count() + self.ours
        return not self.storage.expired()

    def replayed(self):
        """Whether its recording may still replay."""
        return not self.retired and self.recording() is not None


_use_count = torch._C._storage_Use_Count


@functools.cache
def _one_tensor_use_count():
    """_use_count of a storage that one tensor views, with its Python storage object (which counts once it exists,
    and exists for every storage handed out: HandedOut made one)."""
    t = torch.empty(1)
    return _use_count(StorageWeakRef(t.untyped_storage()).cdata)


class Pool:
    """The recordings of one device's memory pool, in the order they were recorded, and the storages their
    outputs were handed out in (see the module's docstring)."""

    def __init__(self):
        self.entries = []   # (the recording's number, HandedOut), in recording order
        self.live = {}      # a live recording's handed-out storage's address -> HandedOut
        self.keeping = []   # (number, weak reference) of the recordings that keep tensors, in recording order
        self.recorded = 0
        self.stale = False  # whether an entry's recording may replay no more
        self.lock = threading.RLock()   # held by a GraphedCall of this device while it runs

    def add(self, recording, owner, key):
        self.prune()
        self.recorded += 1
        recording.number = self.recorded
        kept_at, entry_of = set(recording.kept_at), {}
        for memory, outputs in recording.handed_out():
            entry = HandedOut(memory, outputs, len(kept_at.intersection(outputs)), recording, owner, key, self)
            self.entries.append((self.recorded, entry))
            self.live[entry.address] = entry
            entry_of.update(dict.fromkeys(outputs, entry))
        recording.kept_entries = [entry_of[i] for i in recording.kept_at]
        if recording.kept:
            self.keeping.append((self.recorded, weakref.ref(recording)))

    def retire(self, recording):
        """recording is replayed no more: its handed-out storages stay tracked only while held."""
        for memory, _ in recording.handed_out():
            self.live.pop(memory.data_ptr(), None)
        for _, e in self.entries:
            e.retired |= e.recording() is recording
        self.keeping = [(n, r) for n, r in self.keeping if r() not in (None, recording)]
        self.stale = True

    def held_over(self, recording):
        """The handed-out storages a replay of recording would write over that are still held: its own and
        those of every later recording."""
        self.prune()
        later = self.entries[bisect.bisect_left(self.entries, (recording.number,)):]
        kept_held = {e for n, ref in self.keeping if n >= recording.number and (keeping := ref()) is not None
                     for e in keeping.kept_held()}
        if not self.stale:
            # every entry's recording may replay (stale says otherwise, also where one was freed while this ran):
            # held is then a use count above its recording's own, read here without a call per entry (a training
            # forward hands out hundreds of activations, and each replay checks them all)
            one = _one_tensor_use_count()
            held = [e for _, e in later if _use_count(e.cdata) > one + e.ours or e in kept_held]
            if not self.stale:
                return held
        return [e for _, e in later if e.held() or e in kept_held]

    def prune(self):
        """Forgets the storages of recordings that replay no more (retired, or freed with their graph) and that
        nothing holds."""
        if self.stale:
            self.entries = [(n, e) for n, e in self.entries if e.replayed() or e.held()]
            self.live = {address: e for address, e in self.live.items() if e.replayed()}
            self.keeping = [(n, r) for n, r in self.keeping if r() is not None]
            self.stale = any(not e.replayed() for _, e in self.entries)

    def hands_out(self, t):
        entry = self.live.get(t.untyped_storage().data_ptr())
        return entry is not None and entry.replayed()


POOLS = {}   # by device (set once, atomically: graphs compiled on two threads at once share one Pool and lock)


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
    after a replay: viewing it (handed out), or a copy of it. copy_out: the indices of the outputs to copy out
    (every output viewing their storages is copied with them); saved_from: a training forward's first output
    saved for the backward alone."""

    def __init__(self, recorder, call, args, in_place, mutated, copy_out=(), saved_from=None):
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
        storages, numbers, self.recipes, extents = [], {}, [], {}
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
                numbers[storage.data_ptr()] = len(storages)
                storages.append(storage)
            number = numbers[storage.data_ptr()]
            self.recipes.append(("memory", number, o.dtype, o.shape, o.stride(), o.storage_offset()))
            start = o.storage_offset() * o.element_size()
            low, high = extents.get(number, (start, start))
            extents[number] = min(low, start), max(high, start + span(o))
        # a storage copied out is copied from its outputs' first byte (rounded down to 16) to their last: a loss
        # can lie in a large buffer of the graph's memory
        copied = sorted({r[1] for i, r in enumerate(self.recipes) if r[0] == "memory" and i in copy_out})
        self.copied_out = [(n, extents[n][0] // 16 * 16, extents[n][1]) for n in copied]
        # the graph's memory, a tensor per storage: in bytes where it is copied out (sliced by byte) or viewed in
        # several dtypes, else in its outputs' dtype, so that a replay makes each of them by one view of it
        dtypes = collections.defaultdict(set)
        for r in self.recipes:
            if r[0] == "memory":
                dtypes[r[1]].add(r[2])
        self.memory = []
        for n, storage in enumerate(storages):
            dtype = next(iter(dtypes[n])) if len(dtypes[n]) == 1 and n not in copied else torch.uint8
            dtype = dtype if storage.nbytes() % dtype.itemsize == 0 else torch.uint8
            self.memory.append(torch.empty(0, dtype=dtype, device=storage.device).set_(
                storage, 0, (storage.nbytes() // dtype.itemsize,), (1,)))
        # a replay's outputs: the values first, then each output handed out viewing the memory in its own dtype
        # (the many outputs of a training forward, read by its backward: `viewed`), then the rest by their recipes
        # (a storage copied out is kept in bytes, and its outputs, uint8 ones too, are made from its copy)
        self.values = [r[1] if r[0] == "value" else None for r in self.recipes]
        self.viewed = [(i, self.memory[r[1]], *r[3:]) for i, r in enumerate(self.recipes)
                       if r[0] == "memory" and r[1] not in copied and self.memory[r[1]].dtype == r[2]]
        viewed = {v[0] for v in self.viewed}
        self.others = [(i, r) for i, r in enumerate(self.recipes) if r[0] != "value" and i not in viewed]
        # a training forward's activations, viewed, are made once and handed out again at every replay: the
        # backward reads them and drops them, so nothing else holds them when the forward replays (where a tensor
        # does, the replay does not happen: Pool.held_over asks kept_held). A replay then makes only the
        # forward's few other outputs and the backward's gradients; making each of the ~270 activations anew was
        # most of the host time of a CUDA-graphed step's own (timm DeiT-tiny's AMP step, bench/NOTES.md 92).
        keeps = saved_from is not None and REFCOUNT_KEPT_ALONE is not None
        self.kept_at = [v[0] for v in self.viewed if keeps and v[0] >= saved_from]
        self.kept = [_view(*v[1:]) for v in self.viewed if keeps and v[0] >= saved_from]
        self.viewed = [v for v in self.viewed if not keeps or v[0] < saved_from]
        self.kept_entries = []   # the HandedOut that each kept tensor views (Pool.add)
        self.number = None   # the order of its recording in its pool (Pool.add)

    def handed_out(self):
        """(storage, indices of the outputs viewing it) for each storage of the graph's memory handed out."""
        viewing, copied = collections.defaultdict(list), {n for n, _, _ in self.copied_out}
        for i, r in enumerate(self.recipes):
            if r[0] == "memory" and r[1] not in copied:
                viewing[r[1]].append(i)
        return [(self.memory[n], outputs) for n, outputs in viewing.items()]

    def kept_held(self):
        """The HandedOut viewed by a kept tensor that something else holds."""
        return [self.kept_entries[p] for p, n in enumerate(_refcounts(self.kept)) if n > REFCOUNT_KEPT_ALONE]

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
        fresh = {}
        if self.copied_out:
            copies = [torch.empty(high - low, dtype=torch.uint8, device=self.memory[n].device)
                      for n, low, high in self.copied_out]
            torch._foreach_copy_(copies, [self.memory[n][low:high] for n, low, high in self.copied_out])
            fresh = {n: (copy.untyped_storage(), low) for (n, low, _), copy in zip(self.copied_out, copies)}
        outputs = self.values.copy()
        for i, memory, sizes, strides, offset in self.viewed:
            outputs[i] = _view(memory, sizes, strides, offset)
        for i, t in zip(self.kept_at, self.kept):
            outputs[i] = t
        for i, recipe in self.others:
            if recipe[0] == "empty":
                _, sizes, strides, dtype, device = recipe
                outputs[i] = torch.empty_strided(sizes, strides, dtype=dtype, device=device)
            elif recipe[0] == "input":
                _, index, sizes, strides, offset = recipe
                outputs[i] = _view(args[index], sizes, strides, offset)
            else:
                _, number, dtype, sizes, strides, offset = recipe
                if number in fresh:
                    storage, low = fresh[number]
                    outputs[i] = torch.empty(0, dtype=dtype, device=storage.device).set_(
                        storage, offset - low // dtype.itemsize, sizes, strides)
                else:
                    outputs[i] = _view(self.memory[number].view(dtype), sizes, strides, offset)
        return outputs


def _refcounts(tensors):
    return list(map(sys.getrefcount, tensors))


def _refcount_kept_alone():
    """What _refcounts reads for a tensor that only its list holds; None where a tensor held from C++ alone
    (autograd's saved tensors are, and a view's base) does not count in its Python object's count (torch counts
    it since ~2.10): a kept tensor's holder could not be seen there, and no output is kept. (Read once, at import:
    not under the caller's modes or saved-tensor hooks.)"""
    try:
        with torch.inference_mode(False):
            kept = [torch.zeros(2)]
            alone = _refcounts(kept)[0]
            view = kept[0][1:]   # (its base, kept[0], held from C++)
            held = _refcounts(kept)[0]
            del view
            return alone if held > alone and _refcounts(kept)[0] == alone else None
    except Exception:   # noqa: BLE001 (then nothing is kept)
        return None


REFCOUNT_KEPT_ALONE = _refcount_kept_alone()


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
    """Records a callable as a CUDA graph into the device's shared memory pool (see above), on a stream of its own
    that the warm-up calls run on too. The pool is a MemPool held for the process: a pool named by a bare handle is
    released with the last graph recorded into it, and recording into its handle again failed an assert in the
    allocator (a model's graphs freed, the next model's recorded)."""
    pools, streams = {}, {}

    def __init__(self, device):
        self.device = device
        if device not in CudaRecorder.streams:
            CudaRecorder.streams[device] = torch.cuda.Stream(device)
        self.stream = CudaRecorder.streams[device]

    def pool(self):
        if self.device not in CudaRecorder.pools:
            CudaRecorder.pools[self.device] = torch.cuda.MemPool()
        return CudaRecorder.pools[self.device]

    def warm_up(self, call, args):
        """call(args) run on the recording stream, ordered after the caller's stream's work and before its next.
        cuBLAS and cuBLASLt keep a workspace per stream they run on (32 MiB and 1 MiB on Hopper), made at their
        first call there and used by every graph recorded on that stream: a warm-up on the caller's stream made
        one there and the recording another (s59: 33 of the 63 MiB DistilBERT's recording held at batch 1). They
        are made in the graphs' pool first: torch frees a stream's workspaces when a graph recorded on it is
        destroyed (pytorch#193402), and freed there they are memory of the pool, which a replay writes over as it
        does its recording's intermediates; made by the warm-up itself, they would be freed to any tensor."""
        caller = torch.cuda.current_stream(self.device)
        self.stream.wait_stream(caller)
        for a in args:
            if isinstance(a, torch.Tensor) and a.is_cuda:
                a.record_stream(self.stream)   # (an input freed inside the call is reused after the warm-up's reads)
        try:
            with torch.cuda.stream(self.stream):
                self.workspaces_in_pool()
                outputs = call(args)
        finally:
            caller.wait_stream(self.stream)
        for o in outputs:
            if isinstance(o, torch.Tensor) and o.is_cuda:
                o.record_stream(caller)   # (its memory, freed, is reused only after the caller's use of it)
        return outputs

    def workspaces_in_pool(self):
        """cuBLAS's and cuBLASLt's workspaces for the current stream made in the graphs' pool, where they are not
        made yet (a product of each: made there, a workspace stays where it is until torch frees it)"""
        try:
            with torch.cuda.use_mem_pool(self.pool()):
                m = torch.ones(8, 8, device=self.device)
                torch.mm(m, m)
                torch._addmm_activation(m[0], m, m)   # (an epilogue only cuBLASLt computes)
        except RuntimeError as e:   # (then the warm-up makes them, outside the pool)
            log.debug("kiln: cuBLAS's workspaces not made in the CUDA graphs' pool: %s", e)

    def record(self, call, inputs):
        """(a function replaying the graph, the outputs as recorded, in the graph's memory)"""
        library_plans.wait()   # (their calls must not run beside a capture)
        with torch.cuda.device(self.device):
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, pool=self.pool().id, stream=self.stream):
                outputs = call(list(inputs))
        return graph.replay, outputs


RECORDERS = {"cuda": CudaRecorder}   # by device type (tests add a CPU recorder that replays by running the call)
