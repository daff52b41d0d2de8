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
