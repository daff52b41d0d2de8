"""Elementwise ops, copies, and the tensors made from nothing: full, iota, random draws."""
import functools
import math

import sympy
import torch
from torch._prims_common import ELEMENTWISE_TYPE_PROMOTION_KIND, elementwise_dtypes
from torch._subclasses.fake_tensor import unset_fake_temporarily

from kiln import ir
from kiln.decompositions import at_index, foreach_per_tensor_ops
from kiln.ir import ops, sym
from kiln.lowering.values import as_lazy, current, is_tensor, Lazy, LOWERINGS, register, View

aten = torch.ops.aten
prims = torch.ops.prims


def opmath(dtype):
    return torch.float32 if ir.dtype_is_low_precision(dtype) else dtype


def broadcasts(s, full):
    """Whether a dim of size s is broadcast against one of size full: s is 1, or a symbolic size that the trace
    found to be 1 where full is another size (x[2::3] of a 5-long x against x: torch broadcast it and guarded
    (s0 + 1) // 3 == 1; read as s0 long, it read past x's end)."""
    return s == 1 or (isinstance(s, sympy.Expr) and bool(s.free_symbols) and ir.expand(s - full) != 0
                      and current().size_hint(s) == 1)


def broadcast_index(idx, sizes, full_sizes):
    """The index into a tensor of sizes, right-aligned under an index idx over full_sizes."""
    lead = len(full_sizes) - len(sizes)
    return [sympy.Integer(0) if broadcasts(s, n) else i for i, s, n in zip(idx[lead:], sizes, full_sizes[lead:])]


def as_value(x, idx, out_sizes, dtype):
    """x (tensor or scalar) at output index idx, broadcast and cast to dtype."""
    if is_tensor(x):
        v = x.load(broadcast_index(idx, x.sizes, out_sizes))
        return v if x.dtype == dtype else ops.to_dtype(v, dtype, x.dtype)
    if isinstance(x, sympy.Expr) and not x.is_number:
        src = torch.int64 if x.is_integer else torch.float64   # (a float is a symbol: see float_scalar)
        return ops.to_dtype(ops.index_expr(x, src), dtype, src)
    return ops.constant(x, dtype)


def promoted(*args, kind=ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT):
    """The dtype eager computes in, from type promotion over tensors and scalars."""
    def fake(a):
        if is_tensor(a):
            return torch.empty([1] * len(a.sizes), dtype=a.dtype, device="meta")
        if isinstance(a, sympy.Expr):
            return 1 if a.is_integer else 1.0
        return a
    fakes = [fake(a) for a in args if a is not None]
    return elementwise_dtypes(*fakes, type_promotion_kind=kind)[0]


def pointwise_value(out, fn, *args, compute=None):
    """A Lazy computing fn over broadcast args in `compute` dtype, then cast to the output dtype."""
    sizes = [sym(s) for s in out.shape]
    compute = compute or (opmath(out.dtype) if out.dtype != torch.bool else promoted(*args))
    tensors = [a for a in args if is_tensor(a)]

    def loader(idx):
        result = fn(*[as_value(a, idx, sizes, compute) if a is not None else None for a in args])
        produced = getattr(fn, "result_dtype", None) or compute
        return result if produced == out.dtype else ops.to_dtype(result, out.dtype, produced)

    return Lazy(sizes, out.dtype, out.device, loader, 1 + sum(t.opcount for t in tensors))


def boolean(fn):
    fn.result_dtype = torch.bool
    return fn


def pointwise(targets, fn):
    """Register elementwise ops: `fn` takes ops values (and keyword scalars) and returns one."""
    def lower(out, *args, **kwargs):
        def body(*values):
            return fn(*values, **kwargs)
        body.result_dtype = getattr(fn, "result_dtype", None)
        return pointwise_value(out, body, *args)
    register(*targets)(lower)


def ops_fn(name):
    return lambda *values: getattr(ops, name)(*values)


UNARY = ["abs", "neg", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos",
         "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc",
         "lgamma", "floor", "ceil", "trunc", "sigmoid", "reciprocal", "bitwise_not", "relu", "round"]
for _name in UNARY:
    pointwise([getattr(aten, _name).default], ops_fn(_name))
