"""Which attention op AOTAutograd's graphs hold on CUDA, per decomposition table, for plain SDPA and for HF ViT
and BERT (the suite's full sizes): eager picks a fused kernel; a compiled graph holding the math form instead
materializes the attention matrices.

    PYTHONPATH=. python3 scripts/gpu_sdpa_probe.py [--why]

--why: compile the whole models with the math backend disabled, so that the SDPA call traced in the model
raises and torch says why each fused kernel was not chosen; and print the traced call's arguments.
"""
import sys
import warnings

import torch
import torch.nn.functional as F
from torch._decomp import core_aten_decompositions
from torch._functorch.aot_autograd import aot_module_simplified

from kiln.decompositions import kiln_decompositions
from kiln.tools.workloads import workload


def attention_ops(gm):
    return sorted({str(n.target).replace("aten.", "") for n in gm.graph.nodes if n.op == "call_function" and (
        "attention" in str(n.target) or "softmax" in str(n.target) or "bmm" in str(n.target))})


def probe(label, fn, inputs, table, train):
    seen = []

    def backend(gm, example_inputs):
        def compiler(g, _):
            seen.append(attention_ops(g))
            return g
        return aot_module_simplified(gm, example_inputs, fw_compiler=compiler, bw_compiler=compiler,
                                     decompositions=table)
    torch._dynamo.reset()
    out = torch.compile(fn, backend=backend)(*inputs)
    if train:
        (out if isinstance(out, torch.Tensor) else out[0]).float().sum().backward()
    print(f"{label}: {seen}", flush=True)


def main():
    print("flash", torch.backends.cuda.flash_sdp_enabled(), "mem_eff", torch.backends.cuda.mem_efficient_sdp_enabled(),
          "math", torch.backends.cuda.math_sdp_enabled())
    tables = {"none": {}, "core_aten": core_aten_decompositions(), "kiln": kiln_decompositions()}
    try:
        from torch._inductor.decomposition import select_decomp_table
        tables["inductor"] = select_decomp_table()
    except Exception as e:
        print("no inductor table:", e)
    q = torch.randn(32, 12, 197, 64, device="cuda", dtype=torch.bfloat16)
    print("eager choice", torch._fused_sdp_choice(q, q, q))
    for name, table in tables.items():
        probe(f"sdpa bf16 {name}", lambda x: F.scaled_dot_product_attention(x, x, x), [q], table, False)
    x = torch.randn(32, 197, 768, device="cuda", dtype=torch.bfloat16)
    lin = torch.nn.Linear(768, 768, device="cuda", dtype=torch.bfloat16)

    def heads(t):
        return t.view(32, 197, 12, 64).transpose(1, 2)
    with torch.no_grad():
        probe("view-transpose of an input", lambda x: F.scaled_dot_product_attention(heads(x), heads(x), heads(x)),
              [x], {}, False)
        probe("linear, view, transpose", lambda x: F.scaled_dot_product_attention(heads(lin(x)), heads(lin(x)),
                                                                                  heads(lin(x))), [x], {}, False)
        probe("x * 2, view, transpose", lambda x: F.scaled_dot_product_attention(heads(x * 2), heads(x * 2),
                                                                                 heads(x * 2)), [x], {}, False)
        w = workload("vit")
        vit = w.make_module("cuda", torch.bfloat16, "gpu", False).model
        layer = next(mod for mod in vit.modules() if type(mod).__name__ == "ViTLayer")
        attention = next(mod for mod in vit.modules() if type(mod).__name__.endswith("Attention"))
        probe("HF ViT layer 0", layer, [x], {}, False)
        probe(f"HF ViT layer 0 {type(attention).__name__}", attention, [x], {}, False)
    for model, dtype, train in (("vit", torch.bfloat16, False), ("bert", torch.float32, True)):
        w = workload(model)
        m = w.make_module("cuda", dtype, "gpu", train)
        x = w.make_inputs("cuda", dtype, "gpu")
        calls = []   # the model's first SDPA call in eager: its arguments, and the backend eager picks
        real = F.scaled_dot_product_attention

        def spy(*args, **kwargs):
            if not calls:
                calls.append((args, kwargs))
                print(model, "eager SDPA:", [(tuple(a.shape), a.stride(), a.dtype, a.requires_grad)
                                             if isinstance(a, torch.Tensor) else a for a in args],
                      {k: (tuple(v.shape), v.stride(), v.dtype) if isinstance(v, torch.Tensor) else v
                       for k, v in kwargs.items()},
                      "choice", torch._fused_sdp_choice(*args, **kwargs), flush=True)
            return real(*args, **kwargs)
        F.scaled_dot_product_attention = spy
        try:
            with torch.no_grad() if not train else torch.enable_grad():
                m(*x)
        finally:
            F.scaled_dot_product_attention = real
        args, kwargs = calls[0]
        args = [a.detach().requires_grad_(train) for a in args]
        probe(f"{model} its SDPA alone", lambda *a: F.scaled_dot_product_attention(*a, **kwargs), args, {}, train)
        probe(f"{model} its SDPA alone, contiguous", lambda *a: F.scaled_dot_product_attention(*a, **kwargs),
              [a.detach().contiguous().requires_grad_(train) for a in args], {}, train)
        for name in ("none", "kiln"):
            with torch.no_grad() if not train else torch.enable_grad():
                probe(f"{model} {name}", m, x, tables[name], train)


def why_math():
    for model, dtype, train in (("vit", torch.bfloat16, False), ("bert", torch.float32, True)):
        w = workload(model)
        m = w.make_module("cuda", dtype, "gpu", train)
        x = w.make_inputs("cuda", dtype, "gpu")

        def backend(gm, example_inputs):
            for n in gm.graph.nodes:
                if n.op == "call_function" and "scaled_dot_product" in str(n.target):
                    metas = [(tuple(v.shape), v.stride(), v.storage_offset(), v.dtype, v.device, v.requires_grad)
                             if isinstance(v, torch.Tensor) else v
                             for v in (a.meta.get("example_value") if hasattr(a, "meta") else a for a in n.args)]
                    print(model, "traced SDPA:", n.target, metas, dict(n.kwargs), flush=True)
                    break
            return aot_module_simplified(gm, example_inputs, fw_compiler=lambda g, _: g, bw_compiler=lambda g, _: g)
        torch._dynamo.reset()
        torch.backends.cuda.enable_math_sdp(False)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with torch.no_grad() if not train else torch.enable_grad():
                    out = torch.compile(m, backend=backend)(*x)
                if train:
                    out.float().sum().backward()
                print(model, "compiled with math disabled", flush=True)
            except Exception as e:
                print(model, "raised:", type(e).__name__, str(e)[:1500], flush=True)
        torch.backends.cuda.enable_math_sdp(True)
        for c in caught:
            if "not used because" in str(c.message) or "sdp" in str(c.message).lower():
                print(model, "warning:", str(c.message)[:600], flush=True)


if __name__ == "__main__":
    why_math() if "--why" in sys.argv else main()
