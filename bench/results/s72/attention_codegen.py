"""The Triton kernels and wrapper kiln generates for SDPA's memory-efficient attention in float32 on CUDA, now
batched products (kiln.decompositions.ATTENTION_AS_PRODUCTS): traced by AOTAutograd on fake CPU tensors with the
decomposition opened to them, moved to fake CUDA tensors, generated without a GPU. Runs on the tree with `git apply bench/results/s72/attention_as_products.patch`
(the change, tried and reverted: bench/NOTES.md 95). Usage (session 72):
    PYTHONPATH=. python3 bench/results/s72/attention_codegen.py [B H L S E] > OUT"""
import os
import sys

os.environ.setdefault("KILN_BUILD_WORKERS", "0")
import torch
from torch._functorch.aot_autograd import aot_function, make_boxed_func
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.passes.fake_tensor_prop import FakeTensorProp

from kiln import capture, decompositions
from kiln.config import Options
from kiln.tools.trace import GraphTrace

B, H, L, S, E = map(int, sys.argv[1:6]) if len(sys.argv) > 5 else (8, 8, 512, 512, 64)
decompositions.ATTENTION_AS_PRODUCTS.add(("cpu", torch.float32))
captured = {}


def keep(kind):
    def compiler(gm, example):
        captured[kind] = (gm, list(example))
        return make_boxed_func(gm)
    return compiler


with FakeTensorMode():
    q = torch.empty(B, L, H, E).transpose(1, 2).requires_grad_()
    k, v = (torch.empty(B, S, H, E).transpose(1, 2).requires_grad_() for _ in range(2))
    bias = torch.empty(1, H, L, S, requires_grad=True)
    f = aot_function(lambda q, k, v, b: torch.ops.aten._scaled_dot_product_efficient_attention(
        q, k, v, b, True, 0.0, False)[0], fw_compiler=keep("forward"), bw_compiler=keep("backward"),
        partition_fn=capture.partition, decompositions=decompositions.kiln_decompositions())
    f(q, k, v, bias).sum().backward()
cuda_mode = FakeTensorMode()
saved = [n for n in captured["backward"][0].graph.nodes if n.op == "placeholder" and not n.name.startswith("tangents")]
saved_from = len(captured["forward"][0].graph.output_node().args[0]) - len(saved)
opts = Options.make(options={"target": "triton", "trace": None})
for kind, (gm, ex) in captured.items():
    for n in gm.graph.nodes:
        if isinstance(n.kwargs.get("device"), torch.device) and n.kwargs["device"].type == "cpu":
            n.update_kwarg("device", torch.device("cuda", 0))
    gm.recompile()
    with cuda_mode:
        ex = [torch.empty_strided(t.shape, t.stride(), device="cuda", dtype=t.dtype) if isinstance(t, torch.Tensor)
              else t for t in ex]
    FakeTensorProp(gm, cuda_mode).propagate_dont_convert_inputs(*ex)
    with cuda_mode:
        artifact, _ = capture.generate(gm, ex, opts, f"g_{kind}", GraphTrace(None, "g"),
                                       saved_from if kind == "forward" else None, None, kind == "forward", {}, {})
    print(f"##### {kind}: {artifact.kernel_count} kernels\n{artifact.kernel_source}\n#####\n{artifact.wrapper_source}")
