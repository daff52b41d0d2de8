"""Which fused attention kernel torch picks for each scaled_dot_product_attention of a model's Dynamo graphs, and
why not the fused ones: the checks of torch.backends.cuda.can_use_{flash,efficient}_attention run on the traced
(fake) operands, with debug warnings on. Compare with eager's choice (the profiler's op names).

    PYTHONPATH=. python3 scripts/gpu_sdpa_choice.py bart [--train]
"""
import argparse
import warnings

import torch
import torch.nn.functional as F
from torch.backends.cuda import SDPAParams, can_use_efficient_attention, can_use_flash_attention

from kiln.tools.workloads import workload


def arg(node, i, name, default=None):
    return node.args[i] if len(node.args) > i else node.kwargs.get(name, default)


def value(a):
    return a.meta.get("example_value") if isinstance(a, torch.fx.Node) else a


def report(gm, example_inputs):
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target is F.scaled_dot_product_attention:
            q, k, v = (value(arg(node, i, n)) for i, n in enumerate(("query", "key", "value")))
            mask = value(arg(node, 3, "attn_mask"))
            params = SDPAParams(q, k, v, mask, float(arg(node, 4, "dropout_p", 0.0)),
                                bool(arg(node, 5, "is_causal", False)), bool(node.kwargs.get("enable_gqa", False)))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                flash, efficient = can_use_flash_attention(params, True), can_use_efficient_attention(params, True)
            shapes = [(list(t.shape), t.stride(), str(t.dtype), t.requires_grad) if isinstance(t, torch.Tensor) else t
                      for t in (q, k, v, mask)]
            print(f"{node.name}: flash {flash}, efficient {efficient}; q, k, v, mask: {shapes}")
            for w in caught:
                print("   ", str(w.message).splitlines()[0][:300])
    return gm.forward


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--train", action="store_true")
    a = p.parse_args()
    w = workload(a.model)
    dtype = torch.float32 if a.train else torch.bfloat16
    module = w.make_module("cuda", dtype, "gpu", a.train).train(a.train)
    inputs = w.make_inputs("cuda", dtype, "gpu")
    with torch.set_grad_enabled(a.train):
        torch.compile(module, backend=report)(*inputs)


if __name__ == "__main__":
    main()
