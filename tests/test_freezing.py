"""options={"freezing": True}: inference graphs hold parameters and buffers as constants (kiln.freezing)."""
import copy
from functools import partial
import gc
import logging
import os
import re

import pytest
import torch
import torch.nn.functional as F
from torch.multiprocessing.reductions import StorageWeakRef

import kiln
import kiln.capture


def conv_model(batch_norm=True):
    torch.manual_seed(0)
    norm = torch.nn.BatchNorm2d(8) if batch_norm else torch.nn.Identity()
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), norm, torch.nn.ReLU(), torch.nn.Flatten(),
                            torch.nn.Linear(8 * 6 * 6, 5)).eval()
    if batch_norm:
        with torch.no_grad():
            m[1].running_mean.uniform_(-1, 1)
            m[1].running_var.uniform_(0.5, 2)
    return m


def other_weights(model):
    """model with every floating-point parameter and buffer changed, whose state_dict a frozen one loads"""
    with torch.no_grad():
        for t in model.state_dict().values():
            if t.is_floating_point():
                t.mul_(1.5).add_(0.25)
    return model


def run(model, x, freezing, autocast=False):
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": freezing, "strict": True})
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        return compiled(x), compiled(x), model(x)


@pytest.mark.parametrize("batch_norm", [False, True], ids=["conv", "conv_bn"])
@pytest.mark.parametrize("autocast", [False, True], ids=["fp32", "autocast_bf16"])
def test_frozen_inference_matches_eager_and_computes_weights_once(built, autocast, batch_norm):
    model = conv_model(batch_norm)
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
    # the call reads the image and no parameter or buffer: what depends on them alone (their bf16 casts, the conv
    # weight's channels-last copy, the batch norm folded into the convolution) was computed at compile time
    body = built[-1].wrapper_source.split("args.clear()", 1)[1]
    assert len(set(re.findall(r"\barg\d+_1\b", body))) == 1, body
    assert "_kiln_frozen_" in body and "batch_norm" not in body, body


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


class Scaled(torch.nn.Module):
    def __init__(self, value):
        super().__init__()
        self.w = torch.nn.Parameter(torch.full((4, 4), value))

    def forward(self, x):
        return x @ self.w, self.w * 2   # the second output is a constant once frozen


def test_a_frozen_output_is_a_fresh_tensor_at_each_call():
    torch._dynamo.reset()
    compiled = kiln.compile(Scaled(1.0).eval(), options={"freezing": True, "strict": True})
    x = torch.ones(1, 4)
    with torch.no_grad():
        first = compiled(x)[1]
        first.add_(100)   # the caller's tensor: the next call must not see it
        second = compiled(x)[1]
    assert second is not first
    torch.testing.assert_close(second, torch.full((4, 4), 2.0))


def test_other_parameters_are_not_run_with_the_frozen_weights():
    """A frozen graph given another module of the same class, or a parameter replaced, computes with their weights,
    not with those it was compiled with."""
    torch._dynamo.reset()
    # (one compiled function taking the module: one frame for both modules)
    run = kiln.compile(lambda m, x: m(x)[0], options={"freezing": True, "strict": True})
    one, two = Scaled(1.0).eval(), Scaled(2.0).eval()
    x = torch.ones(1, 4)
    with torch.no_grad():
        torch.testing.assert_close(run(one, x), one(x)[0])
        torch.testing.assert_close(run(two, x), two(x)[0])
        one.w = torch.nn.Parameter(torch.full((4, 4), 3.0))
        torch.testing.assert_close(run(one, x), one(x)[0])


class Counted(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(4))   # (not one element: those are never frozen)

    def forward(self, x):
        self.count.add_(1)
        torch._dynamo.graph_break()
        return x * (self.count * 2)   # read by a graph that does not write it, which computes from it


def test_a_buffer_written_by_another_graph_is_not_frozen():
    torch._dynamo.reset()
    model, reference = Counted().eval(), Counted().eval()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    x = torch.ones(4)
    with torch.no_grad():
        for _ in range(3):
            torch.testing.assert_close(compiled(x), reference(x))


@pytest.mark.parametrize("counter", [True, False], ids=["num_batches_tracked", "no_counter"])
def test_running_statistics_updated_by_eager_training_are_read(counter):
    """Eager's batch norm writes its running statistics in training without moving their version counter: frozen
    alone, a compiled eval graph kept computing with the statistics it was compiled with (folded into the
    convolution's weights). They are watched with their module's num_batches_tracked, which eager's training moves;
    without that counter (nothing else moves), they stay inputs, read per call."""
    model = conv_model()
    if not counter:
        model[1].num_batches_tracked = None
    x = torch.randn(2, 3, 8, 8)
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad():
        compiled(x)
        model.train()
        model(x * 3 + 1)   # eager training step: the running statistics move
        model.eval()
        torch.testing.assert_close(compiled(x), model(x))


