"""The trace of a real compile: sin²+cos², forward and backward through mse_loss."""
import json
import os

import torch
import torch.nn.functional as F

import kiln


def read(folder, name):
    with open(os.path.join(folder, name)) as f:
        return f.read()


def test_trace_of_sin2_cos2_forward_and_backward(tmp_path):
    x = torch.randn(32, 48, requires_grad=True)
    fn = kiln.compile(lambda x, y: F.mse_loss(torch.sin(x) ** 2 + torch.cos(x) ** 2, y),
                      options={"trace": str(tmp_path), "strict": True})
    fn(x, torch.randn(32, 48)).backward()
    graphs = sorted(os.listdir(tmp_path))
    forward = os.path.join(tmp_path, next(g for g in graphs if g.endswith("_forward")))
    backward = os.path.join(tmp_path, next(g for g in graphs if g.endswith("_backward")))

    assert "torch.sin" in read(forward, "dynamo_graph.py")
    assert "aten.sin" in read(forward, "aot_forward.py") and "aten.mse_loss" in read(forward, "aot_forward.py")
    assert "tangents" in read(backward, "aot_backward.py")
    kernels = [f for f in os.listdir(forward) if f.startswith("kernel") and f.endswith((".cpp", ".py"))]
    fused = [k for k in kernels if "sin" in k and "cos" in k]   # sin, cos, pow and add in one kernel
    assert fused and "sin" in read(forward, fused[0]) and "cos" in read(forward, fused[0])
    for folder in (forward, backward):
        decisions = json.loads(read(folder, "fusion.json"))
        assert decisions and all(d["reason"] for d in decisions)
        assert "<svg" in read(folder, "graph_before.svg") and "<svg" in read(folder, "graph_after.svg")
        assert "def call(args)" in read(folder, "wrapper.py")
    assert os.path.exists(os.path.join(tmp_path, "index.html"))


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the README's main route: torch.compile(backend="kiln"), kiln never imported by the user; a graph break in the
# first frame (before kiln's first graph), then a recompile
GRAPH_BREAK_SCRIPT = """
import torch
def f(x):
    y = torch.sin(x)
    print("a print is a graph break")
    return torch.cos(y)
compiled = torch.compile(f, backend="kiln", dynamic=False)
compiled(torch.randn(3))
compiled(torch.randn(5))
"""


def run_script(code, cwd, **env):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": REPO, **env})
    assert done.returncode == 0, done.stderr
    return done


def test_kiln_trace_records_graph_breaks_of_torch_compile(tmp_path):
    run_script(GRAPH_BREAK_SCRIPT, tmp_path, KILN_TRACE=str(tmp_path / "trace"))
    events = read(tmp_path / "trace", "dynamo_events.txt")
    assert "=== graph break [0/0] ===\nGraph break in user code" in events, events
    assert "=== recompile [0/1] f (" in events, events
    assert "graph breaks: 1, recompiles: 2" in read(tmp_path / "trace", "index.html")


def test_torch_compile_debug_writes_kilns_trace_under_torchs_debug_dir(tmp_path):
    run_script(GRAPH_BREAK_SCRIPT, tmp_path, TORCH_COMPILE_DEBUG="1")
    [trace] = [os.path.join(run, "kiln") for run in (tmp_path / "torch_compile_debug").glob("run_*")
               if os.path.isdir(os.path.join(run, "kiln"))]
    graphs = [g for g in os.listdir(trace) if os.path.isdir(os.path.join(trace, g))]
    assert len(graphs) >= 2 and all(os.path.exists(os.path.join(trace, g, "wrapper.py")) for g in graphs), graphs
    assert "graph breaks: 1" in read(trace, "index.html")


def test_trace_profile_times_every_kernel_and_extern(tmp_path):
    """options={"trace_profile": True}: every kernel and extern (library call or eager fallback) of the graph gets
    its time, the bytes it must move and its share of the copy ceiling; matmuls their FLOPs and share of the
    matmul ceiling. The graph's results are unchanged."""
    linear = torch.nn.Linear(64, 32)

    def fn(x):
        y = torch.nn.functional.gelu(linear(x))
        return y.sum(dim=1), torch.histc(x, bins=4)   # histc has no lowering: an eager fallback

    x = torch.randn(16, 64)
    compiled = kiln.compile(fn, options={"trace": str(tmp_path), "trace_profile": True, "strict": True})
    with torch.no_grad():
        got, expected = compiled(x), fn(x)
    torch.testing.assert_close(got, expected)
    [graph] = [g for g in os.listdir(tmp_path) if os.path.isdir(tmp_path / g)]
    rows = json.loads(read(tmp_path / graph, "kernels.json"))
    kinds = {(r["kind"], r["fallback"]) for r in rows}
    assert kinds == {("kernel", False), ("extern", False), ("extern", True)}, rows
    for row in rows:
        assert row["time_us"] > 0 and row["bytes"] > 0 and row["pct_copy"] > 0, row
    [addmm] = [r for r in rows if r["kind"] == "extern" and not r["fallback"]]
    assert addmm["target"] == "aten.addmm.default" and addmm["flops"] == 2 * 16 * 64 * 32 and addmm["pct_matmul"] > 0
    assert addmm["bytes"] == 4 * (32 + 16 * 64 + 64 * 32 + 16 * 32)   # bias, x, weight in; the product out
    assert "_profile('" in read(tmp_path / graph, "wrapper.py")
    page = read(tmp_path / graph, "index.html").split("<section id='cost'>")[1]
    assert page.count("<rect") == 2 * len(rows) and "aten.histc.default (eager fallback)" in page



def test_trace_does_not_run_the_graphs_in_place_ops(tmp_path):
    """The trace's undecomposed ATen graph is traced on meta copies of the tensors the graph holds: tracing the
    graph itself ran its in-place ops on them (an optimizer step's state tensors, held by the graph: each
    compiled step stepped them twice)."""
    torch._dynamo.reset()
    params = [torch.nn.Parameter(torch.ones(4))]
    params[0].grad = torch.ones(4)
    optimizer = torch.optim.SGD(params, lr=0.5, momentum=0.9)
    step = kiln.compile(optimizer.step, options={"trace": str(tmp_path), "strict": True})
    step()
    step()
    # eager: buf = 1, p = 0.5; then buf = 0.9 + 1 = 1.9, p = 0.5 - 0.95
    assert torch.allclose(optimizer.state[params[0]]["momentum_buffer"], torch.full((4,), 1.9))
    assert torch.allclose(params[0].detach(), torch.full((4,), -0.45))
    traced = "".join(p.read_text() for p in tmp_path.glob("g*/aot_forward.py"))
    assert "ATen forward graph before decompositions" in traced


def test_trace_of_a_graph_with_symbolic_broadcast_checks(tmp_path):
    """The trace's IR dump runs the buffers' loaders, which ask the graph being compiled for its traced sizes (a
    symbolic size found to be 1 is a broadcast). It ran after the graph's lowering had ended, found no graph and
    raised: with the trace on, such graphs under dynamic=True ran eagerly (HF LeViT, Swinv2)."""
    fn = kiln.compile(lambda x: x[::2] + x[1::2], dynamic=True, options={"trace": str(tmp_path), "strict": True})
    for n in (8, 12):
        x = torch.randn(n, 3)
        torch.testing.assert_close(fn(x), x[::2] + x[1::2])
    graph = next(g for g in sorted(os.listdir(tmp_path)) if g.endswith("_inference"))
    assert "load(" in read(os.path.join(tmp_path, graph), "ir.txt")
