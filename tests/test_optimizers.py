"""Optimizer steps compiled by kiln: the _foreach_* ops (torch's foreach OpInfos), and whole optimizer steps
(SGD, Adam, AdamW, Adagrad, RMSprop; foreach and single-tensor) against eager after several steps."""
import copy
import os

import pytest
import torch
from torch.utils._pytree import tree_map

import kiln
from tests.conftest import compare_results, kiln_compile, STRICT

pytest.importorskip("expecttest")   # torch.testing._internal's op_db needs it
from torch.testing._internal.common_methods_invocations import (  # noqa: E402
    foreach_binary_op_db, foreach_other_op_db, foreach_pointwise_op_db, foreach_reduce_op_db, foreach_unary_op_db)

# importing torch's OpInfos froze torch.backends' flags for the rest of the session (its test harness does that);
# other tests set them (test_bench's TF32 switch)
torch.backends.flags_frozen.__globals__["__allow_nonbracketed_mutation_flag"] = True

FOREACH_OPS = foreach_unary_op_db + foreach_binary_op_db + foreach_pointwise_op_db + foreach_reduce_op_db + \
    foreach_other_op_db
SAMPLES_PER_OP = 3


def distinct_samples(op):
    """Up to SAMPLES_PER_OP of the op's float32 samples, each with other kinds of arguments (a list of tensors,
    a scalar, a list of scalars, a tensor) than those before it."""
    seen, picked = set(), []
    for sample in op.sample_inputs("cpu", torch.float32):
        kinds = (tuple(type(a).__name__ if not isinstance(a, list) else f"list[{type(a[0]).__name__}]"
                       for a in sample.args), tuple(sorted(sample.kwargs)))
        if kinds not in seen and len(picked) < SAMPLES_PER_OP:
            seen.add(kinds)
            picked.append(sample)
    return picked


def fresh(x):
    return tree_map(lambda t: t.clone() if isinstance(t, torch.Tensor) else t, x)


@pytest.mark.parametrize("op", FOREACH_OPS, ids=lambda op: op.name)
def test_foreach_op_matches_eager(op):
    """Each foreach op, out of place and (where it has one) in place, lowers to kernels: no fallback op, and
    the results (or the mutated inputs) equal eager's."""
    torch._dynamo.reset()
    for sample in distinct_samples(op):
        variants = [("out of place", op.op, lambda xs, out: out)]
        if op.inplace_variant is not None and op.name not in ("_foreach_mm", "_foreach_norm", "_foreach_max"):
            variants.append(("in place", op.inplace_variant, lambda xs, out: xs))
        for what, fn, result in variants:
            def f(xs, args, kwargs):
                return result(xs, fn(xs, *args, **kwargs))
            before = kiln.stats()["fallback_ops"]
            inputs = (sample.input, list(sample.args), dict(sample.kwargs))
            try:
                expected = f(*fresh(inputs))
            except Exception:   # a sample eager rejects in this variant (an in-place op on an integer result)
                continue
            actual = kiln_compile(f)(*fresh(inputs))
            compare_results(actual, expected, what=f"{op.name} {what}")
            assert kiln.stats()["fallback_ops"] == before, f"{op.name} {what}: ran as an eager fallback"


def small_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(24, 40), torch.nn.LayerNorm(40), torch.nn.GELU(),
                               torch.nn.Linear(40, 7), torch.nn.Conv1d(7, 5, 3))


OPTIMIZERS = {
    "sgd": (torch.optim.SGD, dict(lr=0.1)),
    "sgd_nesterov": (torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-2)),
    "adam": (torch.optim.Adam, dict(lr=1e-2)),
    "adam_amsgrad": (torch.optim.Adam, dict(lr=1e-2, amsgrad=True, weight_decay=1e-2)),
    "adamw": (torch.optim.AdamW, dict(lr=1e-2, weight_decay=0.1)),
    "adagrad": (torch.optim.Adagrad, dict(lr=1e-1, weight_decay=1e-2)),
    "rmsprop": (torch.optim.RMSprop, dict(lr=1e-2, momentum=0.9, centered=True)),
}
STEPS = 5


