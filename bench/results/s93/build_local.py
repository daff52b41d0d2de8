"""Where a suite model's kiln time goes on the GPU, measured without one: its bf16 inference graph on fake CUDA
tensors (bench/results/s42/s42_ptx_widths.py's way), kiln's stages under cProfile, then each Triton kernel built for
sm_90 on this machine one after another (tests/test_gpu_codegen.built_for_hopper), timed.

    PYTHONPATH=.:/tmp/timmlib python3 bench/results/s93/build_local.py MODEL [TOP]
Prints the stages' seconds, the profile's top functions (own time; kiln's by cumulative time), and the TOP
slowest kernel builds (TOP 0: no builds). Session 93's run: build_local_timm_efficientnet.txt."""
import cProfile, pathlib, pstats, sys, tempfile, time
import torch
sys.path.insert(0, "bench/results/s42")
sys.path.insert(0, "tests")
import s42_ptx_widths as s42
from kiln import capture
from kiln.config import Options
from kiln.tools.trace import GraphTrace
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx
from kiln.decompositions import kiln_decompositions


def graph(spec):
    torch.nn.functional.batch_norm = s42.eval_batch_norm
    m, xs = s42.model_and_inputs(spec)
    names = [n for n, _ in m.named_parameters()] + [n for n, _ in m.named_buffers()]
    mode = FakeTensorMode()
    with mode, torch.no_grad():
        cuda = lambda t: torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="cuda")
        args = [cuda(t) for t in [*m.parameters(), *m.buffers(), *xs]]

        def f(*a):
            out = torch.func.functional_call(m, dict(zip(names, a[:len(names)])), tuple(a[len(names):]))
            return out if isinstance(out, tuple) else (out,)
        gm = make_fx(torch.func.functionalize(f, remove="mutations_and_views"),
                     decomposition_table=kiln_decompositions(inference=True))(*args)
    return gm, args, mode


def main():
    spec, top = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 15
    gm, args, mode = graph(spec)
    opts = Options.make(options={"target": "triton", "trace": None})
    times, prof = {}, cProfile.Profile()
    with mode:
        prof.enable()
        artifact, _ = capture.generate(gm, args, opts, "g_inference", GraphTrace(None, "g"), None, None, False,
                                       times, {})
        prof.disable()
    print(spec, "nodes", len(gm.graph.nodes), "kernels", len(artifact.kernels),
          {k: round(v, 3) for k, v in times.items()})
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    pstats.Stats(prof).sort_stats("cumulative").print_stats("kiln", 45)
    if top == 0:
        return
    from test_gpu_codegen import built_for_hopper
    import triton
    compile_ = triton.compile
    took = {}

    def timed(src, **kw):
        t = time.perf_counter()
        out = compile_(src, **kw)
        took[src.fn.__name__] = time.perf_counter() - t
        return out
    triton.compile = timed
    t = time.perf_counter()
    built_for_hopper(artifact, pathlib.Path(tempfile.mkdtemp()))
    total = time.perf_counter() - t
    print(f"built {len(took)} kernels for sm_90 one after another: {total:.1f} s")
    for name, s in sorted(took.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{s:6.2f} s  {len(artifact.kernels[name][0].splitlines()):5d} lines  {name}")


if __name__ == "__main__":
    main()
