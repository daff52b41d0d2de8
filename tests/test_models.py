"""The design documents' examples, end to end through kiln: outputs, gradients and module state
against eager (fp64 reference). Models and tiny sizes come from kiln.tools.workloads."""
import copy
import os
import re

import pytest
import torch
import torch.nn.functional as F

import kiln
from conftest import StatsDelta, compare_results, kiln_compile, run_fwd_bwd
from kiln.tools.workloads import WORKLOADS


def workload(name, train=False):
    """The workload's module (eval or train mode) and inputs, at the "tiny" size, fp32 on the CPU."""
    w = WORKLOADS[name]
    model = w.make_module("cpu", torch.float32, "tiny").train(train)
    return model, w.make_inputs("cpu", torch.float32, "tiny")


def check_module(name, train=False, tol=None):
    """Forward only, without autograd."""
    model, inputs = workload(name, train)
    compiled = kiln_compile(model)
    eager64 = copy.deepcopy(model).double()
    with torch.no_grad():
        out = compiled(*inputs)
        expected = model(*inputs)
        ref64 = eager64(*[x.double() if x.is_floating_point() else x for x in inputs])
    compare_results(out, expected, ref64, tol)
    return out


def fwd_bwd_module(name, train=True, tol=None, grad_tol=None):
    model, inputs = workload(name, train)
    inputs = [x.requires_grad_() if x.is_floating_point() else x for x in inputs]
    return model, run_fwd_bwd(None, inputs, tol=tol, grad_tol=grad_tol, module=model)


def test_sincos_fwd_bwd_mse_loss(check_grad):
    """The first design example: sin(x)^2 + cos(x)^2 (== 1) through mse_loss, forward and backward."""
    x = torch.randn(8, 32, requires_grad=True)
    target = torch.randn(8, 32)
    result = check_grad(lambda x, t: F.mse_loss(torch.sin(x) ** 2 + torch.cos(x) ** 2, t), x, target)
    assert abs(result.out.item() - F.mse_loss(torch.ones(8, 32), target).item()) < 1e-4
    assert result.grads[0].abs().max() < 1e-5     # d/dx (sin^2 + cos^2) == 0


def test_sincos_workload():
    check_module("sincos")


def test_self_attention_fwd_bwd():
    fwd_bwd_module("self_attention", tol=(2e-4, 2e-4))


def test_masked_multihead_attention_eval():
    check_module("mha_mask")


def test_masked_multihead_attention_fwd_bwd():
    fwd_bwd_module("mha_mask", tol=(2e-4, 2e-4))


def test_resnet_block_eval():
    check_module("resnet_block", tol=(2e-4, 2e-4))


def test_resnet_block_eval_channels_last_convs(tmp_path):
    """Inference graphs run convolutions channels-last, on the CPU too (oneDNN's fast layout, and the rows of a
    small one's product): the copy into channels-last, the conv's channels-last output, eager's layout at the end.
    The first copies the graph's input too: its output is as large as the input (only a smaller one, a patch
    embedding's, reads it as laid out)."""
    model, inputs = workload("resnet_block", False)
    delta = StatsDelta()
    with torch.no_grad():
        out = kiln.compile(model, options={"strict": True, "trace": str(tmp_path)})(*inputs)
        compare_results(out, model(*inputs), copy.deepcopy(model).double()(*[x.double() for x in inputs]),
                        (2e-4, 2e-4))
    assert out.is_contiguous() and delta["extern_calls"] == 2 and delta["graphs_fallback"] == 0
    wrapper = next(tmp_path.glob("*/wrapper.py")).read_text()
    # (the tiny block's are small enough for products of their windows: conv_products.runs_as_matmul)
    assert wrapper.count("convolution.default as a product of its windows") == 2, wrapper
    assert wrapper.index("kernel") < wrapper.index("convolution.default"), wrapper   # (the input's copy)


