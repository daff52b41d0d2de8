"""An aligned-rows product (externs.aligned_rows_mm) timed in its blocks against other block schedules, on the GPU.

    PYTHONPATH=. python3 bench/results/s43/s43_head_blocks.py OUT.json

Heads of the suite ([4096, 768] @ [768, n]; n = 30522 (BERT), 50257 (GPT-2), 128100 (DeBERTa-v2); bf16 and fp32):
  halving   the rows halved into the output's own memory, the last 64 in 4 column blocks (session 43's schedule)
  columns   all rows, in 4 column blocks (a quarter of the output beside it, as session 42's row blocks)
  direct    torch.mm / addmm writing the misaligned rows (cuBLAS's align-1 kernels), eager's way
CUDA-event medians of 20 calls after 3 warm-ups, alternating, and the memory each adds above its output."""
import json
import statistics
import sys

import torch

from kiln.lowering import externs


def timed(fn, reps=20):
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return statistics.median(times)


def main():
    rows = []
    for dtype in (torch.bfloat16, torch.float32):
        for n in (30522, 50257, 128100):
            a = torch.randn(4096, 768, device="cuda", dtype=dtype)
            w = torch.randn(n, 768, device="cuda", dtype=dtype) / 30
            bias = torch.randn(n, device="cuda", dtype=dtype)
            schedules = {
                "halving": lambda: externs.aligned_rows_mm(a, w.t(), bias),
                "columns": lambda: columns(a, w, bias),
                "direct": lambda: torch.addmm(bias, a, w.t()),
            }
            row = {"dtype": str(dtype), "n": n}
            out_mib = 4096 * n * dtype.itemsize / 2 ** 20
            for name, fn in schedules.items():
                for _ in range(3):
                    fn()
                torch.cuda.synchronize()
                torch.cuda.reset_peak_memory_stats()
                base = torch.cuda.memory_allocated()
                fn()
                torch.cuda.synchronize()
                row[f"{name}_extra_mib"] = round((torch.cuda.max_memory_allocated() - base) / 2 ** 20 - out_mib, 2)
            for _ in range(3):   # alternating rounds
                for name, fn in schedules.items():
                    row.setdefault(f"{name}_us", []).append(timed(fn))
            for name in schedules:
                row[f"{name}_us"] = round(statistics.median(row[f"{name}_us"]), 1)
            print(json.dumps(row), flush=True)
            rows.append(row)
    with open(sys.argv[1], "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, f, indent=1)


def columns(a, w, bias, blocks=4):
    m, n = a.shape[0], w.shape[0]
    out = torch.empty((m, n), dtype=a.dtype, device=a.device)
    step = -(-n // blocks // 8) * 8
    for j in range(0, n, step):
        product = torch.mm(w[j:j + step], a.t())
        externs.copy_transposed(out[:, j:j + step], product.t(), bias[j:j + step])
        del product
    return out


if __name__ == "__main__":
    main()
