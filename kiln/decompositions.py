"""The decomposition table handed to AOTAutograd.

Core ATen's table, plus torch._decomp's decompositions of the composite ops kiln would otherwise
run eagerly (softmax, layer_norm, batch_norm, ...): their pieces fuse into one kernel each.
"""
import functools

import torch
from torch._decomp import core_aten_decompositions, get_decompositions

aten = torch.ops.aten

EXTRA = [aten._softmax, aten._log_softmax, aten._softmax_backward_data, aten._log_softmax_backward_data,
         aten.native_layer_norm, aten.native_layer_norm_backward, aten.native_batch_norm,
         aten.native_batch_norm_backward, aten._native_batch_norm_legit, aten._native_batch_norm_legit_no_training,
         aten._native_batch_norm_legit_functional, aten.native_group_norm, aten.native_group_norm_backward,
         aten.native_dropout, aten.native_dropout_backward, aten.gelu, aten.gelu_backward,
         aten.embedding_dense_backward, aten.nll_loss_forward, aten.nll_loss_backward, aten.mse_loss,
         aten.mse_loss_backward, aten.threshold_backward, aten.sigmoid_backward, aten.tanh_backward,
         aten.silu, aten.silu_backward, aten.hardtanh_backward, aten.leaky_relu, aten.leaky_relu_backward,
         aten.softplus, aten.softplus_backward, aten.elu, aten.elu_backward,
         aten.lerp, aten.logsumexp, aten.std, aten.std_mean, aten.var_mean, aten.linalg_vector_norm,
         aten._to_copy, aten.detach, aten.t, aten.transpose, aten.hardswish, aten.hardsigmoid, aten.mish,
         aten.log_sigmoid_forward, aten.binary_cross_entropy, aten.binary_cross_entropy_backward]

# Ops the OpInfo coverage sweep (kiln coverage) found running eagerly whose decompositions kiln lowers:
# views and their scatters (flip, diagonal, unfold, repeat, *_scatter), factories (arange), adaptive pooling,
# and pointwise composites. (max_pool*_with_indices is lowered directly: torch 2.11 has no decomposition.)
COVERAGE = [aten.arange, aten.repeat, aten.flip, aten.diagonal, aten.unfold, aten.dist, aten.round.decimals,
            aten.ldexp, aten.addmv, aten.adaptive_max_pool2d, aten._adaptive_avg_pool2d, aten.grid_sampler_2d, aten.uniform,
            aten.exponential, aten.narrow_copy, aten.cauchy, aten.geometric, aten.log_normal, aten.normal,
            aten.bernoulli.default, aten._batch_norm_with_update_functional, aten.unbind_copy,
            aten.adaptive_max_pool3d, aten.tril_indices, aten.triu_indices]


# the forward batch norms, for _folded_on_cpu: those that may normalize by the batch's statistics, and the eval one
BATCH_STATS_NORMS = [aten.native_batch_norm.default, aten._native_batch_norm_legit.default,
                     aten._native_batch_norm_legit.no_stats, aten._native_batch_norm_legit_functional.default,
                     aten._batch_norm_with_update_functional.default]
FORWARD_BATCH_NORMS = BATCH_STATS_NORMS + [aten._native_batch_norm_legit_no_training.default]
# batch norms that sum over the batch (training, and the backward), for _float64_on_cpu
BATCH_NORMS_WITH_SUMS = BATCH_STATS_NORMS + [aten.native_batch_norm_backward.default]


# ops kiln lowers whole in an inference graph (lowering/pointwise.py, lowering/reductions.py): each of their
# decompositions is ~8-20 ops that AOTAutograd's trace dispatches one by one (~10 ms an eval batch norm, ~5 ms a
# layer norm; HF ResNet-18 has 20 batch norms, timm's ViT-B 25 layer norms). A training graph keeps them
# decomposed: the partitioner chooses what to recompute among their pieces.
LOWERED_WHOLE_IN_INFERENCE = [aten._native_batch_norm_legit_no_training.default, aten.native_layer_norm.default]


def kiln_decompositions(inference=False):
    """The table for AOTAutograd; inference: for a graph it traces with no backward."""
    table = dict(_tagged_table())
    if inference:
        from kiln.lowering.pointwise import foreach_lowerings   # (registered on first use; lowering imports this)
        for op in LOWERED_WHOLE_IN_INFERENCE + foreach_lowerings():
            del table[op]
    return table


