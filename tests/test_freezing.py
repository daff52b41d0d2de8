"""options={"freezing": True}: inference graphs hold parameters and buffers as constants (kiln.freezing)."""
import copy
import os
import re

import pytest
import torch

import kiln
import kiln.capture


def conv_model():
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.BatchNorm2d(8), torch.nn.ReLU(), torch.nn.Flatten(),
                            torch.nn.Linear(8 * 6 * 6, 5)).eval()
    with torch.no_grad():
        m[1].running_mean.uniform_(-1, 1)
        m[1].running_var.uniform_(0.5, 2)
    return m


@pytest.fixture
def built(monkeypatch):
    modules = []
    load = kiln.capture.load
    monkeypatch.setattr(kiln.capture, "load", lambda *a, **k: modules.append(load(*a, **k)) or modules[-1])
    return modules


def run(model, x, freezing, autocast=False):
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": freezing, "strict": True})
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        return compiled(x), compiled(x), model(x)


@pytest.mark.parametrize("autocast", [False, True], ids=["fp32", "autocast_bf16"])
def test_frozen_inference_matches_eager_and_computes_weights_once(built, autocast):
    model = conv_model()
    state = copy.deepcopy(model.state_dict())
    x = torch.randn(2, 3, 8, 8)
    before = kiln.stats()
    first, second, expected = run(model, x, freezing=True, autocast=autocast)
    tol = dict(atol=2e-2, rtol=2e-2) if autocast else {}
    torch.testing.assert_close(first, expected, **tol)
    torch.testing.assert_close(second, expected, **tol)
    assert kiln.stats()["graphs_frozen"] == before.get("graphs_frozen", 0) + 1
    assert kiln.stats()["frozen_ops_folded"] > before.get("frozen_ops_folded", 0)
    for name, value in model.state_dict().items():   # the user's module is left as it was
        assert torch.equal(value, state[name]), name
    assert all(isinstance(p, torch.nn.Parameter) for p in model.parameters())
    # the call reads the image alone: what depends on the weights alone (their bf16 casts, the conv weight's
    # channels-last copy, batch norm's scale) was computed at compile time
    body = built[-1].wrapper_source.split("args.clear()", 1)[1]
    assert len(set(re.findall(r"\barg\d+_1\b", body))) == 1, body
    assert "_kiln_frozen_" in body


class Counting(torch.nn.Module):
    """A buffer the forward writes: it stays an input, read and written as eager does."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.register_buffer("calls", torch.zeros(()))

    def forward(self, x):
        self.calls.add_(1)
        return self.lin(x) * self.calls


def test_a_buffer_the_graph_writes_is_not_frozen():
    model, reference = Counting().eval(), Counting().eval()
    reference.load_state_dict(model.state_dict())
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    x = torch.randn(3, 4)
    with torch.no_grad():
        for _ in range(3):
            torch.testing.assert_close(compiled(x), reference(x))
    assert model.calls.item() == reference.calls.item() == 3


def test_training_graphs_are_not_frozen():
    model, reference = conv_model().train(), conv_model().train()
    torch._dynamo.reset()
    before = kiln.stats().get("graphs_frozen", 0)
    x = torch.randn(2, 3, 8, 8)
    kiln.compile(model, options={"freezing": True, "strict": True})(x).sum().backward()
    reference(x).sum().backward()
    for p, q in zip(model.parameters(), reference.parameters()):
        torch.testing.assert_close(p.grad, q.grad)
    assert kiln.stats().get("graphs_frozen", 0) == before


def test_a_frozen_graph_is_not_stored_in_the_graph_cache(monkeypatch):
    """A frozen graph holds the model's weights: stored, each model would leave a copy of them in the cache."""
    from kiln.config import Options
    monkeypatch.setenv("KILN_GRAPH_CACHE", "1")   # (off for the rest of the suite: tests/conftest.py)
    folder = os.path.join(Options.make().kernel_cache_dir, "graphs")

    def stored():
        return sum(len(files) for _, _, files in os.walk(folder))
    model = conv_model()
    x = torch.randn(2, 3, 8, 8)
    before = stored()
    first, _, expected = run(model, x, freezing=True)
    torch.testing.assert_close(first, expected)
    assert stored() == before
    run(model, x, freezing=False)
    assert stored() > before   # (the same graph unfrozen is stored)