@pytest.mark.parametrize("autocast", [False, True], ids=["fp32", "autocast_bf16"])
def test_weights_loaded_after_compiling_are_used(monkeypatch, autocast):
    """load_state_dict writes the module's tensors in place: what was computed from them (batch norm's scale,
    the bf16 casts) is computed again at the next call, and only then."""
    from kiln import freezing
    refreshes = []
    refresh = freezing.Constants.refresh
    monkeypatch.setattr(freezing.Constants, "refresh", lambda self: refreshes.append(1) or refresh(self))
    model, other = conv_model(), other_weights(conv_model())
    x = torch.randn(2, 3, 8, 8)
    tol = dict(atol=2e-2, rtol=2e-2) if autocast else {}
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        torch.testing.assert_close(compiled(x), model(x), **tol)
        compiled(x)
        assert refreshes == []
        model.load_state_dict(other.state_dict())
        torch.testing.assert_close(compiled(x), other(x), **tol)
        torch.testing.assert_close(compiled(x), other(x), **tol)
    assert refreshes == [1]


def test_two_threads_calling_after_a_write_refresh_once_and_both_read_the_new_weights(monkeypatch):
    """Threads that call a frozen graph after its weights were written share one refresh: the second waits for the
    first's, rather than computing the constants again over memory the first thread's call reads."""
    import threading
    import time
    from kiln import freezing
    refreshes = []
    refresh = freezing.Constants.refresh

    def slow_refresh(self):
        refreshes.append(1)
        time.sleep(0.3)   # (long enough for the other thread to see the write meanwhile)
        refresh(self)
    monkeypatch.setattr(freezing.Constants, "refresh", slow_refresh)
    model, other = conv_model(), other_weights(conv_model())
    x = torch.randn(2, 3, 8, 8)
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    results, start = [None, None], threading.Barrier(2)

    def call(i):
        start.wait()
        with torch.no_grad():
            results[i] = compiled(x)
    with torch.no_grad():
        compiled(x)
        model.load_state_dict(other.state_dict())
        threads = [threading.Thread(target=call, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        expected = other(x)
    assert refreshes == [1]
    for r in results:
        torch.testing.assert_close(r, expected)


def test_copies_laid_out_anew_follow_their_source():
    """A frozen constant that lowering copied into another layout (a CUDA convolution's channels-last weight) is
    copied again from its source, computed again first."""
    from kiln import freezing
    weight = torch.arange(24.0).reshape(2, 3, 4)
    constants = freezing.Constants()
    constants.add_input("w", weight)
    doubled = weight * 2
    constants.add_step("d", torch.ops.aten.mul.Tensor, (freezing.Ref("w"), 2), {}, doubled)
    relaid = doubled.permute(0, 2, 1).contiguous()
    constants.add_relaid("r", relaid.copy_, "d", (2, 4, 3), (12, 1, 4), 0)
    assert constants.watched(["r"]) == [weight]
    weight.add_(1)
    constants.refresh()
    torch.testing.assert_close(doubled, weight * 2)
    torch.testing.assert_close(relaid, (weight * 2).permute(0, 2, 1))


def test_a_frozen_graph_whose_compile_fails_runs_eagerly_on_the_modules_tensors(monkeypatch, caplog):
    """Where a frozen graph's compile fails after freezing, the graph runs eagerly as traced, reading the module's
    tensors: run with the constants folded in, it kept computing with the weights it was compiled with after they
    were written (no refresh wraps the eager fallback)."""
    def failing(*args, **kwargs):
        raise RuntimeError("codegen fails here")
    monkeypatch.setattr(kiln.capture, "generate", failing)
    model, x = conv_model(), torch.randn(2, 3, 8, 8)
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True})
    with torch.no_grad(), caplog.at_level(logging.WARNING, logger="kiln"):
        torch.testing.assert_close(compiled(x), model(x))
        for p in model.parameters():
            p.mul_(-2)
        model[1].running_mean.add_(1)
        torch.testing.assert_close(compiled(x), model(x))
    assert "running this graph eagerly: RuntimeError: codegen fails here" in caplog.text, caplog.text


class Chained(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(8, 8))

    def forward(self, x):
        return x + (self.w * 2 + 1)   # folded: the product is an intermediate the graph no longer reads


def test_a_folded_chains_intermediates_are_let_go(monkeypatch):
    """What the graph no longer reads once folded is held by neither the graph module nor the constants kept for a
    refresh (a weight's size each, for the compiled graph's life); a refresh computes it again."""
    from kiln import freezing
    kept = []
    freeze = freezing.freeze
    monkeypatch.setattr(freezing, "freeze", lambda gm, frozen: kept.append((gm, freeze(gm, frozen))) or kept[-1][1])
    model, x = Chained().eval(), torch.randn(8, 8)
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))
        ((gm, constants),) = kept
        held = [n for n, t in constants.values.items() if t.data_ptr() != model.w.data_ptr()]   # computed ones
        attrs = [n for n, _ in gm.named_buffers() if freezing.is_frozen(n)]
        assert len(held) == 1 and attrs == [], (held, attrs)   # the sum, not the product; the module holds none
        model.w.mul_(3)
        torch.testing.assert_close(compiled(x), model(x))