pointwise([aten.logical_not.default], boolean(lambda x: ops.logical_not(x)))
pointwise([aten.isnan.default], boolean(lambda x: ops.isnan(x)))
pointwise([aten.isinf.default], boolean(lambda x: ops.isinf(x)))
pointwise([aten.signbit.default], boolean(lambda x: ops.signbit(x)))


@register(aten.sign.default)
def lower_sign(out, x):
    """(x > 0) - (x < 0), as eager computes it: NaN and -0.0 give 0."""
    if out.dtype == torch.bool:
        return x
    compute = opmath(out.dtype)

    def fn(v):
        zero = ops.constant(0, compute)
        return ops.sub(ops.to_dtype(ops.gt(v, zero), compute, torch.bool),
                       ops.to_dtype(ops.lt(v, zero), compute, torch.bool))
    return pointwise_value(out, fn, x, compute=compute)

BINARY = {"mul": "mul", "maximum": "maximum", "minimum": "minimum", "atan2": "atan2", "remainder": "remainder",
          "fmod": "fmod", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
          "bitwise_xor": "bitwise_xor", "bitwise_left_shift": "lshift", "bitwise_right_shift": "rshift",
          "copysign": "copysign", "hypot": "hypot", "floor_divide": "floordiv"}
for _aten_name, _op in BINARY.items():
    packet = getattr(aten, _aten_name)
    pointwise([getattr(packet, o) for o in packet.overloads() if "out" not in o], ops_fn(_op))


def shares_out(node):
    """Whether an FX mul node is mask * (grad / mask.sum()), evenly_distribute_backward's traced spelling (the
    backward of max(), min(), median()). Eager's CPU kernel puts the share into the selected elements only, so
    the others stay 0 even where the share is NaN or inf; NaN * 0 would spread a NaN grad to every element.
    (amax's backward, (grad / mask.sum(dims, keepdim)) * mask, multiplies in eager too: it keeps its mul.)"""
    if node.target is not aten.mul.Tensor:   # (a foreach op's mul, lowered per tensor)
        return False
    mask, share = node.args
    total = share.args[1] if isinstance(share, torch.fx.Node) and share.target is aten.div.Tensor else None
    return (isinstance(mask, torch.fx.Node) and getattr(mask.meta.get("val"), "dtype", None) == torch.bool
            and isinstance(total, torch.fx.Node) and total.target in (aten.sum.dim_IntList, aten.sum.default)
            and total.args[0] is mask and total.args[1:2] in ((), ([],), (None,)) and len(total.args) <= 2
            and not total.kwargs.get("keepdim"))   # a sum over every dim


@register(aten.mul.Tensor)
def lower_mul(out, a, b):
    if not shares_out(current().current_node):
        return pointwise_value(out, ops.mul, a, b)
    compute = opmath(out.dtype)
    return pointwise_value(out, lambda m, v: ops.where(ops.ne(m, ops.constant(0, compute)), v,
                                                       ops.constant(0, compute)), a, b)


for _aten_name in ("eq", "ne", "lt", "le", "gt", "ge"):
    packet = getattr(aten, _aten_name)
    pointwise([getattr(packet, o) for o in packet.overloads() if "out" not in o], boolean(ops_fn(_aten_name)))


def _logical(name):
    """Logical ops see their operands as bools (nonzero, NaN included, is true): xor of 0.5 and 0.3 is false."""
    def lower(out, *args):
        return pointwise_value(out, boolean(ops_fn(name)), *args, compute=torch.bool)
    return lower


for _aten_name in ("logical_and", "logical_or", "logical_xor"):
    packet = getattr(aten, _aten_name)
    register(*[getattr(packet, o) for o in packet.overloads() if "out" not in o])(_logical(_aten_name))


SMALL_POWERS = {2: lambda x: ops.mul(x, x), 3: lambda x: ops.mul(ops.mul(x, x), x), 1: lambda x: x,
                0.5: lambda x: ops.sqrt(x), -0.5: lambda x: ops.rsqrt(x), -1: lambda x: ops.reciprocal(x)}


@register(aten.pow.Tensor_Tensor, aten.pow.Tensor_Scalar, aten.pow.Scalar)
def lower_pow(out, base, exponent):
    """Common constant exponents become multiplies and roots: cheaper than pow, and exact where pow is."""
    if is_tensor(base) and not is_tensor(exponent) and exponent in SMALL_POWERS and (
            out.dtype.is_floating_point or exponent in (1, 2, 3)):
        return pointwise_value(out, SMALL_POWERS[exponent], base)
    return pointwise_value(out, lambda a, b: ops.pow(a, b), base, exponent)


