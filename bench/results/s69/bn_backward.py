"""A training batch norm's backward over a channels-last activation (a conv net's: the weight and bias gradients
are column sums over N*H*W rows, split into pieces and combined), kiln against Inductor in one process.
    PYTHONPATH=exp:. python3 bench/results/s69/bn_backward.py [--shapes 32x64x56x56,...]
Times a call as the GPU runs it and each kernel alone (bench/results/s67/ln_backward.py's timers)."""
import argparse, json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "s67"))
import ln_backward as timing   # (sets fresh cache directories before torch is imported)
import torch
import kiln


def function(g, x, w, mean, invstd):
    return torch.ops.aten.native_batch_norm_backward(g, x, w, None, None, mean, invstd, True, 1e-5,
                                                     [True, True, True])


def inputs(N, C, H, W):
    x = torch.randn(N, C, H, W, device="cuda").to(memory_format=torch.channels_last)
    mean = x.mean((0, 2, 3))
    invstd = (x.var((0, 2, 3), correction=0) + 1e-5).rsqrt()
    g = torch.randn(N, C, H, W, device="cuda").to(memory_format=torch.channels_last)
    return [g, x, torch.randn(C, device="cuda"), mean, invstd]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", default="32x64x56x56,32x128x28x28,32x256x14x14,32x512x7x7")
    a = p.parse_args()
    rows = []
    for text in a.shapes.split(","):
        args = inputs(*map(int, text.split("x")))
        ref = [t.double() for t in function(*[t.double() for t in args])]
        for variant in ("inductor", "kiln"):
            torch._dynamo.reset()
            fn = torch.compile(function, backend="inductor") if variant == "inductor" else kiln.compile(function)
            out = fn(*args)
            err = max(((o.double() - r).abs().max() / r.abs().max()).item() for o, r in zip(out, ref))
            us = timing.graph_time(fn, args)
            if variant == "kiln":   # each kernel's own time: without dependent launches
                torch._dynamo.reset()
                fn = kiln.compile(function, options={"dependent_launch": False})
                fn(*args)
            kernels = timing.kernel_times(fn, args)
            rows.append({"shape": text, "variant": variant, "us_per_call": round(us, 2), "rel_err": err,
                         "kernels": [[n, round(t, 2)] for n, t in kernels]})
            print(f"{text:>14} {variant:>8}: {us:6.2f} us a call (err {err:.0e}); kernels alone: " +
                  "; ".join(f"{n[:28]} {t:.2f}" for n, t in kernels), flush=True)
    if os.environ.get("OUT"):
        json.dump(rows, open(os.path.join(os.environ["OUT"], "bn_backward.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