class ConvNorm(torch.nn.Module):
    def __init__(self, conv_bias, affine, conv_returned):
        super().__init__()
        torch.manual_seed(0)
        self.conv, self.norm = torch.nn.Conv2d(3, 8, 3, bias=conv_bias), torch.nn.BatchNorm2d(8, affine=affine)
        self.conv_returned = conv_returned
        with torch.no_grad():
            self.norm.running_mean.uniform_(-1, 1)
            self.norm.running_var.uniform_(0.5, 2)
            if affine:
                self.norm.weight.uniform_(0.5, 2)
                self.norm.bias.uniform_(-1, 1)

    def forward(self, x):
        y = self.conv(x)
        return (self.norm(y), y) if self.conv_returned else self.norm(y)


@pytest.mark.parametrize("conv_bias, affine, conv_returned", [(True, False, False), (False, True, False),
                                                              (True, True, True)],
                         ids=["conv_bias", "affine", "conv_returned"])
def test_a_batch_norm_is_folded_into_its_convolution(built, conv_bias, affine, conv_returned):
    """An eval batch norm of a convolution's output, frozen, is the convolution with folded weight and bias (with
    or without either's own); not where the convolution's output is read by something else too."""
    model = ConvNorm(conv_bias, affine, conv_returned).eval()
    x = torch.randn(2, 3, 8, 8)
    first, second, expected = run(model, x, freezing=True)
    torch.testing.assert_close(first, expected)
    torch.testing.assert_close(second, expected)
    body = built[-1].wrapper_source.split("args.clear()", 1)[1]
    assert ("batch_norm" in body) == conv_returned, body


class Tied(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.p, self.q = torch.nn.Parameter(torch.randn(4, 4)), torch.nn.Parameter(torch.randn(4, 4))
        self.q.data = self.p.data   # one memory, two version counters

    def forward(self, x):
        return x @ (self.p * 2) + x @ (self.q * 3)


@pytest.mark.parametrize("written", ["p", "q"])
def test_tensors_tied_through_data_are_each_watched(written):
    """A write to either of two tensors sharing memory (not a version counter) is seen: watched tensors counted once
    by their memory missed a write through the one dropped (a review's repro, error 17.7)."""
    model, x = Tied().eval(), torch.randn(3, 4)
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad():
        compiled(x)
        getattr(model, written).add_(1)
        torch.testing.assert_close(compiled(x), model(x))


class BesideAnInferenceTensor(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("a", torch.randn(4, 4))
        with torch.inference_mode():
            self.register_buffer("b", torch.randn(4))   # (no version counter to watch)

    def forward(self, x):
        return x @ (self.a * 2)


def test_a_buffer_beside_an_inference_tensor_is_frozen():
    model, x = BesideAnInferenceTensor(), torch.randn(3, 4)
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))
        model.a.mul_(2)
        torch.testing.assert_close(compiled(x), model(x))


