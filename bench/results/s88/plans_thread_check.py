"""Session 88 (issue 23): a training backward's convolutions planned ahead (kiln/runtime/library_plans.py) on a GPU.
Checks that the plans are made on the thread the compiled backward runs on (torch keeps cuDNN's plans per thread),
times the first and a steady step of a stack of channels-last depthwise blocks, and compares the gradients with
eager's (fp64 reference). One JSON line.
    PYTHONPATH=. python3 bench/results/s88/plans_thread_check.py"""
import json
import threading
import time

import torch
from torch import nn

import kiln
from kiln.runtime import library_plans

seen = {}
original = library_plans.make_plans


def make_plans(calls, device):
    seen["plan_thread"] = threading.get_ident()
    started = time.perf_counter()
    original(calls, device)
    seen["planning_s"] = time.perf_counter() - started


library_plans.make_plans = make_plans


def block(c, k, stride):
    return [nn.Conv2d(c, c, k, stride, k // 2, groups=c, bias=False), nn.BatchNorm2d(c), nn.SiLU()]


torch.manual_seed(0)
model = nn.Sequential(*block(96, 3, 2), nn.Conv2d(96, 144, 1), *block(144, 5, 1),
                      *block(144, 3, 2), nn.Conv2d(144, 240, 1), *block(240, 5, 1)).cuda()
x = torch.randn(32, 96, 112, 112, device="cuda")
reference = [p.detach().double() for p in model.parameters()]


def step(m, x):
    x = x.clone().requires_grad_()
    x.register_hook(lambda g: seen.setdefault("backward_thread", threading.get_ident()) and None)
    m(x).square().mean().backward()
    torch.cuda.synchronize()
    return [p.grad.clone() for p in m.parameters()] + [x.grad]


compiled = torch.compile(model, backend="kiln", options={"strict": True})
started = time.perf_counter()
got = step(compiled, x)
first = time.perf_counter() - started
for p in model.parameters():
    p.grad = None
times = []
for _ in range(3):
    started = time.perf_counter()
    step(compiled, x)
    times.append(time.perf_counter() - started)
    for p in model.parameters():
        p.grad = None
model64 = model.double()
want = step(model64, x.double())
errors = [float((g.double() - w).abs().max() / w.abs().max().clamp_min(1e-30)) for g, w in zip(got, want)]
print("ROW " + json.dumps({"planned": kiln.stats().get("convolutions_planned_ahead", 0),
                           "same_thread": seen.get("plan_thread") == seen.get("backward_thread"),
                           "planning_s": seen.get("planning_s"), "first_step_s": first,
                           "steady_step_s": sorted(times)[1], "max_relative_error": max(errors)}))
