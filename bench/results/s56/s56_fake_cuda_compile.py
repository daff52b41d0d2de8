"""kiln's lowering, scheduling and Triton codegen of a suite model's training graphs (forward and backward), traced
by AOTAutograd on fake CUDA tensors at the GPU size: the Python time of kiln's own compile stages, without a GPU.
The graphs are traced on fake CPU tensors (autograd needs a device guard the CPU build lacks for CUDA), then moved
to fake CUDA tensors and their values propagated again. Usage (session 56, issue 23):
    [TARGET=cpp: C++, the graphs kept on the CPU (session 86)]
    PYTHONPATH=. python3 bench/results/s56/s56_fake_cuda_compile.py MODEL [--inference] [--profile OUT.prof]
        [--no-freeze: without kiln.capture.old_objects_frozen] [--dump TAG: kernels and wrapper to /tmp/prof/]
        [--spy: a pause before generating, for py-spy to attach]"""
import cProfile
import os
import sys
import time

os.environ.setdefault("KILN_BUILD_WORKERS", "0")
import torch
from torch._functorch.aot_autograd import aot_function, make_boxed_func
from torch._subclasses.fake_tensor import FakeTensorMode

from kiln import capture
from kiln.config import Options
from kiln.decompositions import kiln_decompositions
from kiln.tools.trace import GraphTrace
from kiln.tools.workloads import workload

name = sys.argv[1]
train = "--inference" not in sys.argv
prof_out = sys.argv[sys.argv.index("--profile") + 1] if "--profile" in sys.argv else None
w = workload(name)
dtype = torch.float32 if train else torch.bfloat16
module = w.make_module("cpu", torch.float32, "gpu", train)
inputs = w.make_inputs("cpu", torch.float32, "gpu")
captured = []


def keep(kind):
    def compiler(gm, example):
        captured.append((kind, gm, list(example)))
        return make_boxed_func(gm)
    return compiler


mode = FakeTensorMode(allow_non_fake_inputs=False)
with mode:
    def fake(t, grad):
        f = torch.empty_strided(t.shape, t.stride(), device="cpu", dtype=dtype if t.is_floating_point() else t.dtype)
        return f.requires_grad_(grad)
    params = {k: fake(p, train and p.requires_grad) for k, p in module.named_parameters()}
    buffers = {k: fake(b, False) for k, b in module.named_buffers()}
    xs = [fake(x, False) for x in inputs]
    names = list(params) + list(buffers)

    def fn(*args):
        state = dict(zip(names, args[:len(names)]))
        out = torch.func.functional_call(module, state, tuple(args[len(names):]))
        return out
    compiled = aot_function(fn, fw_compiler=keep("forward"), bw_compiler=keep("backward"),
                            inference_compiler=keep("inference"), partition_fn=capture.partition,
                            decompositions=kiln_decompositions(inference=not train), keep_inference_input_mutations=True)
    if train:
        out = compiled(*params.values(), *buffers.values(), *xs)
        (out if out.dim() == 0 else out.sum()).backward()
    else:
        with torch.no_grad():
            compiled(*params.values(), *buffers.values(), *xs)

opts = Options.make(options={"target": os.environ.get("TARGET", "triton"), "trace": None})
graphs = {kind: (gm, ex) for kind, gm, ex in captured}
saved_from = None
if "backward" in graphs:
    bw = graphs["backward"][0]
    saved = [n for n in bw.graph.nodes if n.op == "placeholder" and not n.name.startswith("tangents")]
    saved_from = len(graphs["forward"][0].graph.output_node().args[0]) - len(saved)
profiler = cProfile.Profile() if prof_out else None
total = {}
from torch.fx.passes.fake_tensor_prop import FakeTensorProp
trace_mode = mode
cuda_mode = FakeTensorMode(allow_non_fake_inputs=False)


def on_cuda(gm, ex):
    """The graph traced on the CPU, moved to CUDA: factory calls' devices, then every value's metadata again."""
    for n in gm.graph.nodes:
        if isinstance(n.kwargs.get("device"), torch.device) and n.kwargs["device"].type == "cpu":
            n.update_kwarg("device", torch.device("cuda", 0))
    gm.recompile()
    with cuda_mode:
        ex = [torch.empty_strided(t.shape, t.stride(), device="cuda", dtype=t.dtype) if isinstance(t, torch.Tensor)
              else t for t in ex]
    FakeTensorProp(gm, cuda_mode).propagate_dont_convert_inputs(*ex)
    return gm, ex


mode = cuda_mode
moved = {kind: on_cuda(gm, ex) for kind, (gm, ex) in graphs.items()} if os.environ.get("TARGET") != "cpp" else graphs
if os.environ.get("TARGET") == "cpp":
    mode = trace_mode
if "--spy" in sys.argv:
    print("GENERATE START", flush=True)
    time.sleep(1)
for kind, (gm, ex) in moved.items():
    times = {}
    import gc
    if "--nogc" in sys.argv:
        gc.disable()
    if "--freeze" in sys.argv:
        gc.freeze()
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    import contextlib
    with mode, (contextlib.nullcontext() if "--no-freeze" in sys.argv else capture.old_objects_frozen()):
        artifact, _ = capture.generate(gm, ex, opts, f"g_{kind}", GraphTrace(None, "g"),
                                       saved_from if kind == "forward" else None, None, kind == "forward", times,
                                       {"stage": None, "lowering": None})
    if profiler:
        profiler.disable()
    if "--dump" in sys.argv:
        open(f"/tmp/prof/dump_{kind}_{sys.argv[sys.argv.index('--dump') + 1]}.txt", "w").write(artifact.kernel_source + "\n#####\n" + artifact.wrapper_source)
    print(kind, f"{time.perf_counter() - started:.2f} s", {k: round(v, 2) for k, v in times.items()},
          "kernels", artifact.kernel_count, __import__("hashlib").md5((artifact.kernel_source + artifact.wrapper_source).encode()).hexdigest()[:10], flush=True)
    for k, v in times.items():
        total[k] = total.get(k, 0) + v
print("total", {k: round(v, 2) for k, v in total.items()}, round(sum(total.values()), 2))
if profiler:
    profiler.dump_stats(prof_out)