class LateOperands(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv2d(3, 8, 3)
        self.w, self.b = torch.nn.Parameter(torch.rand(8) + 0.5), torch.nn.Parameter(torch.randn(8))
        self.register_buffer("mean", torch.randn(8))
        self.register_buffer("var", torch.rand(8) + 0.5)
        self.register_buffer("num_batches_tracked", torch.tensor(0))   # (so its statistics may be frozen)

    def forward(self, x):
        y = self.conv(x)   # the batch norm's operands computed after the convolution
        return F.batch_norm(y, self.mean, self.var * 2, self.w * 2, self.b, False, 0.1, 1e-5)


def test_a_batch_norm_whose_operands_follow_its_convolution_is_folded(built):
    """The folded weight's ops go where all their operands are computed: before the convolution, they read a
    constant folded after it (the graph failed its lint)."""
    model, x = LateOperands().eval(), torch.randn(2, 3, 8, 8)
    first, _, expected = run(model, x, freezing=True)
    torch.testing.assert_close(first, expected)
    assert "batch_norm" not in built[-1].wrapper_source.split("args.clear()", 1)[1]
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad():
        compiled(x)
        model.w.mul_(2)
        torch.testing.assert_close(compiled(x), model(x))


class ConvActivations(torch.nn.Module):
    """Convolutions followed by activations, one output read twice."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.a, self.b, self.c = torch.nn.Conv2d(3, 8, 3), torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.Conv2d(8, 4, 1)

    def forward(self, x):
        y = F.relu6(self.a(x))
        z = self.b(y)
        return self.c(F.relu(z)) + z.mean()


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
def test_frozen_cpu_convolutions_run_with_packed_weights(built):
    """A frozen float32 CPU convolution (but a small 1x1 one) calls oneDNN with its weight reordered once, at compile
    time. Its activations stay kiln's: oneDNN's relu and hardtanh make a NaN a number, where eager's keep it."""
    model, x = ConvActivations().eval(), torch.randn(2, 3, 10, 10)
    first, second, expected = run(model, x, freezing=True)
    torch.testing.assert_close(first, expected)
    torch.testing.assert_close(second, expected)
    calls = re.findall(r"# (mkldnn\._convolution_pointwise[^\n]*)", built[-1].wrapper_source)
    assert calls == ["mkldnn._convolution_pointwise (weight packed once)"] * 2, built[-1].wrapper_source
    # (the small 1x1 one: a product)
    assert "convolution.default as a product of its windows" in built[-1].wrapper_source
    x[0, 1, 4, 4] = float("nan")
    first, _, expected = run(model, x, freezing=True)
    torch.testing.assert_close(first, expected, equal_nan=True)


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
def test_a_frozen_1x1_convolution_with_a_large_weight_runs_packed(built, monkeypatch):
    """Over few pixels, a 1x1 convolution whose frozen weight has at least PACKED_WEIGHT_FROM elements is oneDNN's
    packed call, not a product (MKL's sgemm would pack the weight again at every call); with a smaller weight, the
    product. (The bound is lowered to 64 x 64 weights here.)"""
    from kiln.lowering import conv_products
    monkeypatch.setattr(conv_products, "PACKED_WEIGHT_FROM", 64 * 64)
    x = torch.randn(2, 64, 2, 2)
    for channels, packed in ((64, True), (32, False)):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Conv2d(64, channels, 1)).eval()   # (x computed)
        first, second, expected = run(model, x, freezing=True)
        torch.testing.assert_close(first, expected)
        torch.testing.assert_close(second, expected)
        source = built[-1].wrapper_source
        assert ("weight packed once" in source) == packed and ("as a product" in source) != packed, source


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
def test_a_frozen_linear_with_a_large_weight_runs_packed_and_follows_its_weight(built, monkeypatch):
    """A product with a frozen matrix of at least PACKED_WEIGHT_FROM elements (lowered to 48 x 64 here) is oneDNN's
    call with the matrix packed once, with a bias (nn.Linear's addmm) or without; a smaller one stays a product.
    Written in place after compiling, the weight is packed again (the refresh) before the next call."""
    from kiln.lowering import conv_products
    monkeypatch.setattr(conv_products, "PACKED_WEIGHT_FROM", 48 * 64)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 48), torch.nn.ReLU(), torch.nn.Linear(48, 64, bias=False),
                                torch.nn.ReLU(), torch.nn.Linear(64, 8)).eval()
    x = torch.randn(5, 64)
    first, second, expected = run(model, x, freezing=True)
    torch.testing.assert_close(first, expected)
    torch.testing.assert_close(second, expected)
    calls = re.findall(r"# (mkldnn\._linear_pointwise[^\n]*)", built[-1].wrapper_source)
    assert calls == ["mkldnn._linear_pointwise (weight packed once)"] * 2, built[-1].wrapper_source
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad():
        compiled(x)
        model[0].weight.mul_(-2)
        model[2].weight.add_(1)
        torch.testing.assert_close(compiled(x), model(x))


