"""mode="reduce-overhead": a compiled graph recorded as a CUDA graph after a warm-up call, then replayed.

A replay launches the whole wrapper (kernels and library calls) at once, at the addresses it was recorded
with. A graph may be called at several call sites in one step: one compiled graph serves every layer of a model
whose layers are frames of their own (HF Whisper, BART), each call with its layer's parameters and the layer
before's output. So a graph keeps, per shape, a recording per call site (its positions), each told by its placed
inputs: the parameters and buffers (`placed_inputs`) and the outputs another recording handed out, which it reads
in place. A call replays the position whose inputs read in place are where they were recorded and whose replay
writes over no output still held (below). So each call of a recorded graph:
- reads an input in place where its address is the recorded one: the placed inputs; any input whose address was the
  same at the warm-up and at the recording, while it stays so; an input no buffer can take (one whose elements
  overlap: `copyable`), and one the graph reads beyond its elements (an as_strided at an offset of its own). Another
  input is copied into a buffer the graph owns (one per input and shape, of the input's strides: an input with gaps
  is copied element by element, an expanded one's distinct elements once). An input that moves, not a placed one,
  makes that position be recorded again, copying it from then on (one never copied: read in place at its new
  address); a parameter whose memory moves is placed anew once, and copied where it moves again;
- copies the inputs it mutates back from the graph's own buffer, where it has one;
- hands out its outputs in the graph's own memory, where nobody holds the last replay's (a training step's
  activations, read once by the backward, are never copied). A training forward's activations (the outputs
  AOTAutograd saves for the backward alone) are handed out as the same tensor objects at every replay, which
  nothing else holds then (`Recording.kept`; a weak reference to one sees the next replay's values, as a tensor
  of the caller's own would see its next step's if the caller reused it).

Every graph of a device records into one memory pool (`Pool`), so a forward and its backward, and graphs split
by breaks, share their intermediates' memory. A recording's intermediates are free memory once it ends, where a
later recording can place its outputs; memory an output holds is never given to a later recording. So a replay
writes only over outputs handed out by itself or by recordings made after it: where one of those is still held
(a tensor views its storage), the position is not replayed but recorded again (after the held memory, which the
new recording cannot take), copying out from then on its own outputs found held (a state fed back, h = g(h); a
result kept from one call to the next) and another graph's that it does not read and that are no activations (a
gradient or a loss kept from the last step). Where no position is at a call's site (another layer's parameters,
while the layer before's outputs are held), it gets another position. (A storage held outside with no tensor
viewing it, `t.untyped_storage()` kept alone, is not seen.)

A graph is recorded for at most MAX_RECORDINGS shapes (dynamic=True). A shape whose recordings do not settle (it
reaches MAX_POSITIONS positions, or 2 * positions + MAX_AGAIN recordings) keeps one recording from then on
(`only_one`), and after MAX_AGAIN more, calls no recording replays run as compiled, with one warning. A position not
replayed in the last 2 * positions + 2 calls of its shape is dropped (its call site is gone; one position is looked
at per call). Graphs that cannot be recorded run as compiled, with one log line saying why (CPU tensors, a capture
that fails). Random draws take their seeds from a tensor drawn on the device at each call
(lowering.seeds_and_constants.Seeds), by torch's generator, which CUDA graphs replay with fresh offsets: a replayed
dropout draws a new mask."""
import bisect
import collections
import functools
import itertools
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
MAX_RECORDINGS = 8   # per compiled graph: its shapes
MAX_POSITIONS = 32   # per shape: recordings replayed side by side (call sites: a graph called once per layer)
MAX_AGAIN = 16       # per shape: recordings beyond two per position before it keeps one, and beyond that one after

_view = torch._C._dynamo.guards._reinterpret_tensor