@pytest.mark.parametrize("name", ["resnet_block", "resnet_block_cl"])
def test_resnet_block_train(name):
    """Train mode: outputs, gradients of input and parameters, and the updated running statistics."""
    model, result = fwd_bwd_module(name, train=True, tol=(2e-4, 2e-4), grad_tol=(1e-3, 1e-3))
    eager_state = dict(result.eager_module.named_buffers())
    compiled_state = dict(model.named_buffers())
    assert set(eager_state) == set(compiled_state)
    for key, expected in eager_state.items():
        actual = compiled_state[key]
        if expected.is_floating_point():
            torch.testing.assert_close(actual, expected, atol=1e-5, rtol=1e-5, msg=lambda m: f"{key}: {m}")
        else:
            assert torch.equal(actual, expected), key
    # the running statistics did move
    fresh_model, _ = workload(name)
    assert not torch.equal(compiled_state["bn1.running_mean"], fresh_model.bn1.running_mean)


def test_mlp_fwd_bwd():
    fwd_bwd_module("mlp")


def test_gpt2_block_fwd():
    check_module("gpt2_block", tol=(2e-4, 2e-4))


def test_gpt2_block_fwd_bwd():
    fwd_bwd_module("gpt2_block", tol=(2e-4, 2e-4), grad_tol=(5e-4, 5e-4))


def test_gpt2_small_fwd_bwd():
    """Token and position embeddings, two blocks, tied-size head: embedding backward included."""
    fwd_bwd_module("gpt2_small", tol=(2e-4, 2e-4), grad_tol=(5e-4, 5e-4))


def test_convnet_eval():
    check_module("convnet", tol=(2e-4, 2e-4))


@pytest.mark.parametrize("dtype", [torch.bfloat16], ids=["bf16"])
def test_gpt2_block_low_precision(dtype):
    w = WORKLOADS["gpt2_block"]
    model = w.make_module("cpu", dtype, "tiny")
    (x,) = w.make_inputs("cpu", dtype, "tiny")
    with torch.no_grad():
        out = kiln_compile(model)(x)
        expected = model(x)
        ref64 = copy.deepcopy(model).double()(x.double())
    assert out.dtype == expected.dtype == dtype
    # bf16 end to end: a few roundings per layer; kiln must be no further from fp64 than eager is (x3)
    err, eager_err = (out.double() - ref64).abs().mean(), (expected.double() - ref64).abs().mean()
    assert err <= 3 * eager_err + 1e-3, (err, eager_err)


def test_graph_break_print(capsys):
    """A print splits the function into two graphs; both compile and the result is still right."""
    def fn(x):
        y = torch.sin(x) * 2
        print("graph break here")
        return (y + torch.cos(x)).softmax(-1)
    x = torch.randn(4, 16)
    delta = StatsDelta()
    out = kiln_compile(fn)(x)
    assert "graph break here" in capsys.readouterr().out
    compare_results(out, fn(x), fn(x.double()))
    assert delta["graphs_compiled"] == 2 and delta["graphs_fallback"] == 0


def test_graph_break_fwd_bwd(check_grad):
    def fn(x, w):
        h = torch.tanh(x @ w)
        print("break")
        return F.layer_norm(h, h.shape[-1:]) * 2
    check_grad(fn, torch.randn(4, 8, requires_grad=True), torch.randn(8, 8, requires_grad=True))


def test_conv_input_saved_for_backward_is_stored_once(tmp_path):
    """relu(bn(conv(x))) feeds the next convolution and is saved for the backward: it is stored once, in the
    channels-last layout that convolution runs in. Stored as eager lays it out and copied for the
    convolution, both copies were saved (ResNet-18's training step peaked 33% above eager's)."""
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                                torch.nn.Conv2d(8, 4, 3, padding=1))
    x = torch.randn(2, 3, 6, 6, requires_grad=True)
    compiled = kiln.compile(model, options={"strict": True, "trace": str(tmp_path)})
    run_fwd_bwd(None, [x], module=model, compiled=compiled, tol=(2e-4, 2e-4), grad_tol=(1e-3, 1e-3))
    forward = next(tmp_path.glob("*forward/wrapper.py")).read_text()
    assert forward.count("_empty_cpu((2, 8, 6, 6, )") == 1, forward


