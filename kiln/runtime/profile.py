"""`options={"trace_profile": True}`: each kernel and extern of a graph is timed on the graph's first call, and
the trace's table gets its time, the bytes it must move and the FLOPs of its matmuls and convolutions, and its
share of two ceilings measured on this machine: the copy bandwidth and the matmul throughput."""
import functools
import time

import torch
from torch.utils.flop_counter import FlopCounterMode


@functools.lru_cache(None)
def copy_bandwidth(device_type):
    """Bytes per second of a large device-local copy (read + write), measured once per process."""
    x = torch.empty(1 << 26, dtype=torch.uint8, device=device_type)
    y = torch.empty_like(x)
    seconds = min(_elapsed(lambda: y.copy_(x), device_type) for _ in range(5))
    return 2 * x.numel() / seconds


@functools.lru_cache(None)
def matmul_throughput(device_type, dtype):
    """FLOP per second of a large square matmul in dtype, measured once per process and dtype."""
    n = 1024 if device_type == "cpu" else 8192
    a = torch.randn(n, n, device=device_type).to(dtype)
    a @ a   # the first call picks the BLAS kernel
    seconds = min(_elapsed(lambda: a @ a, device_type) for _ in range(3))
    return 2 * n ** 3 / seconds


def _elapsed(fn, device_type):
    if device_type == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    fn()
    if device_type == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start


class KernelProfiler:
    """Wraps each kernel launch and extern call; after the first call of the whole graph, fills in the trace's
    table once. A kernel or library call runs once to warm up, then three times timed (the fastest counts), the
    FLOPs counted by torch's FlopCounterMode; an eager fallback, which may be random or write in place, is timed
    on its one call."""

    def __init__(self, trace, table, device_type):
        self.trace, self.table, self.device_type = trace, {k["name"]: k for k in table}, device_type
        self.pending = set(self.table)

    def __call__(self, name, call):
        if name not in self.pending:
            return call()
        row = self.table[name]
        if row["fallback"]:
            results = []
            seconds = _elapsed(lambda: results.append(call()), self.device_type)
            result = results[0]
        else:
            result = call()
            seconds = min(_elapsed(call, self.device_type) for _ in range(3))
        if row["kind"] == "extern" and not row["fallback"] and "flops" not in row:
            with FlopCounterMode(display=False) as flops:
                call()
            row["flops"] = flops.get_total_flops()
        row["time_us"] = seconds * 1e6
        row["pct_copy"] = 100 * row["bytes"] / seconds / copy_bandwidth(self.device_type)
        if row.get("flops"):
            ceiling = matmul_throughput(self.device_type, getattr(torch, row["dtype"]))
            row["pct_matmul"] = 100 * row["flops"] / seconds / ceiling
        self.pending.discard(name)
        if not self.pending:
            self.trace.kernels(list(self.table.values()))
            self.trace.finish()
        return result