def graphing(mutated, example_inputs, name, computes_on=(), saved_from=None, placed=(), read_in_storage=()):
    """What makes a compiled graph's boxed callable replay from recordings (a function of the callable), or None
    with a log line saying why it cannot be, decided from the example inputs, which it does not hold. mutated: the
    indices of the inputs the graph writes; computes_on: the device types of the graph's buffers; saved_from: a
    training forward's first output that AOTAutograd saves for the backward alone; placed: the inputs whose place
    tells one call site from another (`placed_inputs`); read_in_storage: the inputs it reads beyond their elements
    (an as_strided at an explicit offset), where the caller has them: never copied."""
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
                                        POOLS.setdefault(device, Pool()), saved_from, placed, read_in_storage)
    log.info("kiln: %s runs without a CUDA graph: %s", name, reason)
    return None


def placed_inputs(gm):
    """The inputs of an AOTAutograd graph that stay where they are from one call at a call site to the next, and
    differ between call sites: its parameters and buffers (AOTAutograd's static inputs), and a backward's saved
    parameters (which keep the forward's placeholder names). A graph called once per layer (a layer that is a
    frame of its own) is recorded once per layer, each recording reading that layer's parameters in place."""
    meta = getattr(torch._guards.TracingContext.try_get(), "fw_metadata", None)
    static = set(getattr(meta, "static_input_indices", None) or ())
    names = [n.name for n in gm.graph.find_nodes(op="placeholder")]
    if any(n.startswith("tangents_") for n in names):
        return [i for i, n in enumerate(names)
                if n.startswith("primals_") and n[8:].isdigit() and int(n[8:]) - 1 in static]
    return sorted(i for i in static if i < len(names))


def shape_key_inputs(example_inputs):
    """The indices of the inputs that tell one shape from another: sizes passed as ints, tensors of symbolic
    sizes. Empty for a graph of static shapes."""
    def symbolic(a):
        return isinstance(a, torch.SymInt) or isinstance(a, torch.Tensor) and any(
            isinstance(n, torch.SymInt) for n in a.shape)
    return [i for i, a in enumerate(example_inputs) if symbolic(a)]


