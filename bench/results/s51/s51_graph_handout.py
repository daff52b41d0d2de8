"""Session 51: CUDA graphs that hand out their outputs in the graph's memory (kiln.runtime.cuda_graphs), checked
on a GPU with real recordings: every replayed step against eager, in the patterns that must not be overwritten
(outputs held by the caller, two forwards before one backward, gradients accumulated into a handed-out gradient,
an evaluation loop across a graph break), then the suite's DistilBERT and GPT-2 training (AMP bf16) in
reduce-overhead, each replayed step against the suite's accuracy rule.
    PYTHONPATH=. python3 bench/results/s51/s51_graph_handout.py OUT.json
"""
import copy
import json
import logging
import sys

import torch

import kiln
from kiln.tools import accuracy
from kiln.tools.bench import _make_step, _references
from kiln.tools.workloads import workload

logging.basicConfig()
logging.getLogger("kiln.cudagraphs").setLevel(logging.INFO)
results = {}


def compiled(fn):
    return kiln.compile(fn, mode="reduce-overhead", options={"graph_cache": False})


def check(name, fn):
    torch._dynamo.reset()
    kiln.reset_stats()
    try:
        fn()
        results[name] = "ok"
    except AssertionError as e:
        results[name] = f"WRONG: {str(e)[:300]}"
    stats = kiln.stats()
    results[name + "_graphs"] = [stats.get("cuda_graph_recordings", 0), stats.get("cuda_graph_replays", 0)]
    print(name, results[name], results[name + "_graphs"], flush=True)


def training():
    w = torch.nn.Parameter(torch.randn(256, 1024, device="cuda"))
    def f(x):
        h = torch.tanh(x @ w)
        return (h.sin() * h).sum()
    g = compiled(f)
    for _ in range(8):
        x = torch.randn(512, 256, device="cuda")
        w.grad = None
        g(x).backward()
        got, w.grad = w.grad, None
        f(x).backward()
        torch.testing.assert_close(got, w.grad, rtol=1e-4, atol=1e-3)


def two_forwards():
    w = torch.nn.Parameter(torch.randn(256, 512, device="cuda"))
    def f(x):
        return torch.tanh(x @ w).pow(2).sum()
    g = compiled(f)
    for _ in range(6):
        x1, x2 = torch.randn(128, 256, device="cuda"), torch.randn(128, 256, device="cuda")
        w.grad = None
        (g(x1) + g(x2)).backward()
        got, w.grad = w.grad, None
        (f(x1) + f(x2)).backward()
        torch.testing.assert_close(got, w.grad, rtol=1e-4, atol=1e-3)


def accumulated():
    torch.manual_seed(0)
    model, reference = torch.nn.Linear(256, 64).cuda(), torch.nn.Linear(256, 64).cuda()
    reference.load_state_dict(model.state_dict())
    step = compiled(model)
    for i in range(8):
        if i % 2 == 0:
            model.zero_grad(set_to_none=True)
            reference.zero_grad(set_to_none=True)
        x = torch.randn(128, 256, device="cuda")
        step(x).square().sum().backward()
        reference(x).square().sum().backward()
        for p, q in zip(model.parameters(), reference.parameters()):
            torch.testing.assert_close(p.grad, q.grad, rtol=1e-4, atol=1e-3)


def eval_loop():
    w = torch.randn(512, 512, device="cuda")
    def f(x):
        y = torch.relu(x @ w).sum(0)
        torch._dynamo.graph_break()
        return y.cos() + 1
    g = compiled(f)
    xs = [torch.randn(256, 512, device="cuda") for _ in range(6)]
    with torch.no_grad():
        outs = [g(x) for x in xs]
        for x, out in zip(xs, outs):
            torch.testing.assert_close(out, f(x), rtol=1e-4, atol=1e-3)


def held_outputs():
    w = torch.randn(512, 512, device="cuda")
    def f(x):
        y = torch.relu(x @ w) + 1
        return y, y.sum(0), x.t()
    g = compiled(f)
    xs = [torch.randn(256, 512, device="cuda") for _ in range(6)]
    with torch.no_grad():
        held = [g(x) for x in xs]
        for x, outs in zip(xs, held):
            for out, expected in zip(outs, f(x)):
                torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-3)


for name, fn in [("training", training), ("two_forwards", two_forwards), ("accumulated", accumulated),
                 ("eval_loop", eval_loop), ("held_outputs", held_outputs)]:
    check(name, fn)

for model_name in ("distilbert", "gpt2"):
    w = workload(model_name)
    module = w.make_module("cuda", torch.float32, "gpu", True)
    inputs = w.make_inputs("cuda", torch.float32, "gpu")
    with accuracy.exact_float32():
        fp64, eager, nudged = _references(module, inputs, True, "bfloat16")
    torch.cuda.empty_cache()

    def suite_model():
        step = _make_step(compiled(copy.deepcopy(module)), inputs, True, "bfloat16")
        errors = []
        with accuracy.exact_float32():
            for i in range(8):
                error = accuracy.accuracy_error(step(), eager, fp64, nudged=nudged)
                errors.append(error or "ok")
        assert all(e == "ok" for e in errors), errors
    check(model_name + "_train_amp", suite_model)

json.dump(results, open(sys.argv[1], "w"), indent=1)