def _add_or_sub(op):
    def lower(out, a, b, alpha=1):
        return pointwise_value(out, lambda x, y, *al: getattr(ops, op)(x, y if not al else ops.mul(y, al[0])), a, b,
                               *([] if alpha == 1 else [alpha]))
    return lower


register(aten.add.Tensor, aten.add.Scalar)(_add_or_sub("add"))
register(aten.sub.Tensor, aten.sub.Scalar)(_add_or_sub("sub"))


def _add_product(op):
    """addcmul and addcdiv whole, in their decompositions' arithmetic (torch._refs): self + (value * a) * b and
    self + (value * a) / b, in the promoted dtype's opmath, rounded once."""
    def lower(out, s, a, b, value=1):
        return pointwise_value(out, lambda s, a, b, v: ops.add(s, getattr(ops, op)(ops.mul(v, a), b)), s, a, b, value)
    return lower


register(aten.addcmul.default)(_add_product("mul"))
register(aten.addcdiv.default)(_add_product("truediv"))


@register(aten.div.Tensor, aten.div.Scalar, aten.div.Tensor_mode, aten.div.Scalar_mode)
def lower_div(out, a, b, rounding_mode=None):
    if rounding_mode is None:
        return pointwise_value(out, ops.truediv, a, b)
    compute = promoted(a, b)
    cpu = out.device.type == "cpu"
    single_divisor = not is_tensor(b) or ir.static_numel(b.sizes) == 1
    # eager's bf16/fp16 kernels compute each step in the dtype: the CPU's floor and trunc division and CUDA's trunc
    # (CUDA's floor division computes in float32, as kiln's helper). CPU eager divides by a single value (a scalar,
    # a 0-dim or one-element tensor) in float32 instead, with the value as given (a float32 0-dim tensor beside a
    # bf16 one is not rounded), and rounds once
    in_the_dtype = (rounding_mode == "trunc" or cpu) and not (cpu and single_divisor)
    if ir.dtype_is_low_precision(out.dtype) and in_the_dtype:
        op = functools.partial(floordiv_rounded if rounding_mode == "floor" else truncdiv_rounded, dtype=out.dtype)
    else:
        op = ops.floordiv if rounding_mode == "floor" else ops.truncdiv
    return pointwise_value(out, op, a, b, compute=opmath(compute))


def rounded_to(dtype):
    return lambda v: ops.to_dtype(ops.to_dtype(v, dtype), opmath(dtype))


def truncdiv_rounded(x, y, dtype):
    """x / y truncated, as eager's bf16/fp16 kernel: the quotient rounded to the dtype first (112.78 -> 113)."""
    return ops.trunc(rounded_to(dtype)(ops.truediv(x, y)))


def floordiv_rounded(x, y, dtype):
    """x // y as eager's bf16/fp16 CPU kernel: div_floor_floating (the float formula of the kiln_floordiv
    helpers), each step computed in the dtype's arithmetic."""
    r, f = rounded_to(dtype), opmath(dtype)
    zero, one = ops.constant(0.0, f), ops.constant(1.0, f)
    mod = ops.fmod(x, y)   # exact
    div = r(ops.truediv(r(ops.sub(x, mod)), y))
    mod_sign_differs = ops.logical_and(ops.ne(mod, zero), ops.ne(ops.lt(y, zero), ops.lt(mod, zero)))
    div = ops.where(mod_sign_differs, r(ops.sub(div, one)), div)
    q = ops.floor(div)
    q = ops.where(ops.gt(ops.sub(div, q), ops.constant(0.5, f)), r(ops.add(q, one)), q)
    quotient = r(ops.truediv(x, y))
    q = ops.where(ops.eq(div, zero), ops.copysign(zero, quotient), q)
    return ops.where(ops.eq(y, zero), quotient, q)


@register(aten.where.self, aten.where.ScalarSelf, aten.where.ScalarOther, aten.where.Scalar)
def lower_where(out, cond, a, b):
    compute = opmath(out.dtype)
    sizes = [sym(s) for s in out.shape]
    return Lazy(sizes, out.dtype, out.device, lambda idx: ops.to_dtype(ops.where(
        as_value(cond, idx, sizes, torch.bool), as_value(a, idx, sizes, compute), as_value(b, idx, sizes, compute)),
        out.dtype, compute), 1 + sum(x.opcount for x in (cond, a, b) if is_tensor(x)))