class GraphedCall:
    """A compiled graph's boxed callable, replayed from recordings: per shape, one per call site (its positions)."""

    def __init__(self, call, name, mutated, key_inputs, recorder, pool, saved_from=None, placed=(),
                 read_in_storage=()):
        self.call, self.name, self.mutated, self.key_inputs = call, name, mutated, key_inputs
        self.recorder, self.pool, self.saved_from, self.placed = recorder, pool, saved_from, set(placed)
        self.read_in_storage = set(read_in_storage)
        self.warm = {}         # shape key -> the inputs' addresses at the warm-up call
        self.recordings = {}   # shape key -> [Recording]: its positions, each replayed where its inputs are
        self.buffers = {}      # shape key -> {input index: the buffer its positions copy that input into}
        self.copied = {}       # shape key -> indices of inputs to copy (their address moved once; a parameter's twice)
        self.moved_once = {}   # shape key -> indices of parameters whose memory moved once (then placed anew)
        self.copy_out = {}   # shape key -> indices of outputs every recording copies out (found held by another)
        self.recorded = collections.Counter()   # shape key -> its recordings so far
        self.calls = collections.Counter()      # shape key -> its calls so far
        self.cursor = collections.Counter()     # shape key -> the position after the one last replayed
        self.single = {}       # shape key -> its recordings when it went back to one recording (did not settle)
        self.disabled = None   # why nothing more is recorded
        self.warned = False    # (one warning for calls past the bounds)
        self._boxed_call = True

    def __call__(self, args):
        # one thread at a time per device: a replay must see the outputs another thread's replay hands out before it
        # writes over them, and warm-ups and recordings share the device's stream and pool
        with self.pool.lock:
            return self.replayed_or_recorded(args)

    def replayed_or_recorded(self, args):
        key = tuple(args[i] if not isinstance(args[i], torch.Tensor) else tuple(args[i].shape)
                    for i in self.key_inputs)
        positions = self.recordings.get(key)
        if positions is None:
            if self.disabled:
                return self.call(args)
            if key not in self.warm:
                # the first call of a shape runs as compiled (it builds any kernel not yet built, starts cuBLAS), on
                # the stream the graph is recorded on, and shows which inputs keep their address
                self.warm[key] = addresses(args)
                return self.recorder.warm_up(self.call, args)
            if len(self.recordings) >= MAX_RECORDINGS:
                return self.without_graph(args, f"it was recorded for {MAX_RECORDINGS} shapes")
            self.recordings[key] = positions = []
        self.calls[key] += 1
        if positions:
            # one position a call looks at: one not replayed in its shape's last 2 * positions + 2 calls is dropped;
            # its call site is gone (recorded while the graphs before it were not recorded yet, its placed inputs
            # where they no longer come from)
            p = self.calls[key] % len(positions)
            if self.calls[key] - positions[p].last > 2 * len(positions) + 2:
                self.pool.retire(positions.pop(p))
        # the position after the last one replayed first (call sites come round in order), then each other in order; the
        # inputs' places first (one position fits them, and the others' outputs are held)
        cursor = self.cursor[key] % len(positions) if positions else 0
        for p in itertools.chain((cursor,), range(cursor), range(cursor + 1, len(positions))) if positions else ():
            recording = positions[p]
            if recording.fits(args) and not self.pool.held_over(recording):
                outputs = recording.replay(args)
                self.cursor[key] = p + 1
                recording.last = self.calls[key]
                COUNTS["cuda_graph_replays"] += 1
                args.clear()
                return outputs
        return self.record(key, positions, args)

    def replaced(self, key, positions, args, placed, fed_back):
        """(the position a new recording for this call takes the place of, and what it moved; or None) and the
        outputs the new recording copies out. It replaces one whose only inputs that moved are not placed ones (a
        fresh input found in place at first, copied from then on), or whose placed inputs are gone. Else one at this
        call's site (where its placed inputs are, but for its own outputs fed back, h = g(h), which are elsewhere at
        each call), recorded again after the outputs held that it would write over, copying out from then on its
        own (a state fed back, a result kept from one call to the next) and another graph's that it does not read
        and that are no activations (a gradient, a loss kept from the last step: copied out by every recording of
        that graph's shape made from then on); not those it reads, nor activations (the layer before's, held until
        the backward), nor another position's of its own. (Past MAX_POSITIONS a shape keeps one recording:
        `record`.)"""
        site = placed - fed_back

        def at_site(r, moved):
            return r.placed - fed_back == site and not set(moved) & site

        moved, copy_out = [(r, r.moved(args)) for r in positions if not self.pool.held_over(r)], set()
        replaced = next(((r, m) for r, m in moved if at_site(r, m) and not set(m) & r.placed), None) or \
            next(((r, m) for r, m in moved if r.gone()), None)
        here = [r for r in positions if at_site(r, r.moved(args))] if replaced is None else []
        if replaced is None and here:
            replaced = here[0], ()
            reading = {a.untyped_storage().data_ptr() for a in args if isinstance(a, torch.Tensor)}
            for entry in self.pool.held_over(replaced[0]):
                owner = entry.owner()
                if entry.recording() is replaced[0]:
                    copy_out.update(entry.outputs)
                elif owner is not None and owner is not self and entry.address not in reading and not entry.ours:
                    owner.copy_out.setdefault(entry.key, set()).update(entry.outputs)
        return replaced, copy_out | self.copy_out.get(key, set())

    def only_one(self, key, positions, args):
        """(the shape's one recording and what it moved, or None) and the outputs the next copies out: those found
        held that a replay would write over, its own and another graph's that this call does not read (that
        graph's next recordings copy them out)."""
        if not positions:
            return None, self.copy_out.get(key, set())
        reading = {a.untyped_storage().data_ptr() for a in args if isinstance(a, torch.Tensor)}
        for entry in self.pool.held_over(positions[0]):
            owner = entry.owner()
            if owner is not None and (owner is self or entry.address not in reading):
                owner.copy_out.setdefault(entry.key, set()).update(entry.outputs)
        return (positions[0], positions[0].moved(args)), self.copy_out.get(key, set())

    def record(self, key, positions, args):
        """This call's outputs from a new recording, where no recording of its shape replays it: in the place of
        one (`replaced`), or at another position, for another call site (another layer's parameters, while the layer
        before's outputs, its activations kept for the backward, are still held)."""
        if self.disabled:
            return self.call(args)
        if key not in self.single and (len(positions) >= MAX_POSITIONS or
                                       self.recorded[key] >= 2 * len(positions) + MAX_AGAIN):
            # its recordings do not settle (a state fed back through several graphs, call sites that come and go):
            # one recording of the shape from now on, as every graph had before several were kept side by side
            log.info("kiln: %s keeps one recording of a shape from now on: %d recordings for %d call sites",
                     self.name, self.recorded[key], len(positions))
            self.single[key] = self.recorded[key]
            for r in positions[1:]:
                self.pool.retire(r)
            del positions[1:]
        if key in self.single and self.recorded[key] >= self.single[key] + MAX_AGAIN:
            return self.without_graph(args, f"a shape of it was recorded {self.recorded[key]} times (call sites, "
                                      "inputs that moved, outputs held)")
        handed = {i: self.pool.handed_by(a) for i, a in enumerate(args) if isinstance(a, torch.Tensor)}
        handed = {i: owner for i, owner in handed.items() if owner is not None}
        if key in self.single:   # (its parameters are copied where they move, as any input)
            placed = set(handed)
            replaced, copy_out = self.only_one(key, positions, args)
        else:
            placed = {i for i in (self.placed - set(self.copied.get(key, ()))) | set(handed)
                      if isinstance(args[i], torch.Tensor)}
            replaced, copy_out = self.replaced(key, positions, args, placed,
                                               {i for i, o in handed.items() if o is self})
        if replaced is not None:
            recording, moved = replaced
            copy_out |= recording.copy_out
            transient = set(moved) - recording.placed
            reason = f"input {', '.join(map(str, sorted(transient)))} is not where it was recorded" if transient \
                else "an input it read in place is gone" if moved else "outputs it would overwrite are still held"
            log.info("kiln: %s records its CUDA graph again: %s", self.name, reason)
            # a parameter whose memory moved is placed at its new place once; where it moves again (a `.data`
            # set at each step), it is copied from then on
            moving = set(moved) & self.placed if key not in self.single else set()
            transient |= moving & self.moved_once.get(key, set())
            self.moved_once.setdefault(key, set()).update(moving)
            self.copied[key] = sorted(set(self.copied.get(key, ())) | transient)
            self.pool.retire(recording)
            positions.remove(recording)
        elif positions:
            log.info("kiln: %s records its CUDA graph at another call site (%d recordings side by side)", self.name,
                     len(positions) + 1)
        placed = {i for i in placed if i in handed or i not in self.copied.get(key, ())}   # (copied: just now too)
        stable = {i for i, (a, b) in enumerate(zip(self.warm[key], addresses(args))) if a is not None and a == b}
        # placed, and read in place: a parameter, and an output another recording handed out, which stays where it
        # is while that recording replays (the layer before's). Read in place all the same, even after it moved,
        # recorded again where it moves: an input no buffer can take (`copyable`), and one the graph reads beyond its
        # elements. (One with gaps, a fresh batch's slice, or expanded, a fresh mask's, is copied like any other: read
        # in place, each new place of it recorded its graph anew, and every later graph's after it, whose
        # recordings are then older than the outputs it hands out)
        uncopied = {i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and not copyable(a)}
        in_place = sorted((stable - set(self.copied.get(key, ()))) | placed | uncopied | self.read_in_storage)
        try:
            recording = Recording(self.recorder, self.call, args, in_place, self.mutated,
                                  copy_out, self.saved_from, placed,
                                  self.buffers.setdefault(key, {}))
        except Exception as e:   # noqa: BLE001 (an op that synchronizes, an input that cannot be copied, ...)
            self.disabled = f"recording failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            log.warning("kiln: %s runs without a CUDA graph: %s", self.name, self.disabled)
            return self.call(args)
        COUNTS["cuda_graph_recordings"] += 1
        self.recorded[key] += 1
        recording.last = self.calls[key]
        # (the positions placing more inputs first: one placing none would replay any call, a copy of each)
        positions.insert(next((p for p, r in enumerate(positions) if len(r.placed) < len(placed)), len(positions)),
                         recording)
        self.pool.add(recording, self, key)
        outputs = recording.replay(args)   # (recording runs nothing: the first replay computes this call)
        COUNTS["cuda_graph_replays"] += 1
        args.clear()
        return outputs

    def without_graph(self, args, reason):
        if not self.warned:
            self.warned = True
            log.warning("kiln: %s runs without a CUDA graph wherever no recording of it replays (a new shape, "
                        "inputs elsewhere, outputs held): %s", self.name, reason)
        return self.call(args)


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

    def handed_by(self, t):
        """The GraphedCall whose live recording handed t's storage out, or None."""
        entry = self.live.get(t.untyped_storage().data_ptr())
        return entry.owner() if entry is not None and entry.replayed() else None


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
    saved for the backward alone; placed: the inputs read in place whose place tells its call site (its
    position among the graph's recordings); buffers: the buffers that copied inputs go into, by index, shared by
    the recordings of a shape (one replays at a time), made where missing."""

    def __init__(self, recorder, call, args, in_place, mutated, copy_out=(), saved_from=None, placed=(),
                 buffers=None):
        self.in_place, self.addresses = list(in_place), addresses(args)
        self.same_addresses = addresses_equal_in_cpp if all(isinstance(a, (torch.Tensor, int)) for a in args) \
            else addresses_equal
        self.placed = set(placed)
        self.placed_storages = [StorageWeakRef(args[i].untyped_storage()) for i in sorted(self.placed)]
        in_place, mutated = set(in_place), set(mutated)
        self.copied = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and i not in in_place]
        for i in self.copied:
            if not copyable(args[i]):
                raise ValueError(f"input {i} overlaps itself: it cannot be copied into a buffer")
        buffers = {} if buffers is None else buffers
        for i in self.copied:
            b = buffers.get(i)
            if b is None or (b.shape, b.stride(), b.dtype) != (args[i].shape, args[i].stride(), args[i].dtype):
                buffers[i] = torch.empty_strided(args[i].shape, args[i].stride(), dtype=args[i].dtype,
                                                 device=args[i].device)
        self.static = [buffers[i] for i in self.copied]
        # an expanded input's elements along an expanded dimension (stride 0) are one element: copied once, by
        # views of index 0 there
        self.expanded = [(p, sizes) for p, i in enumerate(self.copied) if (sizes := distinct_sizes(args[i]))]
        self.copied_into = list(self.static)
        for p, sizes in self.expanded:
            self.copied_into[p] = self.static[p].as_strided(sizes, self.static[p].stride())
        self.copied_back = [(i, s) for i, s in zip(self.copied, self.static) if i in mutated]
        self.copy_in(args)   # (a capture that reads a value sees this call's, as the CPU tests' stand-in does)
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
        # a storage copied out goes into a storage as long as up to its outputs' last byte, so that they keep
        # their storage offsets (eager's and the default mode's: code past a graph break may read them). It holds
        # as much memory as the default mode's output would (the whole buffer, but for bytes past the outputs),
        # and is copied from byte 0 where that at most doubles the copy (the bytes before the outputs as the
        # graph's memory has them), else from their first byte: a small output far into a large buffer (one
        # token's row of a batch's), the bytes before it left unwritten
        self.copy_out = set(copy_out)
        copied = sorted({r[1] for i, r in enumerate(self.recipes) if r[0] == "memory" and i in copy_out})
        self.copied_extents = [(n, 0 if low <= high - low else low, high)
                               for n, (low, high) in ((n, extents[n]) for n in copied)]
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
        self.last = 0        # its shape's call count at its last replay (GraphedCall)

    def handed_out(self):
        """(storage, indices of the outputs viewing it) for each storage of the graph's memory handed out."""
        viewing, copied = collections.defaultdict(list), {n for n, _, _ in self.copied_extents}
        for i, r in enumerate(self.recipes):
            if r[0] == "memory" and r[1] not in copied:
                viewing[r[1]].append(i)
        return [(self.memory[n], outputs) for n, outputs in viewing.items()]

    def kept_held(self):
        """The HandedOut viewed by a kept tensor that something else holds."""
        return [self.kept_entries[p] for p, n in enumerate(_refcounts(self.kept)) if n > REFCOUNT_KEPT_ALONE]

    def moved(self, args):
        return [i for i in self.in_place if args[i].data_ptr() != self.addresses[i]]

    def gone(self):
        """Whether an input it places itself by is freed (a parameter's memory moved: it will not be called so)."""
        return any(s.expired() for s in self.placed_storages)

    def fits(self, args):
        """Whether the inputs it reads in place are where they were recorded."""
        return self.same_addresses(args, self.addresses, self.in_place)

    def copy_in(self, args):
        """Copies the inputs it does not read in place into its buffers."""
        if self.copied:
            sources = [args[i] for i in self.copied]
            for p, sizes in self.expanded:
                sources[p] = sources[p].as_strided(sizes, sources[p].stride())
            torch._foreach_copy_(self.copied_into, sources)

    def replay(self, args):
        """This call's outputs (the inputs it reads in place where they were recorded: `fits`)."""
        self.copy_in(args)
        self.replay_graph()
        if self.copied_back:
            torch._foreach_copy_([args[i] for i, _ in self.copied_back], [s for _, s in self.copied_back])
        fresh = {}
        if self.copied_extents:
            copies = [torch.empty(high, dtype=torch.uint8, device=self.memory[n].device)
                      for n, _, high in self.copied_extents]
            torch._foreach_copy_([copy[low:] for copy, (_, low, _) in zip(copies, self.copied_extents)],
                                 [self.memory[n][low:high] for n, low, high in self.copied_extents])
            fresh = {n: copy.untyped_storage() for (n, _, _), copy in zip(self.copied_extents, copies)}
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
                    outputs[i] = torch.empty(0, dtype=dtype, device=fresh[number].device).set_(
                        fresh[number], offset, sizes, strides)
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


def copyable(t):
    """Whether a buffer of t's layout takes t's elements: no two share memory but along its expanded dimensions
    (stride 0: one element there, `distinct_sizes`), its dimensions, smallest stride first, each stepping past all
    the memory the ones before span. (The buffer spans what t spans: for a slice of each row's last position,
    h[:, -1], nearly all of h's memory, held while the graph lives. Read in place instead, such an input fresh at
    each call recorded its graph at each call until the budget ran out.)"""
    extent = 0
    for size, stride in sorted(((n, st) for n, st in zip(t.shape, t.stride()) if n > 1 and st != 0),
                               key=lambda d: d[1]):
        if stride <= extent:
            return False
        extent += (size - 1) * stride
    return True


def distinct_sizes(t):
    """t's sizes with 1 along its expanded dimensions (stride 0), which hold one element; None where it has none."""
    if any(st == 0 and n > 1 for n, st in zip(t.shape, t.stride())):
        return [1 if st == 0 else n for n, st in zip(t.shape, t.stride())]
    return None


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
