"""Where a model's accuracy is lost: each block compiled alone, on the inputs eager gives it, against fp64.

    PYTHONPATH=. python3 scripts/block_accuracy.py timm_efficientnet --device cuda --size gpu --amp

A whole-model check says that an output fails; this says which block makes the error. Every module that is an
element of a ModuleList or Sequential (a model's stack of blocks; --depth picks how deep) is run three ways on
the inputs an eager forward passed it: eager (under autocast with --amp), compiled by each backend, and a
float64 copy (no autocast). Per block it prints the RMSE to fp64 of eager and of each backend, their ratio,
and the mean signed error, which shows a bias that a sum (a loss) accumulates where an RMSE looks harmless;
with --grad, the same for the gradients of the block's parameters.
"""
import argparse
import contextlib
import copy
import json

import torch
from torch import nn

from kiln.tools import accuracy
from kiln.tools.bench import _compile
from kiln.tools.workloads import workload


def blocks(model, depth):
    """(name, module) of the elements of ModuleLists and Sequentials, at most depth containers deep."""
    found = []

    def walk(prefix, module, level):
        for name, child in module.named_children():
            path = f"{prefix}.{name}" if prefix else name
            if isinstance(module, (nn.ModuleList, nn.Sequential)) and level > 0:
                if level == 1 or not any(isinstance(c, (nn.ModuleList, nn.Sequential)) for c in child.modules()):
                    found.append((path, child))
                    continue
                walk(path, child, level - 1)
            else:
                walk(path, child, level)
    walk("", model, depth)
    return found


def first_tensor(out):
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)):
        return next(first_tensor(o) for o in out if first_tensor(o) is not None)
    return getattr(out, "last_hidden_state", None)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--device", default="cpu")
    p.add_argument("--size", default="quick")
    p.add_argument("--amp", action="store_true", help="bf16 autocast, fp32 weights (the suite's AMP rows)")
    p.add_argument("--train", action="store_true", help="train mode (batch statistics)")
    p.add_argument("--grad", action="store_true", help="also the parameters' gradients of the output's sum: the "
                   "largest ratio to eager's error over them, and the parameter it is")
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--backends", default="kiln")
    p.add_argument("--out", help="a JSON lines file for the rows")
    args = p.parse_args()
    w = workload(args.model)
    model = w.make_module(args.device, torch.float32, args.size).model.train(args.train)
    inputs = w.make_inputs(args.device, torch.float32, args.size)
    amp = (lambda: torch.autocast(args.device, dtype=torch.bfloat16)) if args.amp else contextlib.nullcontext
    captured = {}
    hooks = [m.register_forward_pre_hook(lambda m, a, kw, name=name: captured.setdefault(name, (a, kw)),
                                         with_kwargs=True) for name, m in blocks(model, args.depth)]
    with torch.no_grad(), amp():
        model(*inputs)
    captured = {k: ([x.detach() if isinstance(x, torch.Tensor) else x for x in a], kw) for k, (a, kw) in captured.items()}
    for h in hooks:
        h.remove()
    rows = []
    as64 = lambda x: x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x

    def run(f, module, a, kw):
        """f's first output, and with --grad the gradients of its sum for module's parameters."""
        for param in module.parameters():
            param.grad = None
        with torch.set_grad_enabled(args.grad), amp():
            out = first_tensor(f(*a, **kw))
        if out is None or not args.grad or not out.requires_grad:
            return out, []
        out.float().sum().backward()
        return out.detach(), [(n, q.grad) for n, q in module.named_parameters() if q.grad is not None]

    with accuracy.exact_float32():
        for name, module in blocks(model, args.depth):
            if name not in captured:
                continue
            a, kw = captured[name]
            state = copy.deepcopy(module.state_dict())   # batch norm updates its running stats in train mode
            eager, eager_grads = run(module, module, a, kw)
            if eager is None:
                continue
            double = copy.deepcopy(module).double()
            with accuracy.Float64Throughout():
                fp64, fp64_grads = run(double, double, list(map(as64, a)), {k: as64(v) for k, v in kw.items()})
            row = {"block": name, "type": type(module).__name__, "scale": accuracy.rmse(fp64, torch.zeros_like(fp64)),
                   "eager": accuracy.rmse(fp64, eager), "eager_bias": (eager.double() - fp64).mean().item()}
            for backend in args.backends.split(","):
                module.load_state_dict(state)
                out, grads = run(_compile(module, backend), module, a, kw)
                row[backend] = accuracy.rmse(fp64, out)
                row[backend + "_ratio"] = row[backend] / max(row["eager"], 1e-30)
                row[backend + "_bias"] = (out.double() - fp64).mean().item()
                if grads:
                    ratios = [(accuracy.rmse(r, g) / max(accuracy.rmse(r, e), 1e-30), n, accuracy.rmse(r, e),
                               accuracy.rmse(r, g)) for (n, g), (_, e), (_, r) in zip(grads, eager_grads, fp64_grads)]
                    worst = max(ratios)
                    row[backend + "_grad_ratio"], row[backend + "_grad_worst"] = worst[0], worst[1]
                    row[backend + "_grad_errors"] = worst[2:]   # (eager's, the backend's) RMSE to fp64
                torch._dynamo.reset()
            module.load_state_dict(state)
            rows.append(row)
            print(json.dumps({k: (f"{v:.3g}" if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)


if __name__ == "__main__":
    main()