def lower_clamp(out, x, lo=None, hi=None):
    def fn(v, *bounds):
        bounds = list(bounds)
        if lo is not None:
            v = ops.maximum(v, bounds.pop(0))
        if hi is not None:
            v = ops.minimum(v, bounds.pop(0))
        return v
    return pointwise_value(out, fn, x, *[b for b in (lo, hi) if b is not None])


register(aten.clamp.default, aten.clamp.Tensor, aten.clamp_min.default, aten.clamp_min.Tensor)(lower_clamp)
register(aten.clamp_max.default, aten.clamp_max.Tensor)(lambda out, x, hi: lower_clamp(out, x, None, hi))
register(aten.hardtanh.default)(lambda out, x, lo=-1.0, hi=1.0: lower_clamp(out, x, lo, hi))


@register(aten.alias.default)
def lower_alias(out, x):
    return x


@register(aten._to_copy.default, aten.clone.default, aten.lift_fresh_copy.default,
          prims.convert_element_type.default, aten.contiguous.default)
def lower_copy(out, x, *args, **kwargs):
    if not is_tensor(x) or out.device != x.device:
        return NotImplemented
    sizes = [sym(s) for s in out.shape]
    widens = isinstance(x, Lazy) and list(x.sizes) == sizes and x.dtype.is_floating_point and \
        out.dtype.is_floating_point and out.dtype.itemsize > x.dtype.itemsize
    return Lazy(sizes, out.dtype, out.device, lambda idx: as_value(x, idx, sizes, out.dtype), x.opcount + 1,
                widens=x if widens else None)


@register(aten.copy.default)
def lower_functional_copy(out, dst, src, non_blocking=False):
    return lower_copy(out, src)


@register(aten.copy_.default)
def lower_copy_into_input(out, dst, src, non_blocking=False):
    """An input mutation that AOTAutograd keeps in the graph (batch norm's running stats): src is stored
    straight into the input's memory. The scheduler orders that store after every read of the old value."""
    g = current()
    whole = isinstance(dst, View) and isinstance(dst.buffer, ir.InputBuffer) and dst.offset == 0 and \
        list(dst.sizes) == list(dst.buffer.layout.sizes) and list(dst.strides) == list(dst.buffer.layout.strides)
    if not whole or not is_tensor(src) or src.device != dst.device:
        return NotImplemented
    sizes, name = list(dst.sizes), dst.buffer.name
    g.keep_old_values(name)

    def store(value):
        buf = ir.ComputedBuffer(g.new_name(), dst.buffer.layout, mutates=name, node=ir.Pointwise(
            sizes, lambda idx: as_value(value, idx, sizes, dst.dtype)))
        a = buf.analysis
        return buf if all(ir.expand(e - a.store_index) == 0 for n, e in a.loads if n == name) else None
    # a value that reads the input elsewhere than where it is stored (a flip) is computed in full first
    buf = store(src) or store(g.realize(as_lazy(src)))
    g.buffers.append(buf)
    return View(buf, sizes, dst.strides)


@register(aten.full.default, aten.scalar_tensor.default, aten.full_like.default, aten.zeros.default,
          aten.ones.default, aten.empty.memory_format, aten.empty_strided.default, aten.zeros_like.default,
          aten.ones_like.default, aten.empty_like.default, aten.new_zeros.default, aten.new_ones.default,
          aten.new_full.default, aten.new_empty.default, aten.new_empty_strided.default)
def lower_full(out, *args, **kwargs):
    name = current().current_node.target.overloadpacket.__name__
    value = {"zeros": 0, "ones": 1, "zeros_like": 0, "ones_like": 1, "new_zeros": 0, "new_ones": 1}.get(name, 0)
    if name in ("full", "new_full", "full_like"):
        value = args[1] if name == "full" or name == "full_like" else args[2]
    elif name == "scalar_tensor":
        value = args[0]
    sizes = [sym(s) for s in out.shape]
    return Lazy(sizes, out.dtype, out.device, lambda idx: as_value(value, idx, sizes, out.dtype), 1)


