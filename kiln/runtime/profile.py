"""`options={"trace_profile": True}`: each kernel of a graph is timed on the graph's first call, and
the trace's kernel table gets its time, the bytes it must move and the share of the copy bandwidth."""
import functools
import time

import torch


@functools.lru_cache(None)
def copy_bandwidth(device_type):
    """Bytes per second of a large device-local copy (read + write), measured once per process."""
    x = torch.empty(1 << 26, dtype=torch.uint8, device=device_type)
    y = torch.empty_like(x)
    seconds = min(_elapsed(lambda: y.copy_(x), device_type) for _ in range(5))
    return 2 * x.numel() / seconds


def _elapsed(fn, device_type):
    if device_type == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    fn()
    if device_type == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start


class KernelProfiler:
    """Wraps each launch; after the first call of the whole graph, fills in the trace's table once."""

    def __init__(self, trace, table, device_type):
        self.trace, self.table, self.device_type = trace, {k["name"]: k for k in table}, device_type
        self.pending = set(self.table)

    def __call__(self, name, launch):
        if name not in self.pending:
            return launch()
        launch()                                   # the first launch compiles (Triton) or warms caches
        seconds = min(_elapsed(launch, self.device_type) for _ in range(3))
        row = self.table[name]
        row["time_us"] = seconds * 1e6
        row["pct_bandwidth"] = 100 * row["bytes"] / seconds / copy_bandwidth(self.device_type)
        self.pending.discard(name)
        if not self.pending:
            self.trace.kernels(list(self.table.values()))
            self.trace.finish()