class ActivationsAfterProducts(torch.nn.Module):
    """Products read by activations: a 1x1 convolution read by a GELU alone, linears of a 4-D input (a view between
    the product and its activation) read by a tanh GELU, a SiLU and a hardswish alone; a 3x3 convolution read by a
    GELU and by a sum; a linear read by a function that is not quite the GELU, another by a ReLU; and a 1x1
    convolution whose GELU is the graph's output."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.pointwise, self.conv, self.last = torch.nn.Conv2d(32, 64, 1), torch.nn.Conv2d(64, 64, 3, padding=1), \
            torch.nn.Conv2d(64, 32, 1)
        self.linears = torch.nn.ModuleList(torch.nn.Linear(64, 64) for _ in range(5))

    def forward(self, x):
        y = F.gelu(self.pointwise(x)).permute(0, 2, 3, 1).contiguous()
        for linear, activation in zip(self.linears, (partial(F.gelu, approximate="tanh"), F.silu, F.hardswish)):
            y = activation(linear(y))
        w = self.conv(y.permute(0, 3, 1, 2))
        q = self.linears[3]((F.gelu(w) + w.sum()).permute(0, 2, 3, 1))
        q = F.relu(self.linears[4](q * 0.5 * (1 + torch.erf(q * 0.7))))
        return F.gelu(self.last(q.permute(0, 3, 1, 2)))


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
def test_an_activation_reading_a_frozen_product_alone_is_applied_by_onednn(built, monkeypatch):
    """A frozen product (a 1x1 convolution, a linear, through views too) whose output an activation alone reads (a
    GELU, a tanh GELU, a SiLU, a hardswish) is oneDNN's packed call with the activation applied as it writes (a
    post-op), from PACKED_ACTIVATED_WEIGHT_FROM elements (lowered to 32 x 64 here): the same values as eager's,
    NaN and infinities included. An output read by more than the activation, by another function, or by a ReLU
    (whose post-op makes a NaN 0) keeps its own kernel; the 1x1 convolutions are oneDNN's linears over the pixels."""
    from kiln.lowering import conv_products
    monkeypatch.setattr(conv_products, "PACKED_ACTIVATED_WEIGHT_FROM", 32 * 64)
    model, x = ActivationsAfterProducts().eval(), torch.randn(2, 32, 4, 4)
    for special in (None, float("nan"), float("inf"), -float("inf")):
        if special is not None:
            x[1, 3, 2, 1] = special
        first, second, expected = run(model, x, freezing=True)
        torch.testing.assert_close(first, expected, equal_nan=True)
        torch.testing.assert_close(second, expected, equal_nan=True)
        assert first.stride() == expected.stride()
    calls = re.findall(r"# (mkldnn\._\w+_pointwise[^\n]*)", built[-1].wrapper_source)
    assert sorted(calls) == ["mkldnn._convolution_pointwise (weight packed once)"] + [
        f"mkldnn._linear_pointwise (weight packed once, {a} applied)"
        for a in ["gelu (tanh)", "gelu", "gelu", "hardswish", "swish"]], built[-1].wrapper_source
    assert "erf" in built[-1].wrapper_source and "relu" in built[-1].wrapper_source


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
def test_only_post_ops_that_compute_eagers_values_are_applied():
    """oneDNN's post-ops are checked against eager's functions on NaN, infinities and other special values: its
    GELUs, SiLU and hardswish agree; its ReLU and hardtanh make a NaN a number and do not."""
    from kiln.runtime import prepacked
    assert all(prepacked.agrees_with_eager(a) for a in prepacked.ACTIVATIONS)
    assert not prepacked.agrees_with_eager(prepacked.Activation("relu", (), None, F.relu))
    assert not prepacked.agrees_with_eager(prepacked.Activation("hardtanh", (0.0, 6.0), None, F.relu6))


