"""fp32 attention on CUDA, SDPA's memory-efficient kernel against the math form (two batched products and a
softmax), forward and backward, at the suite's shapes (session 47, issue 16: T5's fp32 training step, where
Inductor's trace took the math form for 12 of 18 attentions and kiln the memory-efficient kernel for all).
Per shape: ms per forward+backward (CUDA events, median of 20 after 5 warm), and the bytes the forward keeps
for the backward beyond q, k, v (and the bias).
    python3 bench/results/s47/s47_attention_fp32.py [OUT.json]
"""
import json
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = {   # name: (batch, heads, queries, keys, head dim, bias: None | "grad" | "const", causal)
    "t5_encoder_self": (8, 8, 512, 512, 64, "grad", False),
    "t5_decoder_self": (8, 8, 512, 512, 64, "grad", False),
    "t5_cross": (8, 8, 512, 512, 64, None, False),
    "bert": (8, 12, 512, 512, 64, None, False),
    "gpt2_causal": (8, 12, 512, 512, 64, None, True),
    "vit_base": (32, 12, 197, 197, 64, None, False),
    "swin_window": (128, 12, 49, 49, 32, "grad", False),
    "swin_window_s1": (2048, 3, 49, 49, 32, "grad", False),
    "long_2048": (2, 8, 2048, 2048, 64, None, False),
}


def run(shape, backend):
    b, h, l, s, d, bias, causal = shape
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", requires_grad=True) for n in (l, s, s))
    mask = None
    if bias:
        mask = torch.randn(b, h, l, s, device="cuda", requires_grad=bias == "grad")
    g = torch.randn(b, h, l, d, device="cuda")

    def step():
        with sdpa_kernel([backend]):
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
        out.backward(g)
    for _ in range(5):
        step()
    torch.cuda.synchronize()
    times = []
    for _ in range(20):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        step()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    torch.cuda.synchronize()
    held = torch.cuda.memory_allocated()
    with sdpa_kernel([backend]):
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
    kept = torch.cuda.memory_allocated() - held - out.numel() * 4
    del out
    return {"ms": statistics.median(times), "kept_mib": kept / 2 ** 20}


rows = {}
for name, shape in SHAPES.items():
    rows[name] = {}
    for backend in (SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH):
        try:
            rows[name][backend.name] = run(shape, backend)
        except Exception as e:
            rows[name][backend.name] = {"error": str(e).splitlines()[0][:100]}
    e, m = rows[name]["EFFICIENT_ATTENTION"], rows[name]["MATH"]
    print(f"{name:16s} {shape}: efficient {e.get('ms', 0):.3f} ms ({e.get('kept_mib', 0):.0f} MiB kept), "
          f"math {m.get('ms', 0):.3f} ms ({m.get('kept_mib', 0):.0f} MiB kept) {e.get('error', '')} {m.get('error', '')}",
          flush=True)
if len(sys.argv) > 1:
    with open(sys.argv[1], "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, f, indent=1)
