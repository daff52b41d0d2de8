"""What a training step keeps for its backward: eager's saved tensors against the compiled graphs'.

    PYTHONPATH=. python3 scripts/saved_tensors.py MODEL [MODEL ...] [--device cuda] [--size gpu] [--amp] [--out F]
        [--dump DIR]

Eager: every tensor autograd saves during the forward (saved_tensors_hooks), counted once per storage.
Compiled: Dynamo and AOTAutograd with kiln's decompositions and partitioner (what kiln receives; no kiln code
runs), the saved values read from each backward graph's inputs. Each side is listed by total and by its
largest shapes; the compiled side also by the op that made each saved value, with the attention and softmax
ops each forward graph calls and Dynamo's graph breaks. Eager's attention ops are the profiler's.
"""
import argparse
import collections
import copy
import json
import os
import sys

import torch
from torch._dynamo.backends.common import aot_autograd
from torch._functorch.aot_autograd import make_boxed_func

from kiln.capture import partition
from kiln.decompositions import kiln_decompositions
from kiln.tools.workloads import workload

ATTENTION_WORDS = ("scaled_dot_product", "softmax", "bmm", "baddbmm")


def nbytes(t):
    return t.numel() * t.element_size()


def eager_saved(step, held):
    """(total MiB, [(MiB, shape, dtype)] largest first) of the tensors autograd saves, once per storage, less
    those of held (the parameters and inputs, which live anyway)."""
    seen = {}
    skip = {t.untyped_storage().data_ptr() for t in held}

    def pack(t):
        try:
            key = t.untyped_storage().data_ptr()
        except (RuntimeError, NotImplementedError):
            key = id(t)
        if key in skip:
            return t
        size = t.untyped_storage().nbytes() if key != id(t) else nbytes(t)
        seen[key] = max(seen.get(key, (0, None))[0], size), (list(t.shape), str(t.dtype)[6:])
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = step()
    loss.backward()
    rows = sorted(((b / 2 ** 20, *what) for b, what in seen.values()), key=lambda r: -r[0])
    return sum(r[0] for r in rows), rows


def eager_attention_ops(step):
    """{op name: calls} of eager's forward ops that compute attention, from the profiler."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        with torch.no_grad():
            step()
    counts = collections.Counter(e.name for e in prof.events() if any(w in e.name for w in ATTENTION_WORDS))
    return dict(counts)


def compiled_saved(module, inputs, loss_of, dump=None):
    """Per forward graph: its attention ops and saved values [(MiB, shape, dtype, producing op)]; with dump (a
    directory), each forward and backward graph's code is written there."""
    graphs = []

    def write(kind, gm):
        if dump:
            os.makedirs(dump, exist_ok=True)
            with open(os.path.join(dump, f"{kind}_{len(graphs)}.py"), "w") as f:
                f.write(gm.print_readable(print_output=False))

    def forward_compiler(gm, example_inputs):
        ops = collections.Counter(str(n.target) for n in gm.graph.nodes
                                  if n.op == "call_function" and any(w in str(n.target) for w in ATTENTION_WORDS))
        write("forward", gm)
        made_by = {n.name: f"{n.target}" for n in gm.graph.nodes if n.op == "call_function"}
        graphs.append({"forward_nodes": len(gm.graph.nodes), "attention_ops": dict(ops), "saved": [],
                       "made_by": made_by})
        return make_boxed_func(gm.forward)

    def backward_compiler(gm, example_inputs):
        write("backward", gm)
        saved = []
        for n in gm.graph.nodes:
            # (primals_*: the forward's inputs, parameters among them, which live anyway)
            if n.op == "placeholder" and not n.name.startswith(("tangents", "primals")):
                val = n.meta.get("val")
                if isinstance(val, torch.Tensor):
                    saved.append((nbytes(val) / 2 ** 20, list(val.shape), str(val.dtype)[6:], n.name))
        # backward graphs are compiled in reverse forward order; match each to the latest forward without one
        target = next(g for g in reversed(graphs) if not g["saved"])
        saved = [(*r[:3], target["made_by"].get(r[3], r[3])) for r in saved]
        target["saved"] = sorted(saved, key=lambda r: -r[0])
        return make_boxed_func(gm.forward)

    torch._dynamo.reset()
    backend = aot_autograd(fw_compiler=forward_compiler, bw_compiler=backward_compiler,
                           partition_fn=partition, decompositions=kiln_decompositions())
    compiled = torch.compile(module, backend=backend)
    loss_of(compiled(*inputs)).backward()
    breaks = {str(k): v for k, v in torch._dynamo.utils.counters["graph_break"].items()}
    return graphs, breaks


def main():
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="+")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--size", choices=["tiny", "quick", "gpu"])
    p.add_argument("--amp", action="store_true", help="the forward under autocast to bf16")
    p.add_argument("--top", type=int, default=12)
    p.add_argument("--out", help="append one JSON line per model here")
    p.add_argument("--dump", help="a directory: each model's forward and backward graphs' code goes under it")
    a = p.parse_args()
    size = a.size or ("gpu" if a.device == "cuda" else "quick")
    for name in a.models:
        w = workload(name)
        module = w.make_module(a.device, torch.float32, size, True).train()
        inputs = w.make_inputs(a.device, torch.float32, size)
        autocast = torch.autocast(a.device, dtype=torch.bfloat16, enabled=a.amp)

        def loss_of(out):
            return (out if isinstance(out, torch.Tensor) else out[0]).float().sum()

        def step(m=module):
            with autocast:
                return loss_of(m(*inputs))

        eager_total, eager_rows = eager_saved(step, [*module.parameters(), *module.buffers(), *inputs])
        module.zero_grad(set_to_none=True)
        with autocast:
            graphs, breaks = compiled_saved(copy.deepcopy(module), inputs, loss_of,
                                            a.dump and os.path.join(a.dump, name))
        compiled_total = sum(r[0] for g in graphs for r in g["saved"])
        by_op = collections.Counter()
        for g in graphs:
            for r in g["saved"]:
                by_op[f"{r[2]} {r[1]} {r[3]}"] += r[0]
        row = {"model": name, "device": a.device, "size": size, "amp": a.amp,
               "eager_saved_mib": round(eager_total, 1), "compiled_saved_mib": round(compiled_total, 1),
               "graphs": len(graphs), "graph_breaks": breaks,
               "eager_attention_ops": eager_attention_ops(step),
               "compiled_attention_ops": [g["attention_ops"] for g in graphs],
               "eager_largest": [[round(r[0], 2), r[1], r[2]] for r in eager_rows[:a.top]],
               "compiled_largest": [[round(r[0], 2), r[1], r[2], r[3]] for r in
                                    sorted((r for g in graphs for r in g["saved"]), key=lambda r: -r[0])[:a.top]],
               "compiled_by_shape": [[k, round(v, 1)] for k, v in by_op.most_common(a.top)]}
        print(f"{name}: saved MiB eager {eager_total:.1f}, compiled {compiled_total:.1f} in {len(graphs)} graphs; "
              f"graph breaks {sum(breaks.values())}")
        for key in ("eager_attention_ops", "compiled_attention_ops", "eager_largest", "compiled_by_shape"):
            print(f"  {key}: {json.dumps(row[key])}")
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps(row) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