@functools.cache
def _tagged_table():
    return {op: _tagged(op, fn) for op, fn in _table().items()}


def _tagged(op, decomposition):
    """decomposition, marking an exception it raises with the op and the Dynamo node being traced, for the
    one warning of the eager fallback (kiln.capture.failure_site)."""
    @functools.wraps(decomposition)
    def decompose(*args, **kwargs):
        try:
            return decomposition(*args, **kwargs)
        except Exception as e:
            if not hasattr(e, "kiln_decomposition"):   # the innermost decomposition is the one that failed
                sources = torch.fx.traceback.get_current_meta().get("from_node") or [None]
                e.kiln_decomposition = (op, getattr(sources[0], "name", None))
            raise
    return decompose


@functools.cache
def _table():
    """Built once per process: core ATen's table takes ~0.1 s to collect (torch walks every registered op)."""
    table = dict(core_aten_decompositions())
    table.update(get_decompositions(EXTRA + COVERAGE))
    # kiln lowers these directly; their decompositions would only add ops. var_mean's other overloads (layer_norm's
    # decomposition calls var_mean.dim) reach var_mean.correction without theirs, whose lowering takes the mean
    # with the variance's shift: a row of identical values has exactly its value as the mean (sum / n is off by
    # rounding, and layer_norm of a constant row gave 3e-6, not 0: fuzz seed 93922).
    for op in (aten._to_copy.default, aten.var_mean.correction, aten.var_mean.dim, aten.var_mean.default,
               aten.roll.default, aten.slice_backward.default, aten.addcmul.default, aten.addcdiv.default,
               aten.index_add.default, aten.index_copy.default):
        table.pop(op, None)
    # torch's decomposition returns the attention probabilities where the op returns its logsumexp; the
    # backward (_scaled_dot_product_flash_attention_for_cpu_backward) reads them as a logsumexp and gives
    # wrong gradients. The op and its backward stay library calls (lowering.EXTERNS).
    table.pop(aten._scaled_dot_product_flash_attention_for_cpu.default, None)
    for op in BATCH_NORMS_WITH_SUMS:
        table[op] = _float64_on_cpu(table[op])
    # (outside the float64 one: it folds by the input's layout, which a float64 copy of a strided view loses)
    for op in FORWARD_BATCH_NORMS:
        table[op] = _folded_on_cpu(op, table[op])
    for op, running_mean_out in ((aten._native_batch_norm_legit_functional.default, 3),
                                 (aten._batch_norm_with_update_functional.default, 4)):
        table[op] = _round_batch_mean_like_cpu(table[op], running_mean_out)
    table[aten.native_layer_norm.default] = _zero_bias_layer_norm(table[aten.native_layer_norm.default])
    for op in (aten.index_fill.int_Scalar, aten.index_fill.int_Tensor):
        table[op] = _index_fill_from_the_end(table[op])
    for op in ROW_MAJOR_IN_EAGER:
        table[op] = _row_major(table[op])
    table.update(_foreach_table())
    table[aten._amp_foreach_non_finite_check_and_unscale.default] = _amp_unscale
    table[aten._amp_update_scale.default] = _amp_update_scale
    return table


# ops whose eager kernels return a row-major result whatever their inputs' layouts, where the decomposition's follows
# an input's: a view of the result that eager allows (WavLM's position_bias.repeat(...).view(...) of a permuted
# bias) failed to trace on it, and the graph ran eagerly
ROW_MAJOR_IN_EAGER = [aten.repeat.default, aten.baddbmm.default]


def _row_major(decomposition):
    """decomposition with its result laid out row-major, as the op's eager kernel lays it out (a copy where it is
    not: kiln fuses it into the kernel that computes it)."""
    @functools.wraps(decomposition)
    def row_major(*args, **kwargs):
        return decomposition(*args, **kwargs).contiguous()
    return row_major


def _amp_unscale(grads, found_inf, inv_scale):
    """GradScaler's unscale_: each gradient times inv_scale (in float32 at least, rounded once: a 0-d tensor does
    not promote), and found_inf set to 1 where any gradient holds an inf or a NaN, as eager's kernel does."""
    nonfinite = [torch.logical_not(torch.isfinite(g)).any() for g in grads]
    found = found_inf
    if nonfinite:
        found = torch.where(torch.stack(nonfinite).any(), torch.ones_like(found_inf), found_inf)
    return [g * inv_scale for g in grads], found


