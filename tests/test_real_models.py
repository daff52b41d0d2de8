"""The real-model suite's small configs (kiln.tools.models) through kiln, strict: the logits, and after a
training step the loss and every parameter's gradient, against eager and an fp64 copy of the model, by
the bench's accuracy rule (kiln.tools.accuracy). The Triton interpreter runs a subset, as it is slow."""
import copy
import os

import pytest
import torch

import kiln
from kiln.tools.accuracy import Float64Throughout, accuracy_error
from kiln.tools.workloads import suite_workloads, workload

pytest.importorskip("transformers")
MODELS = suite_workloads("models")
# (MobileNetV2: kiln's depthwise convolution kernels)
UNDER_INTERPRETER = ["gpt2", "bert", "t5", "vit", "resnet", "convnext", "mobilenet_v2"]


def step(module, inputs, train):
    if not train:
        with torch.no_grad():
            return [module(*inputs)]
    for p in module.parameters():
        p.grad = None
    loss = module(*inputs)
    loss.backward()
    return [loss.detach()] + [p.grad for p in module.parameters()]


@pytest.mark.parametrize("train", [False, True], ids=["inference", "training"])
@pytest.mark.parametrize("name", MODELS)
def test_real_model(name, train):
    if os.environ.get("KILN_TARGET") == "triton" and name not in UNDER_INTERPRETER:
        pytest.skip("the Triton interpreter runs a subset of the suite")
    w = workload(name)
    module = w.make_module("cpu", torch.float32, "tiny", train)
    inputs = w.make_inputs("cpu", torch.float32, "tiny")
    with Float64Throughout():
        fp64 = step(copy.deepcopy(module).double(), [x.double() if x.is_floating_point() else x for x in inputs], train)
    eager = step(copy.deepcopy(module), inputs, train)
    before = kiln.stats()
    result = step(kiln.compile(module, options={"strict": True}), inputs, train)
    error = accuracy_error(result, eager, fp64)
    assert error is None, f"{name}: {error}"
    assert kiln.stats()["graphs_fallback"] == before["graphs_fallback"]


def test_dynamo_restarts_pass_through_kiln():
    """Under dynamic=True, AOTAutograd's pass that turns float scalars into tensors asks Dynamo to trace BERT's
    frame again (TensorifyScalarRestartAnalysis): kiln caught it as a failure and ran the graph eagerly, where
    options={"strict": True} let it through."""
    torch._dynamo.reset()
    w = workload("bert")
    module = w.make_module("cpu", torch.float32, "tiny")
    inputs = w.make_inputs("cpu", torch.float32, "tiny")
    before = kiln.stats()
    with torch.no_grad():
        result = kiln.compile(module, dynamic=True)(*inputs)
        torch.testing.assert_close(result, module(*inputs))
    assert kiln.stats()["graphs_fallback"] == before["graphs_fallback"]
    assert kiln.stats()["graphs_compiled"] > before["graphs_compiled"]


def test_timm_models_with_a_fixed_input_size_are_built_for_the_size_images(monkeypatch):
    """timm's ViT and DeiT fix their input size in their config (position embeddings for 224 x 224), so at the
    tiny and quick sizes (64 x 64) they failed on their first call; the others take any size. A stand-in timm
    records what each model was built with (timm itself is not installed where torchvision does not load)."""
    import sys
    import types

    from kiln.tools.models import TIMM_MODELS, timm_models
    built = {}

    def create_model(name, **kwargs):
        built[name] = kwargs
        return torch.nn.Identity()
    fixed = {"vit_base_patch16_224", "deit_tiny_patch16_224"}
    models = types.SimpleNamespace(
        get_pretrained_cfg=lambda name: types.SimpleNamespace(fixed_input_size=name in fixed))
    monkeypatch.setitem(sys.modules, "timm", types.SimpleNamespace(create_model=create_model, models=models))
    for w in timm_models():
        w.make_module("cpu", torch.float32, "tiny")
    assert set(built) == set(TIMM_MODELS.values())
    for name, kwargs in built.items():
        assert kwargs.get("img_size") == (64 if name in fixed else None), (name, kwargs)
