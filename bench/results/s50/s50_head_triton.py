"""Session 50: GPT-2's 50257-word head at the suite's GPU size (4096 x 768 x 50257, bf16): kiln's aligned-rows
blocks (the default) against kiln's Triton matmul storing the misaligned rows directly.
    PYTHONPATH=. python3 bench/results/s50/s50_head_triton.py
"""
import torch

from kiln.lowering.externs import aligned_rows_mm
from kiln.runtime.autotune import gpu_seconds
from kiln.runtime.matmul import TritonMatmul

a = torch.randn(4096, 768, device="cuda", dtype=torch.bfloat16)
w = torch.randn(50257, 768, device="cuda", dtype=torch.bfloat16) / 28
ref = aligned_rows_mm(a, w.t())
print("aligned rows", round(gpu_seconds(lambda: aligned_rows_mm(a, w.t())) * 1e6, 1), "us", flush=True)
for config in ((128, 128, 64, 3, 4), (128, 256, 64, 3, 8)):
    mm = TritonMatmul("mm", config)
    got = mm(a, w.t())
    ok = torch.allclose(got.float(), ref.float(), atol=0.05, rtol=0.02)
    print(config, round(gpu_seconds(lambda: mm(a, w.t())) * 1e6, 1), "us", "ok" if ok else "WRONG", flush=True)