class LinearOfStridedBias(torch.nn.Module):
    """Linears whose biases are not dense: a column of a matrix parameter, a one-element parameter expanded, and the
    input's own first column."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.w = torch.nn.Parameter(torch.randn(64, 64) / 8)
        self.columns = torch.nn.Parameter(torch.randn(64, 2))
        self.scalar = torch.nn.Parameter(torch.tensor([0.5]))

    def forward(self, x):
        y = F.linear(x, self.w, self.columns[:, 0]) + F.linear(x, self.w, self.scalar.expand(64))
        return y + F.linear(x, self.w, x[0])


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
def test_a_frozen_linears_bias_reaches_onednn_dense(built, monkeypatch):
    """oneDNN's packed product reads its bias as dense: a strided or expanded bias is copied dense first (read as it
    lay, a column of a matrix gave results off by 5, an expanded scalar NaNs read past its storage)."""
    from kiln.lowering import conv_products
    monkeypatch.setattr(conv_products, "PACKED_WEIGHT_FROM", 64 * 64)
    model, x = LinearOfStridedBias().eval(), torch.randn(64, 64)
    first, second, expected = run(model, x, freezing=True)
    torch.testing.assert_close(first, expected)
    torch.testing.assert_close(second, expected)
    assert built[-1].wrapper_source.count("mkldnn._linear_pointwise (weight packed once)") == 3, \
        built[-1].wrapper_source


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
@pytest.mark.parametrize("freezing", [False, True], ids=["unfrozen", "frozen"])
def test_products_at_onednns_bf16_precision_stay_atens(built, monkeypatch, freezing):
    """Set through torch's newer per-backend API, oneDNN's bf16 float32 precision makes torch's older
    get_float32_matmul_precision raise: kiln reads both (its graph cache's key, its BLAS and packed products), and
    leaves such products to ATen, which computes them as the user asked."""
    from kiln.lowering import conv_products
    monkeypatch.setattr(conv_products, "PACKED_WEIGHT_FROM", 64 * 64)
    torch.manual_seed(0)
    model, x = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8)).eval(), \
        torch.randn(5, 64)
    torch.backends.mkldnn.matmul.fp32_precision = "bf16"
    try:
        first, second, expected = run(model, x, freezing=freezing)
    finally:
        torch.backends.mkldnn.matmul.fp32_precision = "none"
    torch.testing.assert_close(first, expected)
    torch.testing.assert_close(second, expected)
    source = built[-1].wrapper_source
    assert "packed once" not in source and "blas_" not in source, source


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
def test_a_folded_weight_read_only_through_its_packed_copy_is_let_go(built, monkeypatch):
    """A convolution's folded weight that the wrapper reads only through a copy lowering made of it (oneDNN's packed
    weight here, cuDNN's channels-last one on the GPU) is held by neither the wrapper, the constants kept for a
    refresh nor the graph module compiled: a frozen ResNet-18 held its weights twice. Weights loaded later are still
    folded and packed anew."""
    from kiln import freezing
    kept = []
    freeze = freezing.freeze
    monkeypatch.setattr(freezing, "freeze", lambda gm, frozen: kept.append((gm, freeze(gm, frozen))) or kept[-1][1])
    model, other, x = conv_model(), other_weights(conv_model()), torch.randn(2, 3, 8, 8)
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))
        assert "weight packed once" in built[-1].wrapper_source, built[-1].wrapper_source

        def weight_sized(tensors):   # strided tensors of the convolution weight's shape, but the module's own
            return [t for t in tensors if isinstance(t, torch.Tensor) and t.layout == torch.strided and
                    t.shape == model[0].weight.shape and t.data_ptr() != model[0].weight.data_ptr()]
        ((gm, constants),) = kept
        assert not weight_sized(constants.values.values())
        # (nor by AOTAutograd's graph module, which only the collector frees: it and its graph refer to each other)
        assert not weight_sized(t for _, t in gm.named_buffers())
        assert not weight_sized(built[-1].call.__globals__.values())
        model.load_state_dict(other.state_dict())
        torch.testing.assert_close(compiled(x), other(x))


class Biased(torch.nn.Module):
    """A convolution whose bias is a column of a parameter (not dense), and one of a single input channel."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.w, self.biases = torch.nn.Parameter(torch.randn(4, 1, 5, 2)), torch.nn.Parameter(torch.randn(4, 3))

    def forward(self, x):
        return F.conv2d(x * 2, self.w, self.biases[:, 1], stride=(1, 3), padding=(2, 0))


@pytest.mark.parametrize("freezing", [False, True], ids=["unfrozen", "frozen"])
def test_convolutions_of_one_channel_and_of_a_strided_bias_match_eager(freezing):
    """With one input channel, channels-last and NCHW lay out the same memory: given channels-last strides, oneDNN's
    convolution read outside its input (values of 1e30) and eager's computed wrongly, so kiln passes NCHW's. A bias
    that is a column of a matrix reaches oneDNN's packed call dense."""
    model = Biased().eval()
    for x in torch.randn(3, 1, 6, 3), torch.randn(2, 1, 7, 5):
        first, second, expected = run(model, x, freezing=freezing)
        torch.testing.assert_close(first, expected)
        torch.testing.assert_close(second, expected)


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
def test_a_convolution_onednn_refuses_packed_stays_an_ordinary_one(built, monkeypatch):
    """The packed call is tried once while lowering: where oneDNN raises, the convolution is ATen's, not an error at
    the user's call."""
    from kiln.runtime import prepacked

    def refused(self, x, bias):
        raise RuntimeError("refused")
    monkeypatch.setattr(prepacked.PackedConvolution, "__call__", refused)
    model, x = ConvActivations().eval(), torch.randn(2, 3, 10, 10)
    first, second, expected = run(model, x, freezing=True)
    torch.testing.assert_close(first, expected)
    assert "packed" not in built[-1].wrapper_source and "aten.convolution" in built[-1].wrapper_source


class Block(torch.nn.Module):
    """A block that is a frame of its own (a graph break): a convolution, a layer norm, a linear, a bias cast."""

    def __init__(self, channels):
        super().__init__()
        self.conv, self.norm = torch.nn.Conv2d(channels, channels, 3, padding=1), torch.nn.LayerNorm(6)
        self.linear = torch.nn.Linear(6, 6)
        self.scale = torch.nn.Parameter(torch.randn(channels, 1, 1).double())

    def forward(self, x):
        y = self.linear(self.norm(F.relu(self.conv(x)))) * self.scale.float()
        torch._dynamo.graph_break()
        return y


class Blocks(torch.nn.Module):
    def __init__(self, count=12, channels=4):
        super().__init__()
        torch.manual_seed(0)
        self.blocks = torch.nn.ModuleList(Block(channels) for _ in range(count))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def frames_compiled(model, x, options):
    from torch._dynamo.utils import counters
    torch._dynamo.reset()
    counters.clear()
    compiled = kiln.compile(model, options={**options, "strict": True})
    with torch.no_grad():
        y = compiled(x)
    return compiled, y, counters["stats"]["unique_graphs"]


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="oneDNN")
@pytest.mark.parametrize("packed", [False, True], ids=["products", "packed"])
def test_frozen_blocks_that_are_frames_of_their_own_compile_once(built, monkeypatch, caplog, packed):
    """A frozen model whose blocks are frames of their own compiles the block's frame once, as unfrozen, and runs
    each block on constants computed from its own parameters (a packed convolution's and linear's weight, a cast),
    once a block, rather than a frame per block up to Dynamo's recompile limit (8), the later blocks eager. A
    write to one block's weight is seen at the next call."""
    from kiln.lowering import conv_products
    monkeypatch.setattr(conv_products, "PACKED_WEIGHT_FROM", 1 if packed else 10 ** 9)
    model, x = Blocks().eval(), torch.randn(2, 4, 6, 6)
    with torch.no_grad():
        expected = model(x)
    _, _, unfrozen = frames_compiled(model, x, {})
    with caplog.at_level(logging.INFO, logger="kiln"):
        compiled, y, frozen = frames_compiled(model, x, {"freezing": True})
    close = partial(torch.testing.assert_close, rtol=1e-4, atol=1e-4)   # (12 blocks' products, summed otherwise)
    close(y, expected)
    assert frozen == unfrozen
    assert len(re.findall("computed its frozen constants for other parameters", caplog.text)) == 11
    # (the 3x3 convolution is packed either way; the linear, where the bound lets it)
    assert built[-1].wrapper_source.count("weight packed once") == (2 if packed else 1), built[-1].wrapper_source
    with torch.no_grad():
        model.blocks[5].conv.weight.mul_(-1)
        model.blocks[7].scale.add_(1)
        close(compiled(x), model(x))
        close(compiled(x), model(x))