@pytest.mark.parametrize("groups", [1, 8])
def test_training_convolutions_run_channels_last_forward_and_backward(tmp_path, groups):
    """A training step's convolutions run channels-last, on the CPU too (oneDNN's NCHW convolutions took 1.3-2.5x
    their NHWC time on MobileNetV2's shapes). The activations saved for the backward stay channels-last, and the
    backward graph is compiled for those strides (reported to AOTAutograd). The backward's gradient and weight are
    passed channels-last, and the gradients come back channels-last (cuDNN otherwise relays out the traced NCHW
    gradient, the weight and its results in copies of its own: 110 launches in timm ResNet-18's training step).
    The weight's gradient leaves the graph in the parameter's layout, and every gradient and running statistic
    matches eager's. A grouped (depthwise) convolution too, and the first convolution, whose input is the user's
    NCHW image: the backward copies it to channels-last, and so does the forward where a library computes it."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                                torch.nn.Conv2d(8, 8, 3, padding=1, groups=groups), torch.nn.BatchNorm2d(8),
                                torch.nn.ReLU(), torch.nn.Conv2d(8, 4, 1))
    x = torch.randn(2, 3, 32, 32, requires_grad=True)   # (3x3 windows too many for a product: WINDOWS_UP_TO)
    compiled = kiln.compile(model, options={"strict": True, "trace": str(tmp_path)})
    run_fwd_bwd(None, [x], module=model, compiled=compiled, tol=(2e-4, 2e-4), grad_tol=(1e-3, 1e-3))
    forward = next(tmp_path.glob("*forward/wrapper.py")).read_text()
    # (on Triton targets the first, of 3 channels, and the depthwise one are kiln kernels:
    # lowering.pooling.unrolled_convolution)
    triton = os.environ.get("KILN_TARGET") == "triton"
    assert forward.count("aten.convolution.default (channels-last)") == 2 - triton - (triton and groups == 8), forward
    backward = next(tmp_path.glob("*backward/wrapper.py")).read_text()
    assert backward.count("aten.convolution_backward.default (channels-last)") == 2, backward
    # (the last, small and 1x1, is a product of channels-last matrices: conv_products.runs_as_matmul)
    assert "convolution.default as a product of its windows" in forward
    assert "convolution_backward.default as a product of its windows" in backward
    assert [(p.grad.stride(), p.stride()) for p in model.parameters() if p.grad.stride() != p.stride()] == []


class SqueezeExcite(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(8, 16, 3, padding=1)   # (not 3 channels: a kernel of kiln's on Triton)
        self.reduce, self.expand = torch.nn.Conv2d(16, 4, 1), torch.nn.Conv2d(4, 16, 1)

    def forward(self, x):
        y = self.conv(x)
        s = torch.sigmoid(self.expand(torch.relu(self.reduce(y.mean([2, 3], keepdim=True)))))
        return y * s


def test_squeeze_excite_convolutions_are_passed_in_a_layout_libraries_read_as_channels_last(monkeypatch):
    """A squeeze-excite block convolves [N, C, 1, 1] tensors, whose size-1 dims' strides libraries read: given
    (16, 1, 32, 32), oneDNN took the channels-last tensor for NCHW and its 1x1 convolutions 1.4x as long
    (RegNet's training step: 0.88x Inductor's). Every 4-D tensor a convolution receives, forward and backward,
    suggests channels-last. (Library calls, not products of their windows, which pass matrices.)"""
    from torch._prims_common import suggest_memory_format
    from kiln.lowering import conv_products
    monkeypatch.setattr(conv_products, "MATMUL_CONVOLUTION_DEVICES", set())
    formats = []
    load = kiln.capture.load

    def loading(*args, **kwargs):
        module = load(*args, **kwargs)
        scope = module.call.__globals__
        for name, fn in list(scope.items()):
            if re.fullmatch(r"_c\d+", name):
                def logged(*a, _fn=fn, **k):
                    formats.extend(suggest_memory_format(t) for t in a[:3] if isinstance(t, torch.Tensor) and t.dim() == 4)
                    return _fn(*a, **k)
                scope[name] = logged
        return module
    monkeypatch.setattr(kiln.capture, "load", loading)
    torch.manual_seed(0)
    model = SqueezeExcite()
    x = torch.randn(2, 8, 8, 8, requires_grad=True)
    run_fwd_bwd(None, [x], module=model, compiled=kiln.compile(model, options={"strict": True}),
                tol=(2e-4, 2e-4), grad_tol=(1e-3, 1e-3))
    assert len(formats) >= 12 and set(formats) == {torch.channels_last}, formats


def test_a_stem_pools_its_activation_in_the_layout_its_convolution_wrote(built):
    """A stem's batch norm and ReLU, stored for the max pooling that reads each value 9 times: in the convolution's
    channels-last layout, not eager's NCHW, which the pooling would read across the rows (ResNet's CPU inference:
    0.94x Inductor's, 1.04x stored channels-last)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 7, stride=2, padding=3), torch.nn.BatchNorm2d(16),
                                torch.nn.ReLU(), torch.nn.MaxPool2d(3, 2, 1), torch.nn.Conv2d(16, 8, 3)).eval()
    x = torch.randn(2, 3, 32, 32)
    with torch.no_grad():
        torch.testing.assert_close(kiln.compile(model, options={"strict": True})(x), model(x), atol=1e-4, rtol=1e-4)
    wrapper = built[-1].wrapper_source
    assert "(4096, 256, 16, 1, )" not in wrapper, wrapper   # (2, 16, 16, 16) stored NCHW