@register(prims.iota.default)
def lower_iota(out, length, *, start, step, dtype, device, requires_grad=False):
    return Lazy([sym(length)], dtype, out.device,
                lambda idx: ops.index_expr(start + idx[0] * step, dtype), 1)


@register(aten.rand.default, aten.randn.default, aten.rand_like.default, aten.randn_like.default)
def lower_rand(out, *args, **kwargs):
    draw = random_value("randn" if "randn" in str(current().current_node.target) else "rand", out)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device,
                lambda idx: ops.to_dtype(draw(idx), out.dtype, torch.float32), 1)


register(aten.empty_permuted.default)(lower_full)


def _fmax(name):
    """fmax/fmin: like maximum/minimum, but a NaN loses to a number."""
    pick = getattr(ops, name)
    return lambda a, b: ops.where(ops.isnan(b), a, ops.where(ops.isnan(a), b, pick(a, b)))


pointwise([aten.fmax.default, prims.fmax.default], _fmax("maximum"))
pointwise([aten.fmin.default, prims.fmin.default], _fmax("minimum"))
for _name in ("add", "sub", "mul", "neg", "abs", "round", "floor", "ceil", "trunc", "maximum", "minimum", "fma"):
    pointwise([getattr(prims, _name).default], ops_fn(_name))


@register(prims.uniform.default)
def lower_uniform(out, shape, *, low, high, dtype, device, stride=None, generator=None):
    if generator is not None:
        return NotImplemented
    f32 = torch.float32
    draw = random_value("rand", out)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, lambda idx: ops.to_dtype(ops.add(ops.mul(
        draw(idx), ops.constant(float(high - low), f32)), ops.constant(float(low), f32)), out.dtype, f32), 1)


def random_value(kind, out):
    """A loader drawing one float32 from kind ("rand" or "randn") per element of out, from a seed of its own
    (an element of the graph's seeds: GraphLowering.new_seed)."""
    seed = current().new_seed(out.device)
    sizes = [sym(s) for s in out.shape]
    draw = getattr(ops, kind)
    return lambda idx: draw(seed.load([sympy.Integer(0)]), ir.strided_index(idx, ir.contiguous_strides(sizes)))


@register(prims.normal.default)
def lower_prims_normal(out, shape, *, mean, std, dtype, device, requires_grad=False, generator=None):
    return lower_normal_functional(out, None, mean, std, generator=generator)


@register(aten.normal_functional.default)
def lower_normal_functional(out, x, mean=0.0, std=1.0, *, generator=None):
    if generator is not None:
        return NotImplemented
    f32 = torch.float32
    draw = random_value("randn", out)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, lambda idx: ops.to_dtype(ops.add(ops.mul(
        draw(idx), ops.constant(float(std), f32)), ops.constant(float(mean), f32)), out.dtype, f32), 1)


@register(aten.bernoulli.p)
def lower_bernoulli(out, x, p=0.5, *, generator=None):
    if generator is not None:
        return NotImplemented
    draw = random_value("rand", out)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, lambda idx: ops.to_dtype(
        ops.lt(draw(idx), ops.constant(float(p), torch.float32)), out.dtype, torch.bool), 1)


@register(aten.randint.default, aten.randint.low, aten.randint_like.default, aten.randint_like.low_dtype)
def lower_randint(out, *args, generator=None, **kwargs):
    """low + floor(u * (high - low)), with u computed in float64 so that it stays below high."""
    if generator is not None or not (out.dtype.is_floating_point or out.dtype in (torch.int32, torch.int64)):
        return NotImplemented
    name = str(current().current_node.target)
    bounds = [a for a in args[(1 if "like" in name else 0):] if not isinstance(a, (list, tuple))]
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds[:2]
    if not all(isinstance(b, int) for b in (low, high)):
        return NotImplemented
    draw = random_value("rand", out)
    f64 = torch.float64

    def loader(idx):
        scaled = ops.floor(ops.mul(ops.to_dtype(draw(idx), f64, torch.float32), ops.constant(float(high - low), f64)))
        value = ops.add(ops.minimum(scaled, ops.constant(float(high - low - 1), f64)), ops.constant(float(low), f64))
        return ops.to_dtype(value, out.dtype, f64)
    return Lazy([sym(s) for s in out.shape], out.dtype, out.device, loader, 1)


