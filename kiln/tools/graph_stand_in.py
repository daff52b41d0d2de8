"""A CUDA graph recorder's behaviour on the CPU, for reduce-overhead's tests and `kiln fuzz --graphed-fraction`:
kiln.runtime.cuda_graphs records and replays through it where the inputs are CPU tensors (`installed`), so the
recordings' bookkeeping (which inputs are read in place, which are copied, which outputs are handed out or copied
out, when a graph is recorded again) runs as on a GPU, and a wrong replay reads or writes the wrong memory.
Outputs handed out in the pool's memory are not to be read after `installed` ends: its pool is freed then."""
import contextlib

import torch

from kiln.runtime import cuda_graphs


class ReplayingRecorder:
    """A CUDA graph's behaviour on the CPU: recording runs nothing (the inputs' values are put back after the
    call that finds the outputs), and a replay reads its inputs at the recorded addresses (whatever tensor now
    holds that memory; the recorder keeps no input alive) and writes its results into the recorded outputs'
    memory, holding no tensor that views it (a CUDA graph holds none). And the device's pool, memory of its own
    (`pool`, never where a call without a graph put its tensors): a recording's intermediates are freed into it
    at the recording's end, where a later recording's outputs may be placed, and each replay writes them again
    (with NaN bytes)."""
    recordings = 0
    pool = None   # (the pool's memory, the bytes handed out so far)
    free = []     # earlier recordings' intermediates

    def __init__(self, device):
        pass

    def warm_up(self, call, args):
        return call(args)

    def record(self, call, inputs):
        ReplayingRecorder.recordings += 1
        before = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
        outputs = pooled(call(list(inputs)), inputs)
        for t, b in zip(inputs, before):
            # (a capture writes nothing: version counters stay; an expanded input, which nothing writes, takes no copy)
            if isinstance(t, torch.Tensor) and 0 not in t.stride():
                t.data.copy_(b)
        places = [Place(t) if isinstance(t, torch.Tensor) else t for t in inputs]
        written = [Place(o) if isinstance(o, torch.Tensor) else None for o in outputs]
        intermediates = carve(1 << 16)
        ReplayingRecorder.free.append(intermediates)
        # (by address: a later recording's outputs may be placed in it, whose storage this must not keep alive)
        scratch = Place(torch.empty(0, dtype=torch.uint8).set_(intermediates))

        def replay():
            scratch.tensor().fill_(0xFF)
            for o, n in zip(written, call([p.tensor() if isinstance(p, Place) else p for p in places])):
                if o is not None:   # (an expanded output: its distinct elements)
                    distinct = tuple(slice(0, 1) if st == 0 else slice(None) for st in o.layout[2])
                    o.tensor()[distinct].copy_(n[distinct])
        return replay, outputs


def carve(nbytes):
    """A storage of nbytes in the pool's memory that keeps nothing alive (the pool's tensor does)."""
    memory, used = ReplayingRecorder.pool
    assert used + nbytes <= memory.numel(), "the stand-in's pool is full"
    ReplayingRecorder.pool = memory, used + (nbytes + 63) // 64 * 64
    return torch._C._construct_storage_from_data_pointer(memory.data_ptr() + used, memory.device, nbytes)


def pooled(outputs, inputs):
    """outputs moved, storage by storage, into the pool: into an earlier recording's freed intermediates where
    one is large enough, else into memory of their own (outputs that view an input stay)."""
    moved = {}
    for o in outputs:
        if isinstance(o, torch.Tensor) and o.numel() and not any(
                isinstance(t, torch.Tensor) and cuda_graphs.within(o, t) for t in inputs):
            storage = o.untyped_storage()
            if storage.data_ptr() not in moved:
                fits = ReplayingRecorder.free and ReplayingRecorder.free[0].nbytes() >= storage.nbytes()
                block = ReplayingRecorder.free.pop(0) if fits else carve(storage.nbytes())
                torch.empty(0, dtype=torch.uint8).set_(block)[:storage.nbytes()].copy_(
                    torch.empty(0, dtype=torch.uint8).set_(storage))
                moved[storage.data_ptr()] = block
    return [torch.empty(0, dtype=o.dtype).set_(moved[o.untyped_storage().data_ptr()], o.storage_offset(), o.shape,
                                               o.stride())
            if isinstance(o, torch.Tensor) and o.untyped_storage().data_ptr() in moved else o for o in outputs]


class Place:
    """Where a tensor's elements are, without keeping its memory alive (kiln replays a recording only where the
    caller passes live tensors at those addresses)."""

    def __init__(self, t):
        storage = t.untyped_storage()
        self.address, self.nbytes, self.layout = storage.data_ptr(), storage.nbytes(), \
            (t.storage_offset(), t.shape, t.stride())
        self.dtype, self.device = t.dtype, t.device

    def tensor(self):
        storage = torch._C._construct_storage_from_data_pointer(self.address, self.device, self.nbytes)
        return torch.empty(0, dtype=self.dtype, device=self.device).set_(storage, *self.layout)


@contextlib.contextmanager
def installed(pool_bytes=1 << 23):
    """CPU tensors' graphs recorded and replayed by ReplayingRecorder, with a fresh pool of pool_bytes."""
    saved = cuda_graphs.RECORDERS.get("cpu"), ReplayingRecorder.recordings, ReplayingRecorder.free, \
        ReplayingRecorder.pool
    cuda_graphs.RECORDERS["cpu"] = ReplayingRecorder
    ReplayingRecorder.recordings, ReplayingRecorder.free = 0, []
    ReplayingRecorder.pool = torch.empty(pool_bytes, dtype=torch.uint8), 0
    try:
        yield ReplayingRecorder
    finally:
        recorder, ReplayingRecorder.recordings, ReplayingRecorder.free, ReplayingRecorder.pool = saved
        if recorder is None:
            del cuda_graphs.RECORDERS["cpu"]
        else:
            cuda_graphs.RECORDERS["cpu"] = recorder
