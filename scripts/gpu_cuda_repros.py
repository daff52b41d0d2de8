"""The issue-24 repros on CUDA: timm's fused-qkv attention in bf16 (forward and backward against eager, fp64 rule),
float32 division and square roots bit for bit against eager's (Triton's / and tl.sqrt are approximate), bf16/fp16
floor and trunc division bit for bit, prod's gradient of a transposed x, pow of special values, and an
out-of-bounds index (in a child process: a device-side assert ends the CUDA context, as eager's does)."""
import subprocess
import sys

import torch
import torch.nn.functional as F

import kiln
from kiln.tools.accuracy import accuracy_error


def attention(qkv, heads=12):
    b, n, c = qkv.shape
    q, k, v = qkv.reshape(b, n, 3, heads, c // 3 // heads).permute(2, 0, 3, 1, 4).unbind(0)
    return F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(b, n, c // 3)


def main():
    for dtype in (torch.bfloat16, torch.float32):
        x = torch.randn(8, 197, 3 * 768, device="cuda", dtype=dtype, requires_grad=True)
        torch._dynamo.reset()
        compiled = kiln.compile(attention, options={"strict": True})
        outs = []
        for f, inp in ((compiled, x), (attention, x), (attention, x.detach().double().requires_grad_())):
            out = f(inp)
            (g,) = torch.autograd.grad(out.float().square().sum(), inp)
            outs.append([out, g])
        print(f"fused-qkv attention {dtype}: {accuracy_error(*outs) or 'passes the fp64 rule'}")
    a, b = torch.randn(2, 1 << 20, device="cuda").unbind(0)
    a[0], b[0] = 4.6875, 0.9375   # 5 exactly: div.full.f32 gives 5.0000005, and trunc division 4
    ops = {"a / b": lambda a, b: a / b, "trunc(a / b)": lambda a, b: torch.div(a * 8, b, rounding_mode="trunc"),
           "sqrt(|b|)": lambda a, b: b.abs().sqrt(), "1 / b": lambda a, b: b.reciprocal()}
    for name, fn in ops.items():
        torch._dynamo.reset()
        differ = (kiln.compile(fn, options={"strict": True})(a, b) != fn(a, b)).sum().item()
        print(f"float32 {name}: {differ} elements differ from eager's")
    softmax = lambda a: torch.softmax(a.view(1024, -1) * 4, -1)  # noqa: E731
    torch._dynamo.reset()
    for name, f in (("eager", softmax), ("kiln", kiln.compile(softmax))):
        print(f"float32 softmax rows of 1024, RMS of (row sum - 1), {name}: {(f(a).double().sum(-1) - 1).square().mean().sqrt():.3g}")
    for dtype in (torch.bfloat16, torch.float16):   # eager's kernels round every step to the dtype
        x, y = (torch.randn(1 << 20, device="cuda") * 50).to(dtype), torch.randn(1 << 20, device="cuda").to(dtype)
        for mode in ("floor", "trunc"):
            fn = lambda a, b: torch.div(a, b, rounding_mode=mode)  # noqa: E731
            torch._dynamo.reset()
            differ = (kiln.compile(fn, options={"strict": True})(x, y) != fn(x, y)).sum().item()
            print(f"{dtype} {mode} division: {differ} elements differ from eager's")
    w = torch.randn(3, 2, device="cuda", requires_grad=True)   # index parts with negative bases (floor division)
    grads = [torch.autograd.grad(f(w.t()), w)[0] for f in (torch.prod, kiln.compile(torch.prod))]
    print(f"prod's gradient of a transposed x: max difference {(grads[0] - grads[1]).abs().max().item():.3g}")
    inf, nan = float("inf"), float("nan")
    base = torch.tensor([-0.0, 0.0, -inf, inf, -1.0, 1.0, nan, -2.5, 0.5], device="cuda").repeat_interleave(7)
    exponent = torch.tensor([-3.0, 3.0, 0.5, -0.5, inf, -inf, 0.0], device="cuda").repeat(9)
    torch._dynamo.reset()
    powers = kiln.compile(torch.pow)(base, exponent), torch.pow(base, exponent)
    same = (powers[0] == powers[1]) & (powers[0].signbit() == powers[1].signbit()) | powers[0].isnan() & powers[1].isnan()
    print(f"pow of special values: {(~same).sum().item()} of {same.numel()} differ from eager's")
    child = ("import torch, kiln; w = torch.randn(10, 4, device='cuda'); "
             "print(kiln.compile(lambda w, i: w[i] * 2, options={'strict': True})(w, torch.tensor([1, 12], device='cuda')));"
             "torch.cuda.synchronize()")
    r = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=300)
    print("out-of-bounds index on CUDA: exit", r.returncode, "|", (r.stderr.strip().splitlines() or [""])[-1][:200])


if __name__ == "__main__":
    main()
