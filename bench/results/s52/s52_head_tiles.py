"""Session 52: products with misaligned output rows (language models' heads) outside max-autotune: the library
call as written, kiln's aligned-rows blocks (the default mode's form), Inductor's form (weight padded, product
into padded rows, a view returned), and kiln's Triton matmul storing the rows directly in each large tile
configuration. GPU time of each (autotune.gpu_seconds), bf16 unless named, checked against float32.
    PYTHONPATH=. python3 bench/results/s52/s52_head_tiles.py OUT.json
"""
import json
import sys

import torch

from kiln.lowering.externs import aligned_rows_mm
from kiln.runtime.autotune import gpu_seconds
from kiln.runtime.matmul import TritonMatmul

CONFIGS = ((128, 128, 64, 3, 4), (128, 256, 64, 3, 8), (256, 128, 64, 3, 8), (128, 128, 64, 4, 8),
           (64, 128, 64, 3, 4), (128, 64, 64, 3, 4), (64, 64, 64, 3, 4))
SHAPES = [(m, 768, 50257) for m in (128, 256, 512, 1024, 2048, 4096, 8192)] + \
    [(m, 768, 30522) for m in (512, 1024, 4096)] + [(m, 1536, 128100) for m in (512, 4096)] + \
    [(m, 1024, 50265) for m in (1024, 4096)] + [(m, 4096, 32001) for m in (512, 2048)]
rows = []
for m, k, n in SHAPES:
    for dtype, bias in ((torch.bfloat16, False),) + (((torch.bfloat16, True), (torch.float16, False))
                                                     if (m, n) == (1024, 30522) else ()):
        a = torch.randn(m, k, device="cuda", dtype=dtype)
        w = torch.randn(n, k, device="cuda", dtype=dtype) / k ** 0.5
        b = torch.randn(n, device="cuda", dtype=dtype) if bias else None
        ref = a.float() @ w.t().float() + (0 if b is None else b.float())
        row = {"m": m, "k": k, "n": n, "dtype": str(dtype), "bias": bias}

        def plain():
            return torch.addmm(b, a, w.t()) if bias else torch.mm(a, w.t())

        def blocks():
            return aligned_rows_mm(a, w.t(), b)
        padded_n = -(-n // 64) * 64

        def inductor_form():
            wp = torch.nn.functional.pad(w, (0, 0, 0, padded_n - n))
            out = torch.mm(a, wp.t())[:, :n]
            return out + b if bias else out
        for name, run in (("library", plain), ("aligned_rows", blocks), ("inductor_form", inductor_form)):
            row[name] = round(gpu_seconds(run) * 1e6, 1)
        for config in CONFIGS:
            mm = TritonMatmul("addmm" if bias else "mm", config)
            args = (b, a, w.t()) if bias else (a, w.t())
            got = mm(*args)
            err = ((got.float() - ref).abs().max() / ref.abs().max()).item()
            row["x".join(map(str, config))] = round(gpu_seconds(lambda: mm(*args)) * 1e6, 1) if err < 2e-2 \
                else f"WRONG {err:.3g}"
        rows.append(row)
        print(json.dumps(row), flush=True)
with open(sys.argv[1], "w") as f:
    json.dump(rows, f, indent=1)
