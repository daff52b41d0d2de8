"""The training-step suite: an optimizer's step alone over a real model's parameters, and whole training
steps (forward, backward, optimizer step) of suite models, in fp32 and with the forward under bf16 autocast.

Each is a Workload whose module runs its own step (`steps_itself`): the bench calls it with gradients on and
compiles the module whole, so Dynamo splits a whole step at the backward and every piece goes through the
backend, as `torch.compile(train_step)` does. The module returns the parameters after its step (a whole step
its loss first), which the bench checks against eager and fp64 like any output.

    kiln bench --suite optimizers                  # on the CPU: medium-sized parameter sets
    kiln bench --suite optimizers --device cuda    # GPT-2-small's and ResNet-50's parameters
"""
import contextlib

import torch
from torch import nn

from kiln.tools.workloads import sum_loss, Workload

OPTIMIZERS = {
    "adamw": lambda params: torch.optim.AdamW(params, lr=1e-3, weight_decay=0.01, foreach=True),
    "sgd": lambda params: torch.optim.SGD(params, lr=1e-2, momentum=0.9, foreach=True),
}


class OptimizerStep(nn.Module):
    """optimizer.step() over the parameters of model, whose gradients are fixed random values. (They are buffers,
    set as the gradients at each call: a deep copy of a parameter has no gradient.)"""
    steps_itself = True

    def __init__(self, model, optimizer):
        super().__init__()
        self.params = nn.ParameterList(model.parameters())
        g = torch.Generator().manual_seed(2)
        for i, p in enumerate(self.params):
            self.register_buffer(f"grad{i}", torch.randn(p.shape, generator=g) * 1e-2)
        self.optimizer = optimizer(self.params)

    def forward(self):
        for i, p in enumerate(self.params):
            p.grad = getattr(self, f"grad{i}")
        self.optimizer.step()
        return list(self.params)


class TrainStep(nn.Module):
    """A whole training step of model: zero the gradients, the loss (the forward under autocast to a low
    precision dtype if given), its backward, and the optimizer's step."""
    steps_itself = True

    def __init__(self, model, optimizer, autocast=None):
        super().__init__()
        self.model, self.optimizer, self.autocast = model, optimizer(model.parameters()), autocast

    def forward(self, *inputs):
        self.optimizer.zero_grad(set_to_none=True)
        # (no autocast context without a dtype: one with enabled=False would turn off an autocast around the step)
        with torch.autocast(inputs[0].device.type, dtype=self.autocast) if self.autocast else contextlib.nullcontext():
            loss = sum_loss(self.model(*inputs))
        loss.backward()
        self.optimizer.step()
        return [loss.detach()] + list(self.model.parameters())

    def train(self, mode=True):   # a training step trains its model, whatever mode the bench sets
        super().train(mode)
        self.model.train(True)
        return self


# the parameter sets the optimizer steps walk: GPT-2-small's (124M) and ResNet-50's (25.6M) on the GPU,
# narrower and shallower ones on the CPU; tiny for the tests
GPT2 = {"tiny": dict(n_embd=32, n_layer=1, n_head=2, vocab_size=64, n_positions=32),
        "quick": dict(n_embd=256, n_layer=4, n_head=4, vocab_size=8192, n_positions=256),
        "gpu": dict()}
RESNET50 = {"tiny": dict(embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1]),
            "quick": dict(embedding_size=32, hidden_sizes=[64, 128, 256, 512], depths=[2, 2, 2, 2]),
            "gpu": dict()}
ARCHITECTURES = {"gpt2": ("GPT2Config", "GPT2LMHeadModel", GPT2),
                 "resnet50": ("ResNetConfig", "ResNetForImageClassification", RESNET50)}


def parameters_of(architecture):
    def build(size):
        import transformers
        config_class, model_class, _ = ARCHITECTURES[architecture]
        torch.manual_seed(0)
        return getattr(transformers, model_class)(getattr(transformers, config_class)(**size["config"]))
    return build


def optimizer_workloads():
    return [Workload(f"{optimizer}_{arch}",
                     lambda s, arch=arch, optimizer=optimizer: OptimizerStep(parameters_of(arch)(s),
                                                                             OPTIMIZERS[optimizer]),
                     lambda s, g: [], {k: dict(config=c) for k, c in ARCHITECTURES[arch][2].items()})
            for optimizer in OPTIMIZERS for arch in ARCHITECTURES]


def train_step_workloads():
    """Whole AdamW steps of two suite models, fp32 and AMP-bf16."""
    from kiln.tools.models import real_models
    models = {w.name: w for w in real_models()}
    out = []
    for name in ("gpt2", "resnet"):
        for autocast in (None, torch.bfloat16):
            w = models[name]
            out.append(Workload(f"train_{name}" + ("_amp" if autocast else ""),
                                lambda s, w=w, autocast=autocast: TrainStep(w.module(s), OPTIMIZERS["adamw"], autocast),
                                w.inputs, w.sizes))
    return out


def training_workloads():
    return optimizer_workloads() + train_step_workloads()
