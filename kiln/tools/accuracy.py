"""The accuracy rule of PyTorch's own benchmark harness (torch._dynamo.utils.same, with equal_nan).

A compiled result passes if it is allclose to eager's, or if it is no further from an fp64
reference than eager is: RMSE(result, fp64) <= m * RMSE(eager, fp64) + tol / 10, with m = 2, or
3 for float16/bfloat16 results, and 3 for tensors of fewer than 1000 elements (a loss: one sample of
rounding noise, where a large tensor's RMSE averages many) and for 1x1 convolution weights' shapes, as
the harness has it. So a compiler may round differently from eager, but not worse.

On CUDA, float32 results are checked with TF32 off (`exact_float32`): cuDNN rounds convolution operands
to TF32 by default, and how far a result lands from fp64 then depends on the algorithm cuDNN picks for
a layout, not on the compiler's arithmetic (MobileNetV2's training loss: eager 0.0024 from fp64, kiln
0.0115 and Inductor 0.0133 with TF32; 1.1e-6, 3.9e-6 and 2.8e-6 without).

Eager's error is the largest of its run's and of runs on inputs, parameters and buffers each moved by one ulp
(`nudged`; the bench makes NUDGED_RUNS of them). Where rounding alone moves eager far from fp64, the output is
ill-conditioned in its dtype: a ReLU whose input is within rounding of 0 flips, and with it every gradient
upstream of it. Eager's one run is then one lucky draw that no compiler rounding differently can be held to.
timm MobileNetV3's fp32 training step on its three GPU inputs: eager's nudged runs 1.6x, 13.4x and 1.8x its
error at worst, kiln 2.1x, 13.5x and 1.5x; on the suite's input kiln failed five gradients and Inductor two.
Where eager is well conditioned, its nudged runs stay near its error, so the bound stays eager's.

A model's fp64 reference runs under `Float64Throughout()`: the model's own casts of a float64 tensor to a
narrower float are skipped. HF's norms upcast explicitly (`x.to(torch.float32).pow(2).mean(-1)` in T5 and
Llama), so a model merely converted to float64 computes those variances in float32, in eager's own kernel:
eager then shares the reference's rounding and looks more accurate than it is, and a compiler that sums in
another order fails (T5's training step: 2.7x "eager's error" on gradients behind its norms, where against
a reference in fp64 throughout kiln and eager are equally far).
"""
import contextlib
import functools
import math

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten, tree_map

LOW_PRECISION = (torch.float16, torch.bfloat16)


def tolerance(dtype: torch.dtype) -> float:
    return 1e-3 if dtype in LOW_PRECISION else 1e-4


def rmse(expected: torch.Tensor, actual: torch.Tensor) -> float:
    return torch.sqrt(torch.mean(torch.square(expected.double() - actual.double()))).item()


NARROW_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