def test_backward_lets_go_of_each_saved_activation_after_its_last_use(tmp_path):
    """A backward graph's inputs are the activations saved for it; eager frees each once its part of the
    backward is done. The wrapper held them all to the end (ResNet-18's backward peaked 230 MiB above eager)."""
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(), torch.nn.Linear(16, 16), torch.nn.Tanh(),
                                torch.nn.Linear(16, 4))
    compiled = kiln.compile(model, options={"strict": True, "trace": str(tmp_path)})
    run_fwd_bwd(None, [torch.randn(4, 8, requires_grad=True)], module=model, compiled=compiled)
    backward = next(tmp_path.glob("*backward/wrapper.py")).read_text()
    inputs = re.search(r"^    (.*) = args$", backward, re.M).group(1).replace(" ", "").rstrip(",").split(",")
    returned = backward.rsplit("return", 1)[1]
    deleted = {name for line in re.findall(r"^ +del (.*)$", backward, re.M) for name in line.split(", ")}
    kept = [name for name in inputs if name not in deleted and not re.search(rf"\b{name}\b", returned)]
    assert not kept, f"held to the end: {kept}\n{backward}"


def test_conv1d_where_convolutions_run_channels_last():
    """Whisper's audio stem: a 1-D convolution of a graph input, where 2-D ones run channels-last (the
    check of the caller's layout assumed four dims)."""
    conv = torch.nn.Conv1d(4, 8, 3, padding=1)
    x = torch.randn(2, 4, 10)
    with torch.no_grad():
        compare_results(kiln_compile(conv)(x), conv(x))


@pytest.mark.parametrize("dynamic", [False, True])
def test_as_strided_reads_a_value_kiln_stored_channels_last(check, dynamic):
    """unfold (as_strided after decomposition) names eager's NCHW storage of a value that kiln stores channels-last,
    since it reads channels-last: as_strided reads a copy laid out as eager's (it read the wrong elements; under
    dynamic=True, off by up to 42 at the first call), with gaps where eager's has them (s[..., ::2], static only:
    its reads are checked to fall on elements)."""
    def f(x):
        s = x.contiguous()
        for _ in range(6):   # enough work that its two users read it stored
            s = s * 1.5 + 0.5
        return (s.unfold(3, 2, 1) * 1.0, s.sum()) + (() if dynamic else (s[:, :, :, ::2].unfold(2, 2, 1) * 1.0,))
    for shape in [(2, 3, 5, 6), (3, 3, 7, 8)][:1 + dynamic]:
        check(f, torch.randn(shape).to(memory_format=torch.channels_last), dynamic=dynamic)


def test_as_strided_of_a_slice_computed_for_it_alone(check):
    """as_strided's offset is a position in eager's storage of its argument, where a slice of a value computed in
    the graph sits past the slice's start; kiln stores a slice computed for it alone at its buffer's start.
    (w * 2)[3:] at offset 5 read six elements past it, at the first call."""
    check(lambda w: ((w * 2)[3:].as_strided((6,), (1,), 5), w.sin()[2:].as_strided((4,), (2,), 3) + 1,
                     (w * 2).view(4, 4)[:, ::2].as_strided((3, 2), (4, 2), 2) + 1), torch.randn(16))