def _amp_update_scale(scale, growth_tracker, found_inf, growth_factor, backoff_factor, growth_interval):
    """GradScaler's update: after a step with infs the scale backs off and the count of good steps restarts; after
    growth_interval good steps it grows, unless that would make it infinite. The factors multiply in double and
    the product is rounded once, as eager's CPU kernel does (its CUDA kernel multiplies in float: the same for
    factors float holds exactly, as GradScaler's defaults 2.0 and 0.5)."""
    found = found_inf != 0
    successful = growth_tracker + 1
    grows = successful == growth_interval
    grown, backed_off = ((scale.double() * f).to(scale.dtype) for f in (growth_factor, backoff_factor))   # (as eager)
    new_scale = torch.where(found, backed_off, torch.where(grows & torch.isfinite(grown), grown, scale))
    return new_scale, torch.where(found | grows, torch.zeros_like(growth_tracker), successful)


# the per-tensor function of a foreach op not named torch.<its name without _foreach_>
FOREACH_PER_TENSOR = {
    "zero": torch.zeros_like, "copy": aten.copy.default, "max": torch.amax,
    "norm": lambda t, ord=2, dtype=None: torch.linalg.vector_norm(t, ord, dtype=dtype),
    "maximum.Scalar": torch.clamp_min, "maximum.ScalarList": torch.clamp_min,
    "minimum.Scalar": torch.clamp_max, "minimum.ScalarList": torch.clamp_max,
    "addcmul": lambda s, a, b, value=1: torch.addcmul(s, a, b, value=value),
    "addcdiv": lambda s, a, b, value=1: torch.addcdiv(s, a, b, value=value),
    # value: the index's element of a tensor, which torch.addcmul does not take; computed in float32 at least and
    # rounded once, as eager's foreach kernels do
    "addcmul.Tensor": lambda s, a, b, value: _in_opmath(lambda s, a, b: s + value * (a * b), s, a, b),
    "addcdiv.Tensor": lambda s, a, b, value: _in_opmath(lambda s, a, b: s + value * (a / b), s, a, b),
}


def _in_opmath(fn, *tensors):
    wide = torch.promote_types(tensors[0].dtype, torch.float32)
    return fn(*(t.to(wide) for t in tensors)).to(tensors[0].dtype)


def _foreach_table():
    """The functional _foreach_* ops (what functionalization leaves of optimizers' in-place ones) as their per-tensor
    op applied at each index: the list arguments, and addcmul/addcdiv's tensor of per-index scalars, are indexed;
    the other arguments are shared. Each parameter's update then fuses like any pointwise chain, and the
    scheduler's launch groups walk many parameters in one launch. (_foreach_powsum has no per-tensor op and runs
    eagerly.) Inference graphs keep whole those that lowering applies per tensor (foreach_per_tensor_ops)."""
    return {op: _foreach(op, per_tensor) for op, per_tensor in _foreach_per_tensor().items()}


@functools.cache
def _foreach_per_tensor():
    """{functional _foreach_* op: the function it applies at each index}."""
    table = {}
    for schema in torch._C._jit_get_all_schemas():
        name = schema.name
        if not name.startswith("aten::_foreach_") or name.endswith("_") or schema.overload_name.endswith("out"):
            continue
        base = name[len("aten::_foreach_"):]
        packet = getattr(aten, "_foreach_" + base)
        op = getattr(packet, schema.overload_name or "default")
        key = f"{base}.{schema.overload_name}"
        per_tensor = FOREACH_PER_TENSOR.get(key) or FOREACH_PER_TENSOR.get(base) or getattr(torch, base, None)
        if per_tensor is not None:
            table[op] = per_tensor
    return table


def _indexed(op):
    return {a.name for a in op._schema.arguments if isinstance(a.type, torch.ListType) or a.name == "scalars"}


def at_index(op, args, kwargs):
    """A function of an index i: the arguments of op's per-tensor function at i, (positional, keywords) by the
    foreach op's argument names; and the number of indices."""
    arguments = op._schema.arguments
    indexed = _indexed(op)
    named = {**dict(zip((a.name for a in arguments), args)), **kwargs}
    count = len(next(v for k, v in named.items() if k in indexed))
    positional = [a.name for a in arguments if not a.kwarg_only and a.name in named]
    keywords = [a.name for a in arguments if a.kwarg_only and a.name in named]

    def at(i):
        def value(name):
            return named[name][i] if name in indexed else named[name]
        return [value(n) for n in positional], {n: value(n) for n in keywords}
    return at, count