class Float64Throughout(TorchFunctionMode):
    """Within it, .to/.type/.float/.half/.bfloat16 to a narrower float give float64, from a float64 tensor or
    an integer one: Llama's rotary embedding multiplies `inv_freq.float()` (a float64 buffer in the
    reference) by `position_ids.float()`, and a float32 operand beside a float64 one fails in a matmul."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        x = args[0] if args else None
        if isinstance(x, torch.Tensor) and (x.dtype == torch.float64 or not (x.is_floating_point() or x.is_complex())):
            if func in (torch.Tensor.float, torch.Tensor.half, torch.Tensor.bfloat16):
                return x.double()
            if func in (torch.Tensor.to, torch.Tensor.type):
                args = [torch.float64 if a in NARROW_FLOATS else a for a in args]
                if kwargs.get("dtype") in NARROW_FLOATS:
                    kwargs["dtype"] = torch.float64
        return func(*args, **kwargs)


@contextlib.contextmanager
def exact_float32():
    """float32 matmuls and convolutions in float32 on CUDA (no TF32), for the time of an accuracy check."""
    saved = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved


def nudged(t: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """A floating tensor with each element moved by one ulp, up or down at random; any other tensor as it is."""
    if not t.is_floating_point():
        return t
    up = torch.randint(0, 2, t.shape, generator=generator, device=t.device).bool()
    return torch.nextafter(t, torch.where(up, math.inf, -math.inf).to(t.dtype))


NUDGED_RUNS = 2


@functools.cache
def _decompositions():
    """Core ATen's table and the composite kernels a compiler fuses from their pieces (softmax, norms, ...: kiln's
    list; torch's own decompositions of them, not kiln's variants)."""
    from torch._decomp import core_aten_decompositions, get_decompositions

    from kiln.decompositions import EXTRA
    return {**core_aten_decompositions(), **get_decompositions(EXTRA)}


def _wide(t):
    return t.double() if isinstance(t, torch.Tensor) and t.is_floating_point() else t


class RoundedOtherwise(TorchDispatchMode):
    """Eager, with the result of every floating-point op rounded the other way: where an ATen op's float result
    is not its exact value (the op run again in float64 on the same operands), it becomes the other float next to
    that value, one ulp away; with a generator, each such element at random. An op that has a decomposition runs
    as its pieces, each rounded so, as a compiler that fuses them computes it (a log_softmax's log of its sum).

    This models a compiler that rounds float32 arithmetic otherwise, legitimately: fused, reordered. Moving the
    inputs by one ulp (`nudged`) leaves every intermediate on eager's side of a discontinuity where a compiler's
    intermediate may land on the other side: trunc(x*x / log_softmax(x*x)) whose quotient is -926.02 in fp64,
    -926.03 in eager and -925.99 with log(sum) rounded otherwise (fuzz seed 224142); a softmax's cumsum cast to
    int64, 0.99999994 or 1.0 (seed 270267); a batch norm over identical rows, eager's rounding residue 1e-6 or
    exactly 0 when the mean rounds to the rows' value (seed 293849).

    Only values that an op rounds move: a copy, a selection (where, max), trunc or an exact sum do not. Views and
    in-place or out= ops are left as they are (their results alias a tensor), and so are random ops. A
    decomposition's result is taken only where it and the op's are finite and the op's is not zero: their
    special values (an infinite weight's NaN in a batch norm, a zero's sign) are not rounding, and stay eager's."""

    def __init__(self, generator=None):
        super().__init__()
        self.generator = generator

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        schema = func._schema
        if any(r.alias_info is not None for r in schema.returns) or schema.is_mutable or \
                torch.Tag.nondeterministic_seeded in func.tags:
            return out
        outs = tree_flatten(out)[0]
        if not any(isinstance(o, torch.Tensor) and o.is_floating_point() for o in outs):
            return out
        decomposition = _decompositions().get(func)
        if decomposition is not None:
            try:
                with self:
                    pieces = decomposition(*args, **kwargs)
            except Exception:  # noqa: BLE001 (the op's result, rounded as one op)
                pieces = NotImplemented
            if pieces is not NotImplemented:
                for o, d in zip(outs, tree_flatten(pieces)[0]):
                    if isinstance(o, torch.Tensor) and o.is_floating_point() and isinstance(d, torch.Tensor) \
                            and d.shape == o.shape and d.dtype == o.dtype:
                        self._set(o, torch.where(o.isfinite() & d.isfinite() & (o != 0), d, o))
                return out
        try:
            exact = tree_flatten(func(*tree_map(_wide, args), **tree_map(_wide, kwargs)))[0]
        except Exception:  # noqa: BLE001 (no float64 kernel: eager's rounding)
            return out
        for o, e in zip(outs, exact):
            if isinstance(o, torch.Tensor) and o.is_floating_point() and isinstance(e, torch.Tensor) \
                    and e.shape == o.shape:
                e = e.double()
                moved = o.isfinite() & e.isfinite() & (e != o.double())
                if self.generator is not None:
                    moved &= torch.randint(0, 2, o.shape, generator=self.generator).bool().to(o.device)
                away = torch.nextafter(o, torch.where(e > o.double(), math.inf, -math.inf).to(o.dtype))
                self._set(o, torch.where(moved, away, o))
        return out

    @staticmethod
    def _set(o, values):
        """o's values replaced in place, so that it keeps eager's layout (a batch norm's kernel depends on it)."""
        try:
            with torch.no_grad():
                o.copy_(values)
        except RuntimeError:   # e.g. an output with overlapping memory (a zero stride): left as eager's
            pass


ROUNDED_RUNS = 3   # each op rounded otherwise, then two runs with a random half of its elements


def tensor_error(result, eager, fp64, tol=None, nudged=(), rounded=()) -> str | None:
    """Why one result tensor fails the rule, or None if it passes; tol defaults to the harness's for the dtype.
    nudged: eager's results on inputs and parameters moved by one ulp (see the module's docstring); rounded:
    eager's results with its ops rounded otherwise (RoundedOtherwise: kiln fuzz's re-check, not the bench's).
    Both bound the result as eager's run does."""
    nudged = [*nudged, *rounded]
    if result is None or eager is None:  # e.g. a missing gradient
        return None if result is None and eager is None else "None where the other has a tensor"
    if result.dtype != eager.dtype or result.shape != eager.shape:
        return f"expected {eager.dtype} {list(eager.shape)}, got {result.dtype} {list(result.shape)}"
    if not result.is_floating_point():
        # an exact value read from rounded floats (x == softmax(x), gelu(inf).to(int64)) is right where it is
        # fp64's, though eager's last bit made it differ, and anywhere between the values eager takes on its
        # input and on inputs one ulp away, where rounding moves it (fuzz seed 212646: bf16 2.75 ** prod(x * x)
        # cast to int32 is 394 in eager, 381 in fp64 and 358 and 508 one ulp away; kiln's 368 passes)
        if torch.equal(result, eager):
            return None
        runs = [eager, *(r for r in nudged if r is not None), *([fp64] if fp64.dtype == result.dtype else [])]
        values, wide = torch.stack([r.to(torch.int64) for r in runs]), result.to(torch.int64)
        if ((wide >= values.amin(0)) & (wide <= values.amax(0))).all():
            return None
        return "integer values outside those of eager, its runs one ulp away and the fp64 reference"
    tol = tolerance(result.dtype) if tol is None else tol
    if torch.allclose(eager, result, atol=tol, rtol=tol, equal_nan=True):
        return None
    # eager produced NaNs that neither fp64 nor the result has, and the result is near fp64: it beats eager
    if (eager.isnan().any() and not fp64.isnan().any() and not result.isnan().any()
            and torch.allclose(fp64.to(result.dtype), result, atol=4e-2, rtol=4e-2)):
        return None
    mask = None   # the elements ranked: all, but where eager or its rounded runs have no correct digit
    if not math.isfinite(rmse(fp64, eager)):
        # where eager is infinitely far from fp64 (its 1 where fp64 has -inf: 0 * inf, which eager's rounding
        # left as 1e-7 * inf), nothing is ranked; the rule holds on the other elements
        apart = (eager.double() - fp64.double()).abs()
        mask = apart.isfinite() | (eager.double() == fp64.double()) | (eager.isnan() & fp64.isnan())
    torn = None   # (only the fuzzer's re-check passes rounded runs)
    for run in (r for r in rounded if r is not None):
        flips = run.isinf() & eager.isfinite() | eager.isinf() & run.isfinite()
        torn = flips if torn is None else torn | flips
    if torn is not None and torn.any():
        # where eager is finite and, its ops rounded otherwise, infinite (or the reverse), the element is a
        # division by rounding noise, with no correct digit in this precision (fuzz seed 293849: a division by a
        # batch norm of identical rows, whose value is eager's rounding residue 1e-6, or exactly 0): the result
        # must be among eager's runs' values there, and is not ranked. An infinity of either sign is among them
        # where a run has one: a zero reached by cancellation (x - mean) is +0 or -0 as the formula's order has
        # it ((x - mean) * weight, or x * alpha + beta, both eager's CPU kernels), and the division's sign
        # follows it. (A NaN is not rounding: under any dispatch mode, autograd takes formulas for tensor
        # subclasses, prod's backward of a NaN beside two zeros is NaN where eager's gives 0.)
        runs = torch.stack([r.double()[torn] for r in (eager, *nudged) if r is not None])
        at = result.double()[torn]
        low = torch.where(runs.isnan(), math.inf, runs).amin(0)
        high = torch.where(runs.isnan(), -math.inf, runs).amax(0)
        if not ((at >= low) & (at <= high) | at.isinf() & runs.isinf().any(0)).all():
            return "values outside eager's runs' where rounding makes eager's values infinite or not"
        mask = ~torn if mask is None else mask & ~torn
    ranked = (lambda t: t) if mask is None else (lambda t: t[mask])  # noqa: E731
    result_error = rmse(ranked(fp64), ranked(result))
    eager_errors = [rmse(ranked(fp64), ranked(run)) for run in (eager, *nudged) if run is not None]
    eager_error = max([e for e in eager_errors if math.isfinite(e)], default=eager_errors[0])
    if math.isnan(result_error) and math.isnan(eager_error):
        return None  # not computable stably in this precision, by eager either (or nothing ranked)
    small = fp64.numel() < 1000 or (fp64.ndim == 4 and fp64.shape[-1] == fp64.shape[-2] == 1)
    multiplier = 3.0 if result.dtype in LOW_PRECISION or small else 2.0
    if fp64.numel() <= 10:
        # a scalar's (a loss's) error is one draw of rounding noise, not a mean over many: timm EfficientNet's
        # AMP loss over 5 inputs, RMSE to fp64 of eager / kiln / Inductor: .046/.083/.186, .054/.150/.311,
        # .27/.37/.43, .16/.024/.31, .41/.62/.053 (bench/NOTES.md 29). torch's `same` allows 10x for such tensors
        multiplier = 10.0
    if result_error <= multiplier * eager_error + tol / 10:  # False when result_error is NaN
        return None
    return f"RMSE to fp64 {result_error:.3g} > {multiplier:g} x eager's {eager_error:.3g} + {tol / 10:.2g}"


def accuracy_error(result, eager, fp64, tol=None, nudged=(), rounded=()) -> str | None:
    """Why the result tensors (e.g. outputs, or loss and gradients) fail the rule, or None if all pass.

    result, eager and fp64 are equally long lists of tensors; nudged and rounded, lists of eager's nudged and
    rounded-otherwise runs, each such a list.
    """
    if len(result) != len(eager) or len(eager) != len(fp64):
        return f"expected {len(eager)} tensors, got {len(result)}"
    for i, (res, ref, ref64) in enumerate(zip(result, eager, fp64)):
        error = tensor_error(res, ref, ref64, tol, [run[i] for run in nudged], [run[i] for run in rounded])
        if error:
            return f"output {i}: {error}"
    return None
