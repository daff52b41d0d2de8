"""The width of every global load and store in the PTX of a graph's Triton kernels, built for an H100/H200 (sm_90)
on this machine, without a GPU: PYTHONPATH=. python3 bench/results/s42/s42_ptx_widths.py MODEL|dw:C,H,STRIDE,K [-v]
MODEL: a suite model's bf16 inference graph on fake CUDA tensors (bench/results/s41/s41_codegen_time.py's way);
dw:...: a 1x1 conv, batch norm, ReLU, a depthwise KxK convolution over C channels at HxH, batch norm, ReLU, 1x1 conv.
Prints the graph's global loads and stores counted by (kind, width in bits); -v, per kernel too. An inference batch
norm is traced whole, as AOTAutograd has it (eval_batch_norm)."""
import collections, pathlib, sys, tempfile
import torch
import torch.nn as nn
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx
from kiln import capture
from kiln.config import Options
from kiln.decompositions import kiln_decompositions
from kiln.tools.trace import GraphTrace
from kiln.tools import workloads as W


def model_and_inputs(spec):
    if spec.startswith("dw:"):
        C, H, S, K = map(int, spec[3:].split(","))
        m = nn.Sequential(nn.Conv2d(24, C, 1, bias=False), nn.BatchNorm2d(C), nn.ReLU(),
                          nn.Conv2d(C, C, K, S, K // 2, groups=C, bias=False), nn.BatchNorm2d(C), nn.ReLU(),
                          nn.Conv2d(C, 40, 1, bias=False), nn.BatchNorm2d(40))
        return m.eval().to(torch.bfloat16), [torch.randn(32, 24, H, H).to(torch.bfloat16, memory_format=torch.channels_last)]
    w = W.workload(spec)
    return (w.make_module("cpu", torch.bfloat16, "gpu", train=False).eval(),
            list(w.make_inputs("cpu", torch.bfloat16, "gpu")))


def eval_batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """As AOTAutograd's trace has an inference batch norm (make_fx on fake CUDA tensors would reach cuDNN's op)."""
    assert not training
    return torch.ops.aten._native_batch_norm_legit_no_training(x, weight, bias, running_mean, running_var, momentum,
                                                                eps)[0]


def artifact(spec):
    torch.nn.functional.batch_norm = eval_batch_norm
    m, xs = model_and_inputs(spec)
    names = [n for n, _ in m.named_parameters()] + [n for n, _ in m.named_buffers()]
    with FakeTensorMode(), torch.no_grad():
        cuda = lambda t: torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="cuda")
        fake = [cuda(t) for t in [*m.parameters(), *m.buffers()]]
        fxs = [cuda(x) for x in xs]

        def f(*args):
            out = torch.func.functional_call(m, dict(zip(names, args[:len(names)])), tuple(args[len(names):]))
            return out if isinstance(out, tuple) else (out,)
        gm = make_fx(f, decomposition_table=kiln_decompositions(inference=True))(*fake, *fxs)
        opts = Options.make(options={"target": "triton", "trace": None})
        a, _ = capture.generate(gm, [*fake, *fxs], opts, "g_inference", GraphTrace(None, "g"), None, None, False,
                                {}, {})
    return a


def widths(a, verbose):
    """tests/test_gpu_codegen.ptx_accesses over every kernel, summed (printed per kernel where verbose)."""
    sys.path.insert(0, "tests")
    from test_gpu_codegen import ptx_accesses
    total = collections.Counter()
    for name, found in ptx_accesses(a, pathlib.Path(tempfile.mkdtemp())).items():
        total.update(found)
        if verbose:
            print(f"{name:60s} warps {a.kernels[name][1]} {dict(sorted(found.items()))}")
    return total


if __name__ == "__main__":
    t = widths(artifact(sys.argv[1]), "-v" in sys.argv)
    print(sys.argv[1], "accesses by (kind, bits):", dict(sorted(t.items())))
    if len(sys.argv) > 2 and sys.argv[2].startswith("kernel_"):
        a = artifact(sys.argv[1])
        print(a.kernels[sys.argv[2]][0])
        print([l for l in a.wrapper_source.splitlines() if sys.argv[2] in l])