def stepped(model, make, compiled, steps=STEPS, between=None):
    """model after `steps` optimizer steps on fixed random gradients (the same for every copy), and the
    optimizer; `compiled` wraps the step; `between(optimizer)` runs after each step (an LR scheduler's)."""
    optimizer = make(model.parameters())
    step = compiled(optimizer.step)
    g = torch.Generator().manual_seed(1)
    for _ in range(steps):
        for p in model.parameters():
            p.grad = torch.randn(p.shape, generator=g, dtype=torch.float64).to(p.dtype)
        step()
        if between:
            between(optimizer)
    return model, optimizer


def state_of(model, optimizer):
    """The parameters, then each parameter's optimizer state tensors, in a fixed order."""
    params = list(model.parameters())
    state = [v for p in params for _, v in sorted(optimizer.state[p].items()) if isinstance(v, torch.Tensor)]
    return params + state


def check_steps(make, between=None, model=None):
    model = model or small_model()
    eager = state_of(*stepped(copy.deepcopy(model), make, lambda f: f, between=between))
    ref64 = state_of(*stepped(copy.deepcopy(model).double(), make, lambda f: f, between=between))
    actual = state_of(*stepped(model, make, kiln_compile, between=between))
    compare_results(actual, eager, ref64, what="parameter or state")


@pytest.mark.parametrize("foreach", [True, False], ids=["foreach", "single_tensor"])
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_optimizer_steps_match_eager(name, foreach):
    """STEPS compiled optimizer steps leave the parameters and the optimizer state as eager's (by the fp64
    rule), with every graph compiled and no op run eagerly."""
    torch._dynamo.reset()
    cls, kwargs = OPTIMIZERS[name]
    before = kiln.stats()
    check_steps(lambda params: cls(params, foreach=foreach, **kwargs))
    after = kiln.stats()
    assert after["graphs_compiled"] > before["graphs_compiled"]
    assert after["graphs_fallback"] == before["graphs_fallback"]
    assert after["fallback_ops"] == before["fallback_ops"]


@pytest.mark.parametrize("name, foreach", [("adamw", False), ("sgd_nesterov", True)])   # (Adam's foreach path takes
def test_tensor_learning_rate_scheduled_without_recompiling(name, foreach):            # a tensor lr only capturable)
    """A learning rate held in a tensor and changed by a scheduler between steps: the compiled step reads it,
    so the steps match eager's and no step after the second compiles a graph."""
    torch._dynamo.reset()
    cls, kwargs = OPTIMIZERS[name]
    schedulers = {}

    def make(params):   # each copy its own lr tensor: the scheduler fills it in place
        optimizer = cls(params, foreach=foreach, **{**kwargs, "lr": torch.tensor(kwargs["lr"])})
        schedulers[optimizer] = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda epoch: 0.7 ** epoch)
        return optimizer
    compiled_after = []

    def between(optimizer):
        schedulers[optimizer].step()
        compiled_after.append(kiln.stats()["graphs_compiled"])
    check_steps(make, between)
    kiln_counts = compiled_after[-STEPS:]
    assert kiln_counts[1] == kiln_counts[-1], f"graphs compiled after each step: {kiln_counts}"


def traced_codes():
    """The code objects Dynamo has traced in this process."""
    from torch._dynamo.convert_frame import input_codes
    return {c() for c in input_codes.seen if c() is not None}


def train_step(model, optimizer, x, autocast):
    """The design documents' training step."""
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        loss = model(x).float().pow(2).mean()
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.detach()