def _foreach(op, per_tensor):
    def foreach(*args, **kwargs):
        at, count = at_index(op, args, kwargs)
        return [per_tensor(*positional, **keywords) for positional, keywords in map(at, range(count))]
    return foreach


@functools.cache
def foreach_per_tensor_ops():
    """{functional _foreach_* op: (the one ATen op its per-tensor function calls, how that op's arguments are made
    from the per-tensor function's)} where the function is one ATen op on float tensors. An argument is ("arg",
    position) or ("arg", keyword) of the per-tensor function, or ("const", value) that the function passes whatever
    it is given. Found by calling each function twice on meta tensors and distinct scalars, recording what it
    dispatches: a function that computes anything from a scalar, or calls two ops, is left out."""
    found = {}
    for op, per_tensor in _foreach_per_tensor().items():
        probes = [_probe(op, per_tensor, first) for first in (0.3125, 0.6875)]
        if probes[0] is not None and probes[0] == probes[1]:
            found[op] = probes[0]
    return found


def _probe(op, per_tensor, first):
    """(overload, positional, keywords) that per_tensor dispatches at index 0 of made-up arguments, each dispatched
    value traced back to the argument it came from; None where it is not one op, or an argument cannot be made."""
    from torch.utils._python_dispatch import TorchDispatchMode
    scalars = iter(first + k / 64 for k in range(64))
    indexed = _indexed(op)
    args = []
    for a in op._schema.arguments:
        kind = a.type.getElementType() if isinstance(a.type, torch.ListType) else a.type
        if isinstance(kind, torch.OptionalType):
            return None
        if isinstance(kind, torch.TensorType):   # an element of a list, a tensor of per-index scalars, or a 0-d one
            value = torch.empty((2, 3) if isinstance(a.type, torch.ListType) else (2,) if a.name in indexed else (),
                                device="meta")
        elif kind.kind() in ("NumberType", "FloatType"):
            value = next(scalars)
        else:
            return None
        args.append([value] if isinstance(a.type, torch.ListType) else value)
    calls = []

    class Recording(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, call_args=(), call_kwargs=None):
            calls.append((func, call_args, call_kwargs or {}))
            # (not run: a tensor stands for its result; a function that goes on computing with it calls a second op)
            return torch.empty(0, device="meta")
    at, _ = at_index(op, args, {})
    positional, keywords = at(0)
    try:
        with Recording():
            per_tensor(*positional, **keywords)
    except Exception:
        return None
    if len(calls) != 1:
        return None
    func, call_args, call_kwargs = calls[0]
    given = list(enumerate(positional)) + list(keywords.items())

    def source(value):
        for where, v in given:
            if v is value or type(v) is float and type(value) is float and v == value:
                return ("arg", where)
        return None if isinstance(value, torch.Tensor) else ("const", value)   # (a tensor the function made)
    spelled = [source(v) for v in call_args], {k: source(v) for k, v in call_kwargs.items()}
    if None in spelled[0] or None in spelled[1].values():
        return None
    return func, tuple(spelled[0]), tuple(sorted(spelled[1].items()))


def _zero_bias_layer_norm(decomposition):
    """Eager's layer_norm adds a zero bias when it has none, so a row equal to its mean is +0.0 whatever the
    weight's sign; the decomposition's (x - mean) * rstd * weight is -0.0 for a negative weight (1 / it was
    -inf: fuzz seed 71666). (Eager's batch_norm and group_norm keep -0.0, as their decompositions do.)"""
    def layer_norm(input, normalized_shape, weight, bias, eps):
        out, *stats = decomposition(input, normalized_shape, weight, bias, eps)
        return (out + 0.0 if bias is None and weight is not None else out, *stats)
    return layer_norm


def _index_fill_from_the_end(decomposition):
    """index_fill counts a negative index from the end (index_add and index_copy raise on one): its decomposition
    goes through index_copy, which kiln lowers with eager's index_copy's check, so the index is wrapped first."""
    def index_fill(x, dim, index, value):
        size = x.shape[dim] if x.dim() else 1
        return decomposition(x, dim, torch.where(index < 0, index + size, index), value)
    return index_fill


