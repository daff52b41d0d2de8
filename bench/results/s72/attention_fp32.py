"""fp32 attention on CUDA, forward and backward: eager's memory-efficient kernel, kiln (SDPA's kernel as batched
products, kiln.decompositions.ATTENTION_AS_PRODUCTS) and Inductor, one process, alternating rounds (session 72,
issue 16; kiln's products with `git apply bench/results/s72/attention_as_products.patch`, tried and
reverted: bench/NOTES.md 95). Per shape: ms a forward + backward (CUDA events, median over the rounds), the largest difference from
an fp64 reference relative to its largest value (output and gradients), and the MiB a forward keeps for its
backward beyond its inputs and output.
    PYTHONPATH=. python3 bench/results/s72/attention_fp32.py [OUT.json]"""
import json
import statistics
import sys

import torch
import torch.nn.functional as F

import kiln

SHAPES = {   # name: (batch, heads, queries, keys, head dim, bias: None | "grad" (T5's, learned), causal)
    "t5_self": (8, 8, 512, 512, 64, "grad", False),
    "t5_cross": (8, 8, 512, 512, 64, None, False),
    "bart_bert": (8, 12, 512, 512, 64, None, False),
    "gpt2_causal": (8, 12, 512, 512, 64, None, True),
    "vit_base": (32, 12, 197, 197, 64, None, False),
    "swin_s1": (2048, 3, 49, 49, 32, "grad", False),
    "long_2048": (2, 8, 2048, 2048, 64, None, False),   # past SCORES_AS_PRODUCTS_BYTES: the kernel
}


def attention(q, k, v, mask, causal):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)


def operands(shape):
    b, h, l, s, d, bias, causal = shape
    g = torch.Generator(device="cuda").manual_seed(0)
    q, k, v = (torch.randn(b, n, h, d, device="cuda", generator=g).transpose(1, 2).requires_grad_() for n in (l, s, s))
    mask = torch.randn(1, h, l, s, device="cuda", generator=g).requires_grad_() if bias else None
    return q, k, v, mask, causal, torch.randn(b, h, l, d, device="cuda", generator=g)


def error(fn, ops):
    q, k, v, mask, causal, g = ops
    leaves = [t for t in (q, k, v, mask) if t is not None]
    out = fn(q, k, v, mask, causal)
    grads = torch.autograd.grad(out, leaves, g)
    wide = [t.detach().double().requires_grad_() for t in leaves]
    wq, wk, wv, wm = wide if mask is not None else (*wide, None)
    s = wq @ wk.transpose(-1, -2) / q.shape[-1] ** 0.5 + (0 if wm is None else wm)
    if causal:
        s = s.masked_fill(~torch.ones(s.shape[-2:], dtype=torch.bool, device="cuda").tril(), float("-inf"))
    ref = torch.softmax(s, -1) @ wv
    ref_grads = torch.autograd.grad(ref, wide, g.double())
    return max(float((a.detach().double() - e.detach()).abs().max() / e.detach().abs().max()) for a, e in zip([out, *grads], [ref, *ref_grads]))


def kept_mib(fn, ops):
    q, k, v, mask, causal, _ = ops
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    out = fn(q, k, v, mask, causal)
    torch.cuda.synchronize()
    kept = torch.cuda.memory_allocated() - before - out.numel() * 4
    del out
    return kept / 2 ** 20


def main():
    rows = {}
    for name, shape in SHAPES.items():
        torch._dynamo.reset()
        ops = operands(shape)
        fns = {"eager": attention, "inductor": torch.compile(attention, backend="inductor"),
               "kiln": kiln.compile(attention)}
        row = rows[name] = {}
        for label, fn in fns.items():
            row[f"{label}_error"] = error(fn, ops)
            row[f"{label}_kept_mib"] = kept_mib(fn, ops)
        times = {label: [] for label in fns}
        q, k, v, mask, causal, g = ops
        for _ in range(15):   # alternating rounds of 5 forward + backward each
            for label, fn in fns.items():
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(5):
                    fn(q, k, v, mask, causal).backward(g)
                end.record()
                torch.cuda.synchronize()
                times[label].append(start.elapsed_time(end) / 5)
        for label in fns:
            row[f"{label}_ms"] = statistics.median(times[label][3:])
        print(f"{name:12s} {shape}: " + ", ".join(
            f"{label} {row[f'{label}_ms']:.3f} ms (err {row[f'{label}_error']:.1e}, kept {row[f'{label}_kept_mib']:.0f} MiB)"
            for label in fns) + f"; kiln/inductor {row['inductor_ms'] / row['kiln_ms']:.3f}", flush=True)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