@pytest.mark.parametrize("autocast", [False, True], ids=["fp32", "amp_bf16"])
def test_whole_train_step_compiled(autocast):
    """The whole step compiled at once: Dynamo splits it at the backward, kiln compiles every piece (the
    backward too, lazily, from inside the compiled frame: Dynamo traced kiln compiling it and crashed), and
    3 steps' losses and parameters pass the suite's accuracy rule against eager and fp64."""
    from kiln.tools import accuracy
    torch._dynamo.reset()

    def run(model, step, dtype=torch.float32, amp=autocast):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, foreach=True)
        x = torch.randn(16, 24, generator=torch.Generator().manual_seed(3), dtype=dtype)
        losses = [step(model, optimizer, x, amp) for _ in range(3)]
        return losses + [p.detach().clone() for p in model.parameters()]
    model = small_model()
    model[4] = torch.nn.Identity()   # (Conv1d: 2-d rows)
    before, traced_before = kiln.stats(), traced_codes()
    actual = run(copy.deepcopy(model), kiln_compile(train_step))
    eager = run(copy.deepcopy(model), train_step)
    fp64 = run(copy.deepcopy(model).double(), train_step, torch.float64, amp=False)
    error = accuracy.accuracy_error(actual, eager, fp64)
    assert error is None, error
    after = kiln.stats()
    assert after["graphs_compiled"] - before["graphs_compiled"] >= 3   # forward, backward, optimizer step
    traced_kiln = {c.co_name for c in traced_codes() - traced_before if "/kiln/" in c.co_filename}
    assert not traced_kiln, f"Dynamo traced kiln's own functions: {sorted(traced_kiln)}"
    assert after["graphs_fallback"] == before["graphs_fallback"] and after["fallback_ops"] == before["fallback_ops"]


def test_accumulated_clipped_steps_compiled():
    """Gradients accumulated over 3 micro-batches through the compiled model, clipped (clip_grad_norm_, foreach)
    and stepped in one compiled function: 3 steps pass the accuracy rule, with no graph or op run eagerly. (In
    one compiled function holding the micro-batch loop, Dynamo breaks the graph inside the loop and runs the
    frame eagerly, for every backend.)"""
    from kiln.tools import accuracy
    torch._dynamo.reset()

    def clip_and_step(model, optimizer):
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, foreach=True)
        optimizer.step()

    def run(model, compiled, dtype=torch.float32):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, foreach=True)
        forward, step = (kiln_compile(model), kiln_compile(clip_and_step)) if compiled else (model, clip_and_step)
        xs = [torch.randn(8, 24, generator=torch.Generator().manual_seed(i), dtype=dtype) for i in range(3)]
        for _ in range(3):
            optimizer.zero_grad(set_to_none=True)
            for x in xs:
                (forward(x).pow(2).mean() / len(xs)).backward()
            step(model, optimizer)
        return [p.detach().clone() for p in model.parameters()]
    model = small_model()
    model[4] = torch.nn.Identity()
    before = kiln.stats()
    actual = run(copy.deepcopy(model), True)
    error = accuracy.accuracy_error(actual, run(copy.deepcopy(model), False),
                                    run(copy.deepcopy(model).double(), False, torch.float64))
    assert error is None, error
    after = kiln.stats()
    assert after["graphs_compiled"] - before["graphs_compiled"] >= 4   # forward, backward, clipping, step
    assert after["graphs_fallback"] == before["graphs_fallback"] and after["fallback_ops"] == before["fallback_ops"]


