"""Every output's error for one model of the suite: RMSE to the fp64 reference of eager and of each compiler, with
the output's name (loss, or the parameter whose gradient it is) and scale, and the ratio the accuracy rule bounds.
Where the bench reports only the first failing output, this shows whether a failure is one tensor or a drift.

    PYTHONPATH=. python3 scripts/accuracy_detail.py t5 --train --device cuda --size gpu --backends kiln,inductor

--amp runs the forward under autocast to bf16 (the suite's AMP rows); --tf32 leaves TF32 on in cuDNN as torch
has it by default (the suite checks with it off: see kiln.tools.accuracy), to see what TF32 does to a model.
`eager_nudged_ratio`: the largest error of eager's runs on inputs and parameters moved by one ulp, over eager's
own; the rule bounds a compiler by the larger of the two (kiln.tools.accuracy).
"""
import argparse
import contextlib
import json

import torch

from kiln.tools import accuracy
from kiln.tools.bench import _compile, _make_step, _references
from kiln.tools.workloads import workload


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--train", action="store_true")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--size", default="quick")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--backends", default="kiln")
    parser.add_argument("--amp", action="store_true")
    parser.add_argument("--tf32", action="store_true")
    parser.add_argument("--top", type=int, default=12, help="print the outputs with the largest ratios")
    parser.add_argument("--seeds", type=int, default=0, help="instead: the first output's error for this many "
                        "random inputs (floating inputs redrawn), each compiled model reused: is a failure one "
                        "unlucky draw of rounding noise, or a bias every input shows?")
    args = parser.parse_args()
    dtype = getattr(torch, args.dtype)
    autocast = "bfloat16" if args.amp else None
    with contextlib.nullcontext() if args.tf32 else accuracy.exact_float32():
        (over_seeds if args.seeds else report)(args, dtype, autocast)


def over_seeds(args, dtype, autocast):
    w = workload(args.model)
    module = w.make_module(args.device, dtype, args.size, args.train)
    compiled = {b: _compile(module, b) for b in args.backends.split(",")}
    for seed in range(args.seeds):
        g = torch.Generator(args.device).manual_seed(1000 + seed)
        inputs = [torch.randn(x.shape, generator=g, device=x.device, dtype=x.dtype) if x.is_floating_point() else x
                  for x in w.make_inputs(args.device, dtype, args.size)]
        fp64, eager, nudged = _references(module, inputs, args.train, autocast)
        row = {"seed": seed, "scale": fp64[0].abs().max().item(), "eager": accuracy.rmse(fp64[0], eager[0]),
               "eager_nudged_worst_ratio": max(max(ratios(fp64, eager, run)) for run in nudged)}
        for backend, f in compiled.items():
            result = _make_step(f, inputs, args.train, autocast)()
            row[backend] = accuracy.rmse(fp64[0], result[0])
            row[backend + "_error"] = accuracy.tensor_error(result[0], eager[0], fp64[0], [run[0] for run in nudged])
            row[backend + "_failing"] = [i for i, (r, e, ref) in enumerate(zip(result, eager, fp64))
                                         if accuracy.tensor_error(r, e, ref, nudged=[run[i] for run in nudged])]
            row[backend + "_worst_ratio"] = max(ratios(fp64, eager, result))
        print(json.dumps(row), flush=True)


def ratios(fp64, eager, result):
    return [accuracy.rmse(ref, r) / max(accuracy.rmse(ref, e), 1e-30) for ref, e, r in zip(fp64, eager, result)]


def report(args, dtype, autocast):
    w = workload(args.model)
    module = w.make_module(args.device, dtype, args.size, args.train)
    inputs = w.make_inputs(args.device, dtype, args.size)
    names = ["loss" if args.train else "output"]
    if args.train:   # the step's gradients: of the floating inputs, then of the parameters
        names += [f"input{i}" for i, x in enumerate(inputs) if x.is_floating_point()]
        names += [n for n, _ in module.named_parameters()]
    fp64, eager, nudged = _references(module, inputs, args.train, autocast)
    rows = [{"i": i, "name": names[i] if i < len(names) else str(i), "scale": accuracy.rmse(ref, torch.zeros_like(ref)),
             "eager": accuracy.rmse(ref, e)} for i, (ref, e) in enumerate(zip(fp64, eager))]
    for row, *per_run in zip(rows, *(ratios(fp64, eager, run) for run in nudged)):
        row["eager_nudged_ratio"] = max(per_run)
    for backend in args.backends.split(","):
        torch._dynamo.reset()
        result = _make_step(_compile(module, backend), inputs, args.train, autocast)()
        for row, ref, e, r, ratio in zip(rows, fp64, eager, result, ratios(fp64, eager, result)):
            row[backend] = accuracy.rmse(ref, r)
            row[backend + "_ratio"] = ratio
            row[backend + "_error"] = accuracy.tensor_error(r, e, ref, nudged=[run[row["i"]] for run in nudged])
    first = args.backends.split(",")[0]
    for row in sorted(rows, key=lambda r: -r[first + "_ratio"])[:args.top]:
        print(json.dumps(row), flush=True)
    for backend in args.backends.split(","):
        print(backend, "failing outputs:", [r["i"] for r in rows if r[backend + "_error"]], flush=True)


if __name__ == "__main__":
    main()
