"""The benchmark workloads: the design documents' examples and a few small models.

Each Workload builds its module and inputs for one size preset: "tiny" (tests), "quick" (a 2-core
CPU) or "gpu" (fills an H100). The compiler's correctness tests use them too:

    w = WORKLOADS["layer_norm"]
    model, inputs = w.make_module("cpu", torch.float32, "tiny"), w.make_inputs("cpu", torch.float32, "tiny")
    torch.testing.assert_close(kiln.compile(model)(*inputs), model(*inputs))

Weights (on the CPU) and inputs (on the device) are drawn in fp32 from fixed seeds and then cast, so
every process and dtype sees the same values.
"""
import dataclasses
import importlib
import math
from typing import Callable

import torch
import torch.nn.functional as F
from torch import nn


def manual_softmax(x):
    e = (x - x.amax(-1, keepdim=True)).exp()
    return e / e.sum(-1, keepdim=True)


def sum_loss(out):
    # low-precision outputs are summed in fp32; the fp64 reference stays in fp64
    return out.sum(dtype=torch.promote_types(out.dtype, torch.float32))


def mse_loss(out):
    return F.mse_loss(out, torch.zeros_like(out))


class SinCos(nn.Module):
    def forward(self, x):
        return torch.sin(x) ** 2 + torch.cos(x) ** 2


class Softmax(nn.Module):
    def forward(self, x):
        return manual_softmax(x)


class LayerNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim))
        self.bias = nn.Parameter(torch.randn(dim))

    def forward(self, x):
        return F.layer_norm(x, x.shape[-1:], self.weight, self.bias)


class GeluBias(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(dim))

    def forward(self, x):
        return F.gelu(x + self.bias)


class SelfAttention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        return manual_softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])) @ v


class MaskedMultiheadAttention(nn.Module):
    def __init__(self, dim, heads, seq):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.register_buffer("mask", torch.ones(seq, seq, dtype=torch.bool).triu(1))  # True: may not attend

    def forward(self, x):
        return self.attn(x, x, x, attn_mask=self.mask, need_weights=False)[0]


def batch_norm(channels):
    # random statistics and affine parameters, so that eval-mode batch norm is not the identity
    bn = nn.BatchNorm2d(channels)
    for tensor in (bn.weight, bn.bias, bn.running_mean):
        nn.init.normal_(tensor.data, std=0.5 if tensor is bn.running_mean else 1.0)
    nn.init.uniform_(bn.running_var, 0.5, 1.5)
    return bn


class ResNetBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = batch_norm(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = batch_norm(channels)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)) + x)


class MLP(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                    nn.Linear(hidden, dim))

    def forward(self, x):
        return self.layers(x)


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, heads, seq):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("causal", torch.ones(seq, seq, dtype=torch.bool).tril())

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = (y.view(b, t, self.heads, c // self.heads).transpose(1, 2) for y in self.qkv(x).split(c, dim=-1))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(c // self.heads)
        scores = scores.masked_fill(~self.causal[:t, :t], float("-inf"))
        return self.proj((manual_softmax(scores) @ v).transpose(1, 2).reshape(b, t, c))


class GPT2Block(nn.Module):
    def __init__(self, dim, heads, seq):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, heads, seq)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT2(nn.Module):
    def __init__(self, vocab, dim, heads, seq, layers=2):
        super().__init__()
        self.tokens, self.positions = nn.Embedding(vocab, dim), nn.Embedding(seq, dim)
        self.blocks = nn.Sequential(*(GPT2Block(dim, heads, seq) for _ in range(layers)))
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.tokens(idx) + self.positions(torch.arange(idx.shape[1], device=idx.device))
        return self.head(self.ln(self.blocks(x)))


class ConvNet(nn.Module):
    def __init__(self, channels, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1, bias=False), batch_norm(channels), nn.ReLU())
        self.blocks = nn.Sequential(ResNetBlock(channels), ResNetBlock(channels))
        self.head = nn.Linear(channels, classes)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)).mean((2, 3)))


@dataclasses.dataclass(frozen=True)
class Workload:
    name: str
    module: Callable[[dict], nn.Module]                           # size -> fp32 module
    inputs: Callable[[dict, torch.Generator], list[torch.Tensor]]  # size, generator -> fp32 or integer inputs
    sizes: dict[str, dict]                                        # preset name -> size
    loss: Callable[[torch.Tensor], torch.Tensor] = sum_loss      # what --train differentiates
    channels_last: bool = False

    def make_module(self, device="cpu", dtype=torch.float32, size="tiny", train=False):
        """The module in eval mode, or with train=True in train mode and returning its scalar loss."""
        torch.manual_seed(0)
        module = self.module(self.sizes[size])
        if train and not getattr(module, "steps_itself", False):   # (a training step has its own loss)
            module = WithLoss(module, self.loss)
        module = module.to(device=device, dtype=dtype).train(train)
        return module.to(memory_format=torch.channels_last) if self.channels_last else module

    def make_inputs(self, device="cpu", dtype=torch.float32, size="tiny", seed=1):
        inputs = self.inputs(self.sizes[size], torch.Generator(device).manual_seed(seed))
        inputs = [x.to(device=device, dtype=dtype) if x.is_floating_point() else x.to(device) for x in inputs]
        if self.channels_last:
            inputs = [x.contiguous(memory_format=torch.channels_last) if x.dim() == 4 else x for x in inputs]
        return inputs


class WithLoss(nn.Module):
    def __init__(self, module, loss):
        super().__init__()
        self.module, self.loss = module, loss

    def forward(self, *inputs):
        return self.loss(self.module(*inputs))


