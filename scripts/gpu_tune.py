"""Launch configs of kiln's Triton kernels for the issue's bandwidth-bound workloads, against Inductor.

    PYTHONPATH=. python3 scripts/gpu_tune.py [--out DIR] [layer_norm] [gelu] [softmax] [resnet_eval] [to_channels_last] ...

Each variant overrides the (XBLOCK, RBLOCK, num_warps) that kiln's heuristics pick for the workload's
kernels of one kind (reduction, transposing or plain pointwise; Tiles.config), compiles afresh, and is timed with Inductor's compile of the same
module in alternating rounds in one process (do_bench medians, the best round counts). Writes the
variants' times and % of copy bandwidth to DIR/tune.json.
"""
import argparse
import json
import math
import os
import sys

import torch
from triton.testing import do_bench

import kiln
from kiln.codegen import triton as triton_codegen
from kiln.codegen.triton_tiles import Tiles
from kiln.tools import workloads as W

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_check import copy_bandwidth  # noqa: E402

BF16 = torch.bfloat16
WORKLOADS = {   # name -> (module, inputs): the workloads
    "layer_norm": lambda: (W.LayerNorm(8192).to("cuda", BF16), [torch.randn(8192, 8192, device="cuda", dtype=BF16)]),
    "gelu": lambda: (W.GeluBias(8192).to("cuda", BF16), [torch.randn(8192, 8192, device="cuda", dtype=BF16)]),
    "softmax": lambda: (W.Softmax(), [torch.randn(8192, 8192, device="cuda", dtype=BF16)]),
    "resnet_eval": lambda: (W.WORKLOADS["resnet_block"].make_module("cuda", torch.float32, "gpu"),
                            W.WORKLOADS["resnet_block"].make_inputs("cuda", torch.float32, "gpu")),
    # the ResNet block's three bandwidth-bound kernels, alone: NCHW -> NHWC, NHWC batch norm + relu, and
    # NHWC batch norm + residual + relu -> NCHW
    "to_channels_last": lambda: (ChannelsLast(), [torch.randn(64, 128, 56, 56, device="cuda")]),
    "bn_relu_cl": lambda: (BatchNormReLU().cuda().eval(), [cl(torch.randn(64, 128, 56, 56, device="cuda"))]),
    "bn_relu_cl_infer": lambda: (BatchNormReLU().cuda().eval().requires_grad_(False),
                                 [cl(torch.randn(64, 128, 56, 56, device="cuda"))]),
    "bn_add_relu": lambda: (BatchNormReLU().cuda().eval(), [cl(torch.randn(64, 128, 56, 56, device="cuda")),
                                                             torch.randn(64, 128, 56, 56, device="cuda")]),
}


def cl(x):
    return x.contiguous(memory_format=torch.channels_last)


class ChannelsLast(torch.nn.Module):
    def forward(self, x):
        return cl(x) * 2


class BatchNormReLU(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = W.batch_norm(128)

    def forward(self, x, residual=None):
        return torch.relu(self.bn(x) + (0 if residual is None else residual))


SMALL_TILES = [(x, r, w) for x, r in ((16, 128), (8, 128), (32, 128), (32, 64), (64, 64), (16, 64), (64, 32),
                                     (128, 32), (32, 32), (128, 16)) for w in (2, 4, 8)]
SQUARE_TILES = [(x, r, w) for x, r in ((64, 64), (32, 32), (64, 32), (32, 64), (128, 32), (32, 128), (16, 128))
                for w in (2, 4, 8)]
# (kernel kind, xblock, rblock, num_warps); None keeps the heuristic's choice
VARIANTS = {
    "layer_norm": [("reduction", 1, None, w) for w in (4, 8, 16, 32)] + [("reduction", 2, None, 16)],
    "softmax": [("reduction", 1, None, w) for w in (4, 8, 16, 32)] + [("reduction", 2, None, 16)],
    "gelu": [("pointwise", 1, r, w) for r in (1024, 2048) for w in (2, 4, 8)] + [("pointwise", 4, 512, 4)],
    "resnet_eval": [("transpose", x, r, w) for x, r in ((64, 64), (32, 64), (64, 32), (32, 32)) for w in (4, 8)
                    if (x, r, w) != (64, 64, 8)] + [("pointwise", x, 128, w) for x in (4, 8, 16) for w in (2, 4)]
                   + [("pointwise", 32, 128, 8)],
    "to_channels_last": [("transpose",) + t for t in SQUARE_TILES],
    "bn_relu_cl": [("pointwise",) + t for t in SMALL_TILES],
    "bn_relu_cl_infer": [("pointwise",) + t for t in SMALL_TILES],
    "bn_add_relu": [("transpose",) + t for t in SQUARE_TILES],
}
HEURISTIC = Tiles.config
triton_codegen.BUILD_BUDGET_MS = math.inf   # each variant runs the tile it names (the build budget would shrink some)


def kind(tiles):
    return "reduction" if tiles.kernel.is_reduction else "transpose" if tiles.transposing else "pointwise"


def overriding(variant):
    """Tiles.config replaced by the variant's tile."""
    def config(self):
        xblock, rblock, persistent, warps = HEURISTIC(self)
        if kind(self) != variant[0]:
            return xblock, rblock, persistent, warps
        _, x, r, w = variant
        return x or xblock, (r if r and not persistent else rblock), persistent, w or warps
    return config


def compiled(module, variant):
    Tiles.config = overriding(variant) if variant else HEURISTIC
    torch._dynamo.reset()
    return kiln.compile(module)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    p.add_argument("--out", default=os.environ.get("OUT", "gpu_out"))
    p.add_argument("--rounds", type=int, default=3)
    torch._dynamo.config.recompile_limit = 64   # every variant is a recompile of the same module
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    copy_tbs = copy_bandwidth()
    results = {"copy_tbs": copy_tbs, "device": torch.cuda.get_device_name(), "torch": torch.__version__}
    for name in a.workloads:
        module, inputs = WORKLOADS[name]()
        nbytes = sum(t.numel() * t.element_size() for t in inputs) * 2   # in + an output of the same size
        ref = module(*inputs)
        runs = {"inductor": torch.compile(module, backend="inductor")}
        runs["inductor"](*inputs)
        for variant in [None] + VARIANTS[name]:
            f = compiled(module, variant)
            torch.testing.assert_close(f(*inputs), ref, rtol=2e-2, atol=2e-2)
            runs["kiln " + ("default" if variant is None else str(variant))] = f
        Tiles.config = HEURISTIC
        best = {}
        for _ in range(a.rounds):
            for label, f in runs.items():
                ms = do_bench(lambda: f(*inputs), warmup=50, rep=300, return_mode="median")
                best[label] = min(best.get(label, ms), ms)
        rows = {label: dict(ms=ms, pct_copy=100 * nbytes / ms / 1e9 / copy_tbs,
                            vs_inductor=best["inductor"] / ms) for label, ms in best.items()}
        results[name] = rows
        for label, row in sorted(rows.items(), key=lambda kv: kv[1]["ms"]):
            print(f"{name:10} {label:28} {row['ms'] * 1e3:7.1f} us  {row['pct_copy']:5.1f}% of copy  "
                  f"{row['vs_inductor']:.3f}x Inductor", flush=True)
    with open(os.path.join(a.out, "tune.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
