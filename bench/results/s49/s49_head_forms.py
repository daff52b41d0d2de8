"""A language model's head with misaligned output rows (vocabulary of odd size, 16-bit), its forms timed on one
GPU: kiln's aligned-rows blocks (kiln.lowering.externs.aligned_rows_mm, transposed products copied back), column
blocks (each block of columns into an aligned scratch block, then copied into the output: B read once), the
plain library call (misaligned rows), and one padded product copied back (memory: a second output).

    PYTHONPATH=. python3 bench/results/s49/s49_head_forms.py OUT.json

Each form: its GPU time (median of 7 x 10 replays of it as a CUDA graph), the memory it allocates beyond its output, and its largest
difference from the plain call."""
import json
import sys

import torch

from kiln.lowering.externs import aligned_rows_mm
from kiln.runtime.transposed_copy import copy_transposed

ALIGN = 8


def column_blocks(a, b, bias=None, blocks=4):
    m, n = a.shape[0], b.shape[1]
    out = torch.empty((m, n), dtype=a.dtype, device=a.device)
    width = -(-n // blocks // ALIGN) * ALIGN
    scratch = torch.empty((m, width), dtype=a.dtype, device=a.device)
    for j in range(0, n, width):
        w = min(width, n - j)
        block = scratch[:, :w]
        torch.mm(a, b[:, j:j + w], out=block)
        copy_transposed(out[:, j:j + w], block, None if bias is None else bias[j:j + w])
    return out


def padded(a, b, bias=None):
    m, n = a.shape[0], b.shape[1]
    out = torch.empty((m, n), dtype=a.dtype, device=a.device)
    scratch = torch.empty((m, -(-n // ALIGN) * ALIGN), dtype=a.dtype, device=a.device)[:, :n]
    torch.mm(a, b, out=scratch)
    copy_transposed(out, scratch, bias)
    return out


def plain(a, b, bias=None):
    return torch.mm(a, b) if bias is None else torch.addmm(bias, a, b)


FORMS = {"plain": plain, "aligned_rows": aligned_rows_mm, "padded": padded,
         **{f"columns{k}": (lambda k: lambda a, b, bias=None: column_blocks(a, b, bias, k))(k) for k in (2, 4, 8, 16)}}


def timed(fn, *args):
    """GPU time of one call: the call recorded as a CUDA graph, replayed 10 times between events (a call's Triton
    and library launches cost host time that a single call's events would count)."""
    for _ in range(3):
        fn(*args)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn(*args)
    times = []
    for _ in range(7):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(10):
            graph.replay()
        e1.record()
        torch.cuda.synchronize()
        times.append(e0.elapsed_time(e1) * 1e3 / 10)
    return sorted(times)[len(times) // 2]


def main():
    rows = []
    shapes = [(512, 768, 50257, False), (1024, 768, 50257, False), (2048, 768, 50257, False), (8192, 768, 50257, False),
              (512, 768, 30522, True), (4096, 768, 30522, True), (16384, 768, 30522, True), (1024, 768, 51865, False),
              (4096, 768, 128100, True), (1024, 1024, 50265, False)]
    for m, k, n, with_bias in shapes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16).t()   # a weight [n, k], as Linear keeps it
        bias = torch.randn(n, device="cuda", dtype=torch.bfloat16) if with_bias else None
        args = (a, b) if bias is None else (a, b, bias)
        reference = plain(*args).float()
        row = {"m": m, "k": k, "n": n, "bias": with_bias}
        for name, fn in FORMS.items():
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            base = torch.cuda.memory_allocated()
            out = fn(*args)
            torch.cuda.synchronize()
            extra = torch.cuda.max_memory_allocated() - base - out.numel() * out.element_size()
            row[f"{name}_err"] = (out.float() - reference).abs().max().item()
            del out
            row[f"{name}_us"] = timed(fn, *args)
            row[f"{name}_extra_mib"] = extra / 2 ** 20
        print(json.dumps(row), flush=True)
        rows.append(row)
    with open(sys.argv[1], "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