class NormBlock(torch.nn.Module):
    """A block that is a frame of its own, with buffers: a convolution and a batch norm (folded into it)."""

    def __init__(self, channels):
        super().__init__()
        self.conv, self.norm = torch.nn.Conv2d(channels, channels, 3, padding=1), torch.nn.BatchNorm2d(channels)

    def forward(self, x):
        y = F.relu(self.norm(self.conv(x)))
        torch._dynamo.graph_break()
        return y


@pytest.mark.parametrize("held", ["by_modules", "by_a_dict_too", "shared"])
def test_frozen_blocks_with_buffers_compile_once_and_watch_each_blocks_statistics(caplog, held):
    """Blocks with a batch norm's buffers compile once too (each block's buffers were guarded by identity: a frame
    per block up to the recompile limit, the later blocks eager). Each block's running statistics are watched with
    its own module's num_batches_tracked, found for blocks Dynamo did not trace, also where a dict of the user's
    (dict(model.named_buffers())) or another module holds them too: an eager training step of one block is read at
    the next call. A block whose batch norm has no such counter runs eagerly."""
    torch.manual_seed(0)
    model, x = torch.nn.Sequential(*[NormBlock(4) for _ in range(12)]).eval(), torch.randn(2, 4, 6, 6)
    kept = dict(model.named_buffers()) if held == "by_a_dict_too" else None   # (alive through the calls)
    if held == "shared":   # (block 3's running mean held by block 2's batch norm too)
        model[2].norm.register_buffer("shared", model[3].norm.running_mean)
    for block in model:
        block.norm.running_mean.uniform_(-1, 1)
        block.norm.running_var.uniform_(0.5, 2)
    _, _, unfrozen = frames_compiled(model, x, {})
    with caplog.at_level(logging.INFO, logger="kiln"):
        compiled, y, frozen = frames_compiled(model, x, {"freezing": True})
    close = partial(torch.testing.assert_close, rtol=1e-4, atol=1e-4)
    with torch.no_grad():
        close(y, model(x))
        assert frozen == unfrozen
        assert len(re.findall("computed its frozen constants for other parameters", caplog.text)) == 11
        model[6].train()
        model[6](torch.randn(2, 4, 6, 6) * 3 + 1)   # eager training: the statistics move, their counter too
        model[6].eval()
        close(compiled(x), model(x))
        model[9].norm.num_batches_tracked = None
        model[9].norm.running_mean.add_(1)   # (moves its version: a new set of buffers is what is tested)
        model[9].norm.running_mean = model[9].norm.running_mean.clone()
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="kiln"):
            close(compiled(x), model(x))
        assert "runs eagerly for other parameters: buffers that cannot be watched" in caplog.text
    del kept