def randn(generator, *shape):
    return torch.randn(*shape, generator=generator, device=generator.device)


def rows_cols(rows, cols):
    """The size presets of a workload on one rows x cols matrix, given its quick size."""
    return {"tiny": dict(rows=8, cols=32), "quick": dict(rows=rows, cols=cols), "gpu": dict(rows=8192, cols=8192)}


def _resnet_block(channels_last):
    return Workload(
        "resnet_block_cl" if channels_last else "resnet_block",
        lambda s: ResNetBlock(s["channels"]),
        lambda s, g: [randn(g, s["batch"], s["channels"], s["hw"], s["hw"])],
        {"tiny": dict(batch=2, channels=8, hw=8), "quick": dict(batch=4, channels=64, hw=32),
         "gpu": dict(batch=64, channels=128, hw=56)},
        channels_last=channels_last)


WORKLOADS = {w.name: w for w in [
    Workload("sincos", lambda s: SinCos(), lambda s, g: [randn(g, s["rows"], s["cols"])],
             rows_cols(1024, 1024), loss=mse_loss),
    Workload("softmax", lambda s: Softmax(), lambda s, g: [randn(g, s["rows"], s["cols"])], rows_cols(2048, 1024)),
    Workload("layer_norm", lambda s: LayerNorm(s["cols"]), lambda s, g: [randn(g, s["rows"], s["cols"])],
             rows_cols(2048, 1024)),
    Workload("gelu_bias", lambda s: GeluBias(s["cols"]), lambda s, g: [randn(g, s["rows"], s["cols"])],
             rows_cols(2048, 1024)),
    Workload("self_attention", lambda s: SelfAttention(s["hidden"]),
             lambda s, g: [randn(g, s["batch"], s["seq"], s["hidden"])],
             {"tiny": dict(batch=2, seq=16, hidden=32), "quick": dict(batch=2, seq=256, hidden=256),
              "gpu": dict(batch=4, seq=1024, hidden=4096)}),
    Workload("mha_mask", lambda s: MaskedMultiheadAttention(s["dim"], s["heads"], s["seq"]),
             lambda s, g: [randn(g, s["batch"], s["seq"], s["dim"])],
             {"tiny": dict(batch=2, seq=16, dim=32, heads=2), "quick": dict(batch=2, seq=256, dim=256, heads=4),
              "gpu": dict(batch=8, seq=1024, dim=1024, heads=16)}),
    _resnet_block(channels_last=False),
    _resnet_block(channels_last=True),
    Workload("mlp", lambda s: MLP(s["dim"], s["hidden"]), lambda s, g: [randn(g, s["batch"], s["dim"])],
             {"tiny": dict(batch=8, dim=32, hidden=64), "quick": dict(batch=256, dim=512, hidden=1024),
              "gpu": dict(batch=8192, dim=2048, hidden=8192)}),
    Workload("gpt2_block", lambda s: GPT2Block(s["dim"], s["heads"], s["seq"]),
             lambda s, g: [randn(g, s["batch"], s["seq"], s["dim"])],
             {"tiny": dict(batch=2, seq=16, dim=32, heads=2), "quick": dict(batch=2, seq=128, dim=256, heads=4),
              "gpu": dict(batch=16, seq=1024, dim=768, heads=12)}),
    Workload("gpt2_small", lambda s: GPT2(s["vocab"], s["dim"], s["heads"], s["seq"]),
             lambda s, g: [torch.randint(s["vocab"], (s["batch"], s["seq"]), generator=g, device=g.device)],
             {"tiny": dict(batch=2, seq=16, dim=32, heads=2, vocab=64),
              "quick": dict(batch=2, seq=128, dim=256, heads=4, vocab=4096),
              "gpu": dict(batch=16, seq=1024, dim=768, heads=12, vocab=50257)}),
    Workload("convnet", lambda s: ConvNet(s["channels"]), lambda s, g: [randn(g, s["batch"], 3, s["hw"], s["hw"])],
             {"tiny": dict(batch=2, channels=8, hw=8), "quick": dict(batch=8, channels=32, hw=32),
              "gpu": dict(batch=128, channels=128, hw=64)}),
]}

DESIGN_EXAMPLES = ["sincos", "softmax", "layer_norm", "gelu_bias", "self_attention", "mha_mask", "resnet_block",
                   "resnet_block_cl", "mlp", "gpt2_block"]
# suite -> (workloads, size preset; None: "gpu" on CUDA, else "quick"). The models suite's workloads are the real
# models of kiln.tools.models, the optimizers suite's the training steps of kiln.tools.train_steps; each is
# imported only when asked for (transformers takes seconds to import)
SUITES = {"quick": (DESIGN_EXAMPLES, "quick"), "gpu": (DESIGN_EXAMPLES, "gpu"),
          "models": ("kiln.tools.models.real_models", None),
          "optimizers": ("kiln.tools.train_steps.training_workloads", None)}


def _registered(builder):
    """The workloads a lazy suite's builder makes, registered in WORKLOADS."""
    module, _, function = builder.rpartition(".")
    workloads = getattr(importlib.import_module(module), function)()
    WORKLOADS.update({w.name: w for w in workloads if w.name not in WORKLOADS})
    return [w.name for w in workloads]


def workload(name):
    """A workload by name: a design example, a real model or a training step (registered on first use)."""
    for names, _ in SUITES.values():
        if name not in WORKLOADS and isinstance(names, str):
            _registered(names)
    return WORKLOADS[name]


def suite_workloads(suite):
    names, _ = SUITES[suite]
    return _registered(names) if isinstance(names, str) else names
