# session 40: an eval batch norm lowered whole (inference graphs) against its decomposition, on CUDA: bit for bit,
# over dtypes, layouts and affine or not; and AOTAutograd's trace of HF ResNet-18's inference graph with kiln's
# inference table against the table that decomposes it.   s40_bn_cuda.py OUT.json
import itertools, json, sys, time
import torch
import torch.nn.functional as F
import kiln, kiln.capture, kiln.decompositions
from torch._functorch.aot_autograd import aot_module_simplified, make_boxed_func
from kiln.tools.workloads import workload

rows = []
for dtype, layout, affine, dim in itertools.product([torch.float32, torch.bfloat16, torch.float16],
                                                     ["contiguous", "channels_last", "strided"], [True, False], [2, 4]):
    if layout == "channels_last" and dim != 4:
        continue
    torch.manual_seed(0)
    shape = (4, 6) if dim == 2 else (2, 6, 5, 7)
    x = torch.randn(*shape[:-1], shape[-1] * (2 if layout == "strided" else 1), device="cuda", dtype=dtype) * 3
    x = x[..., ::2] if layout == "strided" else x.contiguous(
        memory_format=torch.channels_last if layout == "channels_last" else torch.contiguous_format)
    m, v = torch.randn(6, device="cuda", dtype=dtype), torch.rand(6, device="cuda", dtype=dtype) + 0.5
    w, b = (torch.randn(6, device="cuda", dtype=dtype), torch.randn(6, device="cuda", dtype=dtype)) if affine else (None, None)
    fn = lambda x, m, v, w, b: F.relu(F.batch_norm(x, m, v, w, b, training=False, eps=1e-3)) * 2   # noqa: E731
    outs = []
    for whole in (True, False):
        kiln.decompositions.LOWERED_WHOLE_IN_INFERENCE = [torch.ops.aten._native_batch_norm_legit_no_training.default] if whole else []
        torch._dynamo.reset()
        with torch.no_grad():
            outs.append(kiln.compile(fn, options={"strict": True})(x, m, v, w, b))
    ref = fn(*[t.double() if t is not None else None for t in (x, m, v, w, b)])
    eager = fn(x, m, v, w, b)
    rows.append({"dtype": str(dtype), "layout": layout, "affine": affine, "dim": dim,
                 "bitwise_equal_to_decomposed": bool(torch.equal(outs[0], outs[1]) and outs[0].stride() == outs[1].stride()),
                 "err_whole": (outs[0].double() - ref).abs().max().item(), "err_eager": (eager.double() - ref).abs().max().item()})
kiln.decompositions.LOWERED_WHOLE_IN_INFERENCE = [torch.ops.aten._native_batch_norm_legit_no_training.default]

# AOTAutograd's trace of HF ResNet-18 (gpu size, bf16) with each table, identity compilers
w = workload("resnet")
model, inputs = w.make_module("cuda", torch.bfloat16, "gpu"), w.make_inputs("cuda", torch.bfloat16, "gpu")
trace = {}
for rnd in range(3):
    for name, table in (("none", {}), ("kiln_inference", kiln.decompositions.kiln_decompositions(inference=True)),
                        ("kiln_decomposing", kiln.decompositions.kiln_decompositions())):
        def backend(gm, ex):
            t = time.perf_counter()
            r = aot_module_simplified(gm, ex, fw_compiler=lambda g, i: make_boxed_func(g),
                                      inference_compiler=lambda g, i: make_boxed_func(g), decompositions=table,
                                      partition_fn=kiln.capture.partition, keep_inference_input_mutations=True)
            trace.setdefault(name, []).append(round(time.perf_counter() - t, 4))
            return r
        torch._dynamo.reset()
        with torch.no_grad():
            torch.compile(model, backend=backend)(*inputs)
out = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "bn_rows": rows,
       "all_bitwise": all(r["bitwise_equal_to_decomposed"] for r in rows), "resnet_aot_trace_s": trace}
json.dump(out, open(sys.argv[1], "w"), indent=1)
print(json.dumps({k: v for k, v in out.items() if k != "bn_rows"}))
for r in rows:
    print(r)