def channels_last_read_around(x):
    s = x.contiguous()
    for _ in range(6):   # (worth storing: kiln stores it channels-last for its two users)
        s = s * 1.5 + 0.5
    return s[:, :1, :1, :1].as_strided(s.shape, s.stride(), 0) * 1.0, s.sum()


def gaps_read_around(w, m):
    y = (w * 2).view(4, 4)[:, :3]
    return y @ m, y.as_strided((2, 4), (4, 1), 0) + 1


def sharing_a_buffer(w):   # (c is a's buffer seen at offset 0: a's own reads must not be bounded by c's extent)
    a = w * 2
    c = torch.ops.aten.slice_copy(a, 0, 0, 3)
    return a[2:].as_strided((4,), (1,), 1), c[1:].as_strided((2,), (1,), 0)


@pytest.mark.parametrize("f, shapes", [
    (lambda w: (w * 2)[3:].as_strided((6,), (1,), 0) + 1, [(16,)]),   # before the slice
    (lambda w: (w * 2).view(4, 4)[:, ::2].as_strided((3, 2), (4, 1), 2) + 1, [(16,)]),   # into its gaps
    (lambda w: (w * 2).view(4, 4).t()[1:].as_strided((3, 3), (4, 1), 2) + 1, [(16,)]),   # not dense
    (channels_last_read_around, [(2, 3, 4, 5)]), (gaps_read_around, [(16,), (3, 3)]),
    (sharing_a_buffer, [(6,)])],
    ids=["before_a_slice", "into_gaps", "not_dense", "channels_last", "a_matmuls_gapped_copy", "sharing_a_buffer"])
def test_as_strided_around_its_argument_reads_the_viewed_value_stored_whole(check, f, shapes):
    """An as_strided reading eager's storage around its argument, a view of a value computed in the graph, reads
    that value stored whole as eager stores it. Stored for the argument alone, the rest of a slice's base was never
    stored; a value stored channels-last, read through s[:, :1, :1, :1] (size-1 dims hide its layout) with NCHW
    strides, was off by 50; a gapped copy made for a matmul, read into its gaps, read uninitialized memory."""
    inputs = [torch.randn(s) for s in shapes]
    if len(shapes[0]) == 4:
        inputs[0] = inputs[0].to(memory_format=torch.channels_last)
    check(f, *inputs)


def test_reads_only_elements_takes_positions_apart_into_a_gapped_layouts_indices():
    """The check that an as_strided of a buffer holding x's elements alone reads none of its gaps (else the graph
    runs eagerly): x[:, ::2] of a 4x4 row-major value, its elements at 0, 2, 4, 6, ..."""
    from kiln.ir import sym
    from kiln.lowering.values import View
    from kiln.lowering.views import reads_only_elements
    x = View(None, [sym(4), sym(2)], [sym(4), sym(2)], sym(0))
    assert reads_only_elements(sym(2), [sym(3), sym(2)], [sym(4), sym(2)], x)
    assert not reads_only_elements(sym(2), [sym(3), sym(2)], [sym(4), sym(1)], x)   # (3, 7, 11: gaps)
    assert not reads_only_elements(sym(12), [sym(2)], [sym(4)], x)   # (16: past the last row)