@register(aten.angle.default)
def lower_angle(out, x):
    """Of a real number: pi if negative, else 0; NaN stays NaN."""
    if not out.dtype.is_floating_point:
        return NotImplemented
    return pointwise_value(out, lambda v: ops.where(ops.isnan(v), v, ops.where(
        ops.lt(v, ops.constant(0.0, opmath(out.dtype))), ops.constant(math.pi, opmath(out.dtype)),
        ops.constant(0.0, opmath(out.dtype)))), x)


@register(aten._conj.default, aten._conj_physical.default, aten.conj_physical.default, aten.resolve_conj.default,
          aten.resolve_neg.default)
def lower_conj(out, x):
    if x.dtype.is_complex:
        return NotImplemented
    return lower_copy(out, x)


@register(aten._native_batch_norm_legit_no_training.default)
def lower_batch_norm_eval(out, x, weight, bias, running_mean, running_var, momentum, eps):
    """An eval-mode batch norm, whole: each element against its channel's running statistics, in the arithmetic of
    the decomposition kiln would otherwise trace (`decompositions.LOWERED_WHOLE_IN_INFERENCE`; its ~20 ops cost
    AOTAutograd's trace ~10 ms a batch norm). CUDA: (x - mean) * invstd * weight + bias, invstd = 1 / sqrt(var + eps),
    returning the running mean and invstd as its statistics. The CPU: folded into x * alpha + beta, as ATen's CPU
    kernel computes a contiguous or channels-last input (`decompositions._folded_on_cpu`); another layout as CUDA,
    float32 in float64 (`_float64_on_cpu`); its statistics are empty."""
    from kiln.decompositions import _cpu_kernel_folds
    y, saved_mean, saved_invstd = out
    cpu = y.device.type == "cpu"
    folded = cpu and _cpu_kernel_folds(current().current_node.args[0].meta["val"])
    acc = torch.float64 if cpu and not folded and x.dtype == torch.float32 else opmath(x.dtype)
    sizes = [sym(s) for s in y.shape]

    def channel(t, c):   # a per-channel vector at channel c, in acc
        return as_value(t, [c], t.sizes, acc)

    def computed_invstd(c):
        return ops.reciprocal(ops.sqrt(ops.add(channel(running_var, c), ops.constant(eps, acc))))
    invstd = computed_invstd
    if not folded and current().on_triton(y.device):
        # stored once per channel, in acc (the same values): inlined, each element computes its channel's IEEE
        # square root and division, which bounded MobileNetV2's batch norm kernels on an H200 by instructions, not
        # bytes (a 144-channel batch norm + hardtanh 37 us, 22 without them; its depthwise convolution's 99 us, 62;
        # bench/NOTES.md 64). A kernel of C elements, which joins an earlier launch where one is reachable
        # (launches.share_launches). (C++ kernels hoist a row's values out of their inner loops.)
        stored = current().realize(Lazy(list(running_var.sizes), acc, y.device, lambda idx: computed_invstd(idx[0]), 4))
        invstd = functools.partial(channel, stored)

    def normalized(idx):
        c = idx[1]
        v, mean = as_value(x, idx, sizes, acc), channel(running_mean, c)
        if folded:
            alpha = invstd(c) if weight is None else ops.mul(invstd(c), channel(weight, c))
            beta = ops.sub(ops.constant(0, acc) if bias is None else channel(bias, c), ops.mul(mean, alpha))
            return ops.to_dtype(ops.add(ops.mul(v, alpha), beta), y.dtype, acc)
        v = ops.mul(ops.sub(v, mean), invstd(c))
        v = v if weight is None else ops.mul(v, channel(weight, c))
        v = v if bias is None else ops.add(v, channel(bias, c))
        return ops.to_dtype(v, y.dtype, acc)

    def statistic(meta, fn):   # [C] (CUDA's), or empty (the CPU's)
        shape = [sym(s) for s in meta.shape]
        if ir.static_numel(shape) == 0:
            return Lazy(shape, meta.dtype, meta.device, lambda idx: ops.constant(0, meta.dtype), 1)
        cast = (lambda v: v) if meta.dtype == acc else (lambda v: ops.to_dtype(v, meta.dtype, acc))
        return Lazy(shape, meta.dtype, meta.device, lambda idx: cast(fn(idx[0])), 4)
    return (Lazy(sizes, y.dtype, y.device, normalized, x.opcount + 10),
            statistic(saved_mean, lambda c: channel(running_mean, c)), statistic(saved_invstd, invstd))