def test_other_buffers_hidden_from_the_collector_run_eagerly_until_found(caplog):
    """Objects frozen from the garbage collector (gc.freeze: by the user, or by a compile in another thread) are not
    found as the referrers of another block's buffers: that block runs eagerly, and is looked for again at its next
    call rather than run eagerly for good."""
    import gc
    torch.manual_seed(0)
    model, x = torch.nn.Sequential(*[NormBlock(4) for _ in range(3)]).eval(), torch.randn(2, 4, 6, 6)
    torch._dynamo.reset()
    compiled = kiln.compile(model, options={"freezing": True, "strict": True})
    with torch.no_grad(), caplog.at_level(logging.INFO, logger="kiln"):
        gc.freeze()
        try:
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
        finally:
            gc.unfreeze()
        assert caplog.text.count("runs eagerly for other buffers, whose module was not found") == 2
        assert "computed its frozen constants for other parameters" not in caplog.text
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    assert caplog.text.count("computed its frozen constants for other parameters") == 2


class ReadAtAnOffset(torch.nn.Module):
    def __init__(self, w):
        super().__init__()
        self.w = torch.nn.Parameter(w)

    def forward(self, x):
        # (at an explicit storage offset, larger than w: not folded, the kernel reads the parameter's storage)
        return x + self.w.as_strided((6, 6), (1, 1), 2), (x + self.w[:6]).sin()


def test_other_parameters_at_another_storage_offset_are_read_there(caplog):
    """A frozen graph given other parameters at another storage offset, which an as_strided at an explicit offset
    reads, compiles anew (capture.guard_storage_offsets), in either order; at the same offset, it computes its
    constants from them."""
    x = torch.zeros(6, 6)
    for first, other in ((0, 4), (4, 0)):
        torch._dynamo.reset()
        run = kiln.compile(lambda m, x: m(x), options={"freezing": True, "strict": True})
        with torch.no_grad(), caplog.at_level(logging.INFO, logger="kiln"):
            for offset in (first, other, first):   # (each in a storage of its own)
                model = ReadAtAnOffset((torch.arange(40.0) * (offset + 1))[offset:offset + 16])
                torch.testing.assert_close(run(model, x), model(x))
        assert "computed its frozen constants for other parameters" in caplog.text
        caplog.clear()


class FoldedBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(64, 64)

    def forward(self, x):
        return self.linear(x) * (self.linear.weight * 2).sum(0)   # (a folded constant of the weight's size)


def test_the_constants_of_other_parameters_are_let_go_with_them():
    """The constants a frozen graph computed for another module's parameters are let go when the module is, by
    reference counts (no collector pass: a GPU's memory is given back at once)."""
    run = kiln.compile(lambda m, x: m(x), options={"freezing": True, "strict": True})
    x = torch.randn(4, 64)
    with torch.no_grad():
        run(FoldedBlock(), x)
        other = FoldedBlock()
        torch.testing.assert_close(run(other, x), other(x))
    held = StorageWeakRef(other.linear.weight.untyped_storage())
    gc.collect()   # (the set's objects age into the oldest generation, as long-lived ones do)
    gc.disable()
    try:
        del other
        assert held.expired()
    finally:
        gc.enable()


def test_a_graphs_watches_on_other_parameters_end_with_it():
    """A set of parameters is dropped with any of its tensors; a graph let go (Dynamo's cache reset) ends its
    watches on them, which a model outliving many compiles would otherwise pile up."""
    from kiln.freezing import ParameterSets
    tensors = [torch.ones(2), torch.ones(3)]
    sets = ParameterSets()
    sets.add(tensors, print)
    watches = list(sets.watches)
    del tensors[0]
    assert not sets and not watches[0].alive and watches[1].alive
    sets.add(tensors, print)
    watches = list(sets.watches)
    assert sum(w.alive for w in watches) == 2   # (the first set's watch on the tensor left, and the second's)
    del sets
    gc.collect()
    assert not any(w.alive for w in watches)


def test_parameters_at_another_offset_read_by_as_strided_out_of_dynamos_sight_run_eagerly(caplog):
    """An as_strided that Dynamo's graph does not show (inside a higher-order op's body) reading a frozen
    parameter: another module's parameter at another storage offset runs the graph eagerly (the guard on storage
    offsets sees only the Dynamo graph's own calls), and computes right."""
    from torch._higher_order_ops.wrap import wrap

    class Wrapped(torch.nn.Module):
        def __init__(self, w):
            super().__init__()
            self.w = torch.nn.Parameter(w)

        def forward(self, x):
            return x + wrap(lambda w: w.as_strided((6, 6), (1, 1), 2) * 1, self.w)
    run = kiln.compile(lambda m, x: m(x), options={"freezing": True, "strict": True})
    x = torch.zeros(6, 6)
    with torch.no_grad(), caplog.at_level(logging.INFO, logger="kiln"):
        for offset in (0, 4):
            model = Wrapped((torch.arange(40.0) * (offset + 1))[offset:offset + 16])
            torch.testing.assert_close(run(model, x), model(x))
    assert "runs eagerly for other parameters: at other storage offsets" in caplog.text