def test_an_output_viewing_a_computed_value_keeps_eager_storage_offset(check):
    """An output that views a value computed in the graph at a storage offset is returned at eager's offset in
    that value stored whole (check compares offsets): stored alone it sat at offset 0, and eager code reading the
    offset past a graph break ((w * 2)[3:].storage_offset() in an as_strided) read other elements."""
    def f(w):
        return (w * 2).as_strided(((w * 2).size(0) // 2,), ((w * 2).stride(0),), (w * 2)[3:].storage_offset())
    check(f, torch.randn(16))
    check(lambda w: ((w.sin() * 2)[3:], (w + 1).view(4, 4)[1:, 2:].t(), w.cos()[1:] * 1), torch.randn(16))
    check(lambda x: (x * 2).chunk(3) + (x + 1).split([1, 7], 1), torch.randn(6, 8))   # (pieces taken by getitem)


def test_as_strided_of_a_saved_activation_kiln_stored_channels_last(check_grad):
    """The same in a backward graph: the forward saved z channels-last (it reports the strides), and the backward's
    unfold was traced against eager's NCHW z; the weight's gradient was wrong."""
    def f(x, w):
        z = torch.sin(x.contiguous())
        return z.amax((2, 3)), (z.unfold(3, 2, 1) * w).sum((2, 3, 4))
    check_grad(f, torch.randn(2, 3, 5, 5).to(memory_format=torch.channels_last).requires_grad_(),
               torch.randn(2, requires_grad=True))


def test_convolution_input_read_by_as_strided(check):
    """A value stored channels-last for the convolution that reads it, and also unfolded: the rule before this
    session's made the same wrong read."""

    def f(x, w):
        z = torch.relu(x * 2)
        return torch.nn.functional.conv2d(z, w, padding=1), torch.as_strided(z, (z.numel(),), (1,))[:10] * 1.0, \
            z.diagonal(0, 2, 3) * 1.0
    with torch.no_grad():
        check(f, torch.randn(2, 3, 6, 6), torch.randn(4, 3, 3, 3))


def test_a_relaid_value_summed_whole(check):
    """A sum or mean over every dim (dim=None) of a value that CPU inference stores channels-last: the check for a
    squeeze-excite mean read the reduction's dims as a list and failed."""
    def f(x, w1, w2):
        x = x * 2
        z = torch.relu(F.conv2d(x, w1)) + F.conv2d(x, w2) * 3
        return z.sum(dim=None), z.mean(dim=None), z * 2
    with torch.no_grad():
        check(f, torch.randn(2, 3, 6, 6), torch.randn(4, 3, 3, 3), torch.randn(4, 3, 3, 3))


@pytest.mark.parametrize("offsets", [(0, 4), (4, 0)])
@pytest.mark.parametrize("form", ["as_strided", "as_strided_copy"])
def test_an_input_read_by_as_strided_at_an_explicit_offset_given_at_another_offset(offsets, form):
    """An as_strided's explicit storage offset is absolute in the storage: an input it reads, given at another
    storage offset than traced (which Dynamo guards for nothing else), compiles anew rather than reading at the
    traced one (kiln and Inductor were off by the offsets' difference: bench/results/s96/as_strided_offset.py)."""
    view = getattr(torch, form)

    def f(w, x):
        return x + view(w, (6, 6), (1, 1), 2), (x + w[:6]).sin()
    compiled = kiln.compile(f, options={"strict": True})
    x = torch.zeros(6, 6)
    for offset in offsets:
        w = (torch.arange(40.0) * (offset + 1))[offset:offset + 16]
        for got, expected in zip(compiled(w, x), f(w, x)):
            torch.testing.assert_close(got, expected)


def test_the_storage_offset_guard_passes_numbers_and_fresh_intermediates_by():
    """Only inputs whose storage an as_strided reads at an explicit offset are guarded: a Python number beside one
    (Dynamo passes it as a tensor, which has no storage offset: guarding it raised inside Dynamo) and inputs at
    new offsets each call whose values reach it through a product (fresh memory: no recompile)."""
    from torch._dynamo.utils import counters

    def scaled(w, s, x):
        return x + (w * s).as_strided((6, 6), (1, 1), 2)
    compiled = kiln.compile(scaled, options={"strict": True})
    w, x = torch.arange(40.0), torch.zeros(6, 6)
    for s in (1.5, 2.5, 3.5):
        torch.testing.assert_close(compiled(w, s, x), scaled(w, s, x))
    weight, rows = torch.randn(8, 8), torch.randn(96, 8)

    def shifted(x):
        return (x @ weight).contiguous().as_strided((4, 4), (4, 1), 2) + 1
    torch._dynamo.reset()
    counters.clear()
    compiled = kiln.compile(shifted, options={"strict": True})
    for i in range(10):
        x = rows[i * 8:(i + 1) * 8]
        torch.testing.assert_close(compiled(x), shifted(x))
    assert counters["stats"]["unique_graphs"] == 1