@functools.cache
def foreach_lowerings():
    """Registers a lowering for each functional _foreach_* op whose per-tensor function is one pointwise op kiln
    lowers (`decompositions.foreach_per_tensor_ops`): that op's lowering at each index. Returns those ops, which
    inference graphs keep whole: AOTAutograd traced each index's op through the decomposition, about 1 ms each
    (~1700 of them in an AdamW step over ResNet-50's parameters, where aot_eager traces 22 foreach ops). (The
    graph's current node is then the foreach op's: a pointwise lowering knows its op by where it is registered.)"""
    found = []
    for op, (per_tensor, positional, keywords) in foreach_per_tensor_ops().items():
        lowering = LOWERINGS.get(per_tensor)
        if lowering is not None and torch.Tag.pointwise in per_tensor.tags:
            register(op)(functools.partial(lower_foreach, op, lowering, positional, dict(keywords)))
            found.append(op)
    return found


def lower_foreach(op, lowering, positional, keywords, outs, *args, **kwargs):
    """lowering at each index of op's lists, its arguments made as foreach_per_tensor_ops says (every argument of
    op given, as there, its defaults filled in)."""
    named = {**dict(zip((a.name for a in op._schema.arguments), args)), **kwargs}
    defaults = {a.name: a.default_value for a in op._schema.arguments if a.name not in named and a.has_default_value()}
    at, count = at_index(op, (), {**named, **defaults})
    results = []
    for i in range(count):
        given, given_keywords = at(i)

        def value(source):
            kind, where = source
            return where if kind == "const" else given[where] if isinstance(where, int) else given_keywords[where]
        results.append(lowering(outs[i], *map(value, positional), **{k: value(s) for k, s in keywords.items()}))
        if results[-1] is NotImplemented:
            return NotImplemented
    return results


def eager_refuses(target, node):
    """Whether eager's kernel for pointwise op target (or a foreach op of one) raises on node's arguments, whatever
    their values: checks ATen makes as its kernel runs, not in the meta function the trace ran (a bool tensor minus
    a scalar, an integer tensor to a negative integer power). Such a node is not lowered: the graph runs eager's
    op, which raises as eager's does (the lowering computed a value where eager has none). Found by running the op
    on CPU tensors of ones of the arguments' dtypes and ranks, once for each op, those and its scalars; a node with
    symbolic scalars or a device, or whose op draws random numbers (the probe would move the generator), is not
    probed."""
    # (a foreach op reaching here has a lowering: foreach_lowerings registered it)
    is_foreach = getattr(target, "__name__", "").startswith("_foreach_")
    if not is_foreach and (torch.Tag.pointwise not in getattr(target, "tags", ()) or
                           torch.Tag.nondeterministic_seeded in target.tags):
        return False
    try:
        signature = _signature((node.args, node.kwargs))
    except TypeError:   # a symbolic or unhashable argument
        return False
    return _refused(target, signature)


def _signature(value):
    """node arguments as a hashable stand-in: ("tensor", dtype, rank) for a tensor (its fake value's), tuples for
    lists; TypeError for a symbolic scalar, a device (the probe runs on the CPU) or anything unhashable."""
    if isinstance(value, torch.fx.Node):
        value = value.meta.get("val")
    if isinstance(value, torch.Tensor):
        return "tensor", value.dtype, value.dim()
    if isinstance(value, (list, tuple)):
        return tuple(map(_signature, value))
    if isinstance(value, dict):
        return tuple((k, _signature(v)) for k, v in value.items())
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool, torch.device)) or value.__hash__ is None:
        raise TypeError(value)
    return value


@functools.cache
def _refused(target, signature):
    def made(s):
        if isinstance(s, tuple) and len(s) == 3 and s[0] == "tensor":
            return torch.ones([1] * s[2], dtype=s[1])
        return [made(e) for e in s] if isinstance(s, tuple) else s
    args, kwargs = signature
    with unset_fake_temporarily():
        args, kwargs = [made(a) for a in args], {k: made(v) for k, v in kwargs}
        try:
            target(*args, **kwargs)
        except NotImplementedError:   # (a dtype the CPU's kernel lacks: not eager's refusal on the node's device)
            return False
        except RuntimeError:
            return True
    return False