@pytest.mark.parametrize("case", ["finite", "inf", "nan", "found_before"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_amp_unscale_and_update_scale_compiled(dtype, case):
    """GradScaler's ops, as AMP's compiled steps reach kiln (functionalized: _amp_foreach_non_finite_check_and_unscale
    and _amp_update_scale; their nested list result failed kiln's lowering, and the graph ran eagerly): gradients
    unscaled, found_inf set where any holds an inf or a NaN, and the scale backed off, kept or grown (growth to an
    infinite scale refused), exactly as eager's kernels do, with no graph or op run eagerly."""
    torch._dynamo.reset()

    def step(grads, found_inf, inv_scale, scale, tracker):
        torch._amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale)
        torch._amp_update_scale_(scale, tracker, found_inf, 2.0, 0.5, 3)
        return grads, found_inf, scale, tracker

    def inputs(tracker, scale=2.0 ** 10):
        g = torch.Generator().manual_seed(0)
        grads = [(torch.randn(*shape, generator=g) * 1000).to(dtype) for shape in ((5, 7), (3,), (2, 3, 4))]
        if case in ("inf", "nan"):
            grads[1][2] = float(case)
        found = torch.full((), 1.0 if case == "found_before" else 0.0)
        return grads, found, torch.full((), 1 / scale), torch.full((), scale), torch.full((), tracker, dtype=torch.int32)
    before = kiln.stats()
    compiled = kiln_compile(step)
    # (Triton's interpreter rounds float32 to bfloat16 toward 0: an ulp off eager's rounding to nearest)
    ulp = 2 ** -7 if dtype == torch.bfloat16 and os.environ.get("TRITON_INTERPRET") == "1" else 0
    for tracker, scale in ((0, 2.0 ** 10), (2, 2.0 ** 10), (2, 3e38)):   # kept, grown, growth past float32's range
        actual, expected = compiled(*inputs(tracker, scale)), step(*inputs(tracker, scale))
        torch.testing.assert_close(actual, expected, rtol=ulp, atol=ulp and 1e-37, equal_nan=True)
    after = kiln.stats()
    assert after["graphs_fallback"] == before["graphs_fallback"] and after["fallback_ops"] == before["fallback_ops"]


def test_grad_scaler_skips_the_step_with_an_inf_as_eager_does():
    """A GradScaler training loop around a kiln-compiled model and clipping (Dynamo runs GradScaler's own methods
    eagerly, for every backend): the step whose gradients hold an inf leaves the parameters as they were, the scale
    backs off, and the other steps' parameters pass the accuracy rule against eager's and fp64."""
    from kiln.tools import accuracy
    torch._dynamo.reset()

    def run(compiled, dtype=torch.float32):
        torch.manual_seed(0)
        model = small_model().to(dtype)
        model[4] = torch.nn.Identity()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, foreach=True)
        scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 8, growth_interval=2)

        def clip():
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, foreach=True)
        forward, clip_ = (kiln_compile(model), kiln_compile(clip)) if compiled else (model, clip)
        x = torch.randn(16, 24, generator=torch.Generator().manual_seed(3), dtype=dtype)
        seen = []
        for i in range(4):
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(forward(x).pow(2).mean()).backward()
            if i == 2:
                next(model.parameters()).grad.view(-1)[0] = float("inf")
            scaler.unscale_(optimizer)
            clip_()
            held = [p.detach().clone() for p in model.parameters()]
            scaler.step(optimizer)
            scaler.update()
            if i == 2:
                assert all(torch.equal(a, p) for a, p in zip(held, model.parameters())), "the step with an inf ran"
            seen.append(scaler.get_scale())
        return seen, [p.detach().clone() for p in model.parameters()]
    before = kiln.stats()
    (scales, actual), (eager_scales, eager) = run(True), run(False)
    assert scales == eager_scales == [2.0 ** 8, 2.0 ** 9, 2.0 ** 8, 2.0 ** 8]
    error = accuracy.accuracy_error(actual, eager, run(False, torch.float64)[1])
    assert error is None, error
    after = kiln.stats()
    assert after["graphs_fallback"] == before["graphs_fallback"] and after["fallback_ops"] == before["fallback_ops"]


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32])
def test_fma_is_exact_for_integers(dtype):
    """x.add_(y, alpha=a) with a tensor alpha traces to prims.fma (as Adam's exp_avg_sq update does): integers
    compute exactly (through a float fma, int32 2**24 + 1 lost its last bit, int64 past 2**53 too)."""
    torch._dynamo.reset()
    big = 2 ** 24 + 1 if dtype == torch.int32 else 2 ** 53 + 1
    x = torch.full((4,), big if not dtype.is_floating_point else 1.5, dtype=dtype)
    y = torch.arange(4, dtype=dtype)
    alpha = torch.tensor(3 if not dtype.is_floating_point else 0.25, dtype=dtype)
    expected = x.clone().add_(y, alpha=alpha)
    actual = kiln_compile(lambda x, y, a: x.add_(y, alpha=a))(x.clone(), y, alpha)
    assert torch.equal(actual, expected), (actual, expected)