def _float64_on_cpu(decomposition):
    """A float32 batch norm on the CPU, computed in float64 and rounded back: ATen's CPU kernels sum its
    statistics and its gradient's sums in double. kiln's float sums left the variance 3-5x further from fp64
    than eager's, enough to flip the ReLU after it at elements within rounding of 0, and each flip moves every
    gradient upstream (MobileNetV2's training step on CPU: its loss 5x, and 31 gradients past the bound).
    The float64 values live in registers: fused kernels read and write float32."""
    def norm(first, *rest, **kwargs):   # first: the input, or the backward's grad_out
        if first.device.type != "cpu" or first.dtype != torch.float32:
            return decomposition(first, *rest, **kwargs)
        wide = lambda t: t.double() if isinstance(t, torch.Tensor) and t.dtype == torch.float32 else t  # noqa: E731
        outs = decomposition(wide(first), *map(wide, rest), **{k: wide(v) for k, v in kwargs.items()})
        return tuple(o.float() if isinstance(o, torch.Tensor) and o.dtype == torch.float64 else o for o in outs)
    return norm


def _folded_on_cpu(op, decomposition):
    """A batch norm's output on the CPU as ATen's CPU kernel computes it for a contiguous or channels-last input
    (_cpu_kernel_folds): the statistics folded into one scale and shift per channel, x * alpha + beta with
    alpha = weight * invstd and beta = bias - mean * alpha, in the input's computation dtype. The decomposition's
    (x - mean) * invstd * weight + bias is the same value up to rounding, but not where the parameters are not
    finite: an infinite weight gives eager NaN (-inf + inf) where it gave -inf, and an argmax
    over the channels picked another one (fuzz seed 172806). CUDA eager computes as the decomposition does.
    The statistics are the batch's in training (the decomposition's, taken in its computation dtype: CPU eager
    returns a bf16 input's rounded to bf16), the running ones in eval mode."""
    names = [a.name for a in op._schema.arguments]

    def norm(input, *rest, **kwargs):
        if input.device.type != "cpu" or not _cpu_kernel_folds(input):
            return decomposition(input, *rest, **kwargs)
        a = {**dict(zip(names[1:], rest)), **kwargs}
        acc = torch._prims_common.get_computation_dtype(input.dtype)
        outs = list(decomposition(input.to(acc), *rest, **kwargs))
        if a.get("training", op != aten._native_batch_norm_legit_no_training.default):
            mean, invstd = outs[1], outs[2]
        else:
            mean, invstd = a["running_mean"].to(acc), 1 / torch.sqrt(a["running_var"].to(acc) + a["eps"])
        weight, bias = a["weight"], a["bias"]
        alpha = invstd if weight is None else invstd * weight.to(acc)
        beta = (0 if bias is None else bias.to(acc)) - mean * alpha
        channels = [1, -1] + [1] * (input.dim() - 2)
        outs[0] = (input.to(acc) * alpha.view(channels) + beta.view(channels)).to(input.dtype)
        outs[1], outs[2] = outs[1].to(input.dtype), outs[2].to(input.dtype)   # as the decomposition of the input's
        return tuple(outs)
    return norm


def _cpu_kernel_folds(input):
    """Whether ATen's CPU batch norm folds for this input: its contiguous and channels-last kernels do; an input
    of any other layout (a strided view) takes its generic kernel, (x - mean) * invstd * weight + bias, as the
    decomposition (fuzz seed 230214: an infinite weight over x[::2] is +-inf in eager, NaN folded)."""
    formats = {4: torch.channels_last, 5: torch.channels_last_3d}
    return input.is_contiguous() or input.dim() in formats and input.is_contiguous(memory_format=formats[input.dim()])


def _round_batch_mean_like_cpu(decomposition, running_mean_out):
    """CPU eager rounds a bf16 batch's mean to bf16 before blending it into the running mean; torch's decomposition
    blends the fp32 mean, one bf16 step off eager at times. Re-blend with the rounded mean. (fp16 and CUDA eager
    blend the fp32 mean, as the decomposition does.)"""
    def batch_norm(input, weight, bias, running_mean, running_var, *rest):
        outs = list(decomposition(input, weight, bias, running_mean, running_var, *rest))
        training, momentum = (True, rest[0]) if len(rest) == 2 else rest[:2]
        if training and input.device.type == "cpu" and input.dtype == torch.bfloat16:
            rounded_mean = outs[1].to(input.dtype).to(outs[1].dtype)
            blend = momentum * rounded_mean + (1 - momentum) * running_mean
            outs[running_mean_out] = blend.to(outs[running_mean_out].dtype)
        return tuple(outs)
    return batch_norm
