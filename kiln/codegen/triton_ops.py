"""How kiln's ops are spelled in Triton: the op table (libdevice's functions on the GPU, tl formulas under the
interpreter), the forms for integer operands and float32 rounding, and the helper functions every generated module
starts with (its prelude), and how dtypes are spelled."""
import torch

from kiln import ir
from kiln.runtime.triton_launch import interpreting

TL_DTYPES = {torch.float32: "tl.float32", torch.float64: "tl.float64", torch.float16: "tl.float16",
             torch.bfloat16: "tl.bfloat16", torch.int8: "tl.int8", torch.int16: "tl.int16", torch.int32: "tl.int32",
             torch.int64: "tl.int64", torch.uint8: "tl.uint8", torch.bool: "tl.int1"}


def compute_dtype(dtype):
    return torch.float32 if ir.dtype_is_low_precision(dtype) else dtype


# Ops that need libdevice on the GPU; the interpreter has no libdevice, so they get tl formulas there.
LIBDEVICE = {
    # the interpreter's formulas keep their relative accuracy in the tails (tanh(1e-8), log1p(1e-10), erfc(9))
    "tanh": ("libdevice.tanh({0})", "kiln_tanh({0})"),
    "expm1": ("libdevice.expm1({0})", "kiln_expm1({0})"),
    "log1p": ("libdevice.log1p({0})", "kiln_log1p({0})"),
    "sinh": ("libdevice.sinh({0})", "kiln_sinh({0})"),
    "cosh": ("libdevice.cosh({0})", "((tl.exp({0}) + tl.exp(-{0})) / 2)"),
    "tan": ("libdevice.tan({0})", "(tl.sin({0}) / tl.cos({0}))"),
    "asinh": ("libdevice.asinh({0})", "kiln_asinh({0})"),
    "acosh": ("libdevice.acosh({0})", "kiln_acosh({0})"),
    "atanh": ("libdevice.atanh({0})", "(0.5 * kiln_log1p(2 * {0} / (1 - {0})))"),
    "erfc": ("libdevice.erfc({0})", "kiln_erfc({0})"),
    "log10": ("libdevice.log10({0})", "(tl.log({0}) * 0.4342944819032518)"),
    "round": ("libdevice.nearbyint({0})", "kiln_round_even({0})"),
    "trunc": ("libdevice.trunc({0})", "tl.where({0} < 0, tl.ceil({0}), tl.floor({0}))"),
    "pow": ("libdevice.pow({0}, {1})", "kiln_pow({0}, {1})"),
    "hypot": ("libdevice.hypot({0}, {1})", "kiln_hypot({0}, {1})"),
    "asin": ("libdevice.asin({0})", "kiln_atan({0} / tl.sqrt(1 - {0} * {0}))"),
    "acos": ("libdevice.acos({0})", "(1.5707963267948966 - kiln_atan({0} / tl.sqrt(1 - {0} * {0})))"),
    "atan": ("libdevice.atan({0})", "kiln_atan({0})"), "atan2": ("libdevice.atan2({0}, {1})", "kiln_atan2({0}, {1})"),
    "lgamma": ("libdevice.lgamma({0})", "kiln_lgamma({0})"),
    "copysign": ("libdevice.copysign({0}, {1})", "tl.where(kiln_signbit({1}), -tl.abs({0}), tl.abs({0}))"),
    # special functions libdevice has; the interpreter has none of them, so there they run as eager fallbacks
    **{op: (f"libdevice.{fn}({{0}})", None) for op, fn in {
        "erfinv": "erfinv", "special_erfcx": "erfcx", "special_ndtri": "normcdfinv", "i0": "cyl_bessel_i0",
        "special_modified_bessel_i0": "cyl_bessel_i0", "special_i1": "cyl_bessel_i1",
        "special_modified_bessel_i1": "cyl_bessel_i1", "special_bessel_j0": "j0", "special_bessel_j1": "j1",
        "special_bessel_y0": "y0", "special_bessel_y1": "y1"}.items()},
    "nextafter": ("libdevice.nextafter({0}, {1})", None),
}


def target_ops():
    """The ops table for where the kernels will run: libdevice on the GPU, tl formulas under the interpreter."""
    ops = dict(TRITON_OPS)
    for op, (gpu, interp) in LIBDEVICE.items():
        if not interpreting():
            ops[op] = gpu
        elif interp:
            ops[op] = interp
    return ops


INFIX = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "eq": "==", "ne": "!=", "lt": "<", "le": "<=",
         "gt": ">", "ge": ">=", "logical_and": "&", "logical_or": "|", "logical_xor": "^", "bitwise_and": "&",
         "bitwise_or": "|", "bitwise_xor": "^"}
TRITON_OPS = {
    **{op: f"({{0}} {s} {{1}})" for op, s in INFIX.items()},
    **{op: f"tl.{op}({{0}})" for op in ("exp", "exp2", "log", "log2", "sqrt", "sin", "cos", "erf", "floor", "ceil",
                                          "abs", "sigmoid")},
    "rsqrt": "tl.rsqrt({0})", "neg": "(-{0})", "reciprocal": "(1 / {0})", "logical_not": "({0} == 0)",
    "bitwise_not": "(~{0})", "isnan": "({0} != {0})", "isinf": "(tl.abs({0}) == float('inf'))",
    "signbit": "kiln_signbit({0})", "sign": "kiln_sign({0})", "relu": "tl.where({0} < 0, 0, {0})",
    "maximum": "tl.maximum({0}, {1}, propagate_nan=tl.PropagateNan.ALL)",
    "minimum": "tl.minimum({0}, {1}, propagate_nan=tl.PropagateNan.ALL)",
    "where": "tl.where({0}, {1}, {2})", "fma": "tl.fma({0}, {1}, {2})", "rand": "tl.rand({0}, {1})", "randn": "tl.randn({0}, {1})",
    "fmod": "kiln_fmod({0}, {1})", "floordiv": "kiln_floordiv({0}, {1})", "truncdiv": "kiln_truncdiv({0}, {1})",
    "remainder": "kiln_remainder({0}, {1})", "lshift": "kiln_lshift({0}, {1})", "rshift": "kiln_rshift({0}, {1})",
}

# float32 division and square roots rounded as IEEE has it, as torch's are (nvcc's default): Triton's / and
# tl.sqrt are div.full.f32 and sqrt.approx.f32, up to 2 ulp off. A softmax's rows then summed further from 1,
# and the gradients made of those row sums, 0 in exact arithmetic (a key projection's bias), were 2.8x eager's
# distance from fp64 (DeBERTa-v2's fp32 training step on the H100; Inductor's too). tl.rsqrt is rsqrt.approx:
# the decompositions' batch-norm rsqrt(var + eps), where eager's kernels compute 1 / sqrt(var + eps)
ROUNDED_FLOAT32_OPS = {"truediv": "tl.math.div_rn({0}, {1})", "reciprocal": "tl.math.div_rn(1.0, {0})",
                       "sqrt": "tl.sqrt_rn({0})", "rsqrt": "tl.math.div_rn(1.0, tl.sqrt_rn({0}))"}

# integer operands' spellings, where the float ones (tl.floor, libdevice) take floats only
INTEGER_OPS = {"floor": "{0}", "ceil": "{0}", "trunc": "{0}", "round": "{0}", "pow": "kiln_pow_int({0}, {1})",
               "fma": "({0} * {1} + {2})"}

PRELUDE = '''
import triton
import triton.language as tl
{libdevice}

@triton.jit
def kiln_max(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def kiln_min(a, b):
    return tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def kiln_sum(a, b):
    return a + b


@triton.jit
def kiln_prod(a, b):
    return a * b


@triton.jit
def kiln_argmax(v1, i1, v2, i2):
    # the larger value wins, NaN counts as largest, ties go to the first index
    take = (v2 > v1) | ((v2 == v1) & (i2 < i1)) | ((v2 != v2) & ((v1 == v1) | (i2 < i1)))
    return tl.where(take, v2, v1), tl.where(take, i2, i1)


@triton.jit
def kiln_argmin(v1, i1, v2, i2):
    take = (v2 < v1) | ((v2 == v1) & (i2 < i1)) | ((v2 != v2) & ((v1 == v1) | (i2 < i1)))
    return tl.where(take, v2, v1), tl.where(take, i2, i1)


@triton.jit
def kiln_sign(x):
    return tl.where(x != x, x, (x > 0).to(x.dtype) - (x < 0).to(x.dtype))


@triton.jit
def kiln_div(a, b):
    # (a static if's other branch goes under else: Triton compiles what follows a returning if as well, and
    # float // float does not compile)
    if a.dtype == tl.float32:   # (see ROUNDED_FLOAT32_OPS)
        q = tl.math.div_rn(a, b)
    else:
        q = a / b
    return q


@triton.jit
def kiln_truncdiv(a, b):
    if a.dtype.is_floating():
        q = kiln_div(a, b)
        q = tl.where(q < 0, tl.ceil(q), tl.floor(q))
    else:
        q = a // b
    return q


@triton.jit
def kiln_fmod(a, b):
    # C's fmod (exact; x for an infinite divisor; signed zeros kept): libdevice's on the GPU, where Triton's
    # float % is a - trunc(a / b) * b; numpy's fmod under the interpreter
    if a.dtype.is_floating():
        return {float_fmod}
    return a % b


@triton.jit
def kiln_floordiv(a, b):
    if a.dtype.is_floating():   # eager's div_floor_floating: exact through fmod, NaN for inf // y
        mod = kiln_fmod(a, b)
        div = kiln_div(a - mod, b)
        div = tl.where((mod != 0) & ((b < 0) != (mod < 0)), div - 1, div)
        q = tl.floor(div)
        q = tl.where(div - q > 0.5, q + 1, q)
        q = tl.where(div == 0, kiln_div(a, b) * 0, q)   # a zero with the quotient's sign (the quotient is below 1)
        q = tl.where(b == 0, kiln_div(a, b), q)
    else:
        q = a // b
        q = q - ((q * b != a) & ((a < 0) != (b < 0))).to(q.dtype)
    return q


@triton.jit
def kiln_lshift(a, b):
    # eager's shifts: a count < 0 or >= the width shifts every bit out (LLVM leaves those counts undefined)
    inside = (b >= 0) & (b < a.dtype.primitive_bitwidth)
    return tl.where(inside, a << tl.where(inside, b, 0).to(a.dtype), 0).to(a.dtype)


@triton.jit
def kiln_rshift(a, b):
    inside = (b >= 0) & (b < a.dtype.primitive_bitwidth)
    fill = tl.where(a < 0, a >> (a.dtype.primitive_bitwidth - 1), 0).to(a.dtype)   # the sign, in every bit
    return tl.where(inside, a >> tl.where(inside, b, 0).to(a.dtype), fill).to(a.dtype)


@triton.jit
def kiln_remainder(a, b):
    r = kiln_fmod(a, b)
    return tl.where((r != 0) & ((r < 0) != (b < 0)), r + b, r)


@triton.jit
def kiln_round_even(x):
    r = tl.floor(x + 0.5)
    r = tl.where((r - x == 0.5) & (r - 2 * tl.floor(r / 2) != 0), r - 1, r)
    return tl.where(r == 0, x * 0, r)   # -0.4 rounds to -0.0, as nearbyint does


@triton.jit
def kiln_signbit(x):
    # the sign bit itself, so that -0.0 and -nan count as negative, as in eager
    if x.dtype == tl.float64:
        return x.to(tl.int64, bitcast=True) < 0
    if x.dtype.is_floating():
        return x.to(tl.float32).to(tl.int32, bitcast=True) < 0
    return x < 0


@triton.jit
def kiln_atan(x):
    # the interpreter has no libdevice: Cephes' single-precision arctangent (range reduction + polynomial)
    a = tl.abs(x)
    big = a > 2.414213562373095
    mid = (a > 0.4142135623730950) & (~big)
    t = tl.where(big, -1.0 / a, tl.where(mid, (a - 1.0) / (a + 1.0), a))
    base = tl.where(big, 1.5707963267948966, tl.where(mid, 0.7853981633974483, 0.0))
    z = t * t
    r = base + (((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z - 3.33329491539e-1) * z * t + t
    return tl.where(kiln_signbit(x), -r, r)   # atan(-0.0) is -0.0


@triton.jit
def kiln_atan2(y, x):
    # C's atan2, signed zeros included: atan2(-0.0, -1) is -pi, atan2(0, -0.0) is pi
    r = kiln_atan(y / x)
    pi = 3.141592653589793
    away = tl.where(kiln_signbit(y), -pi, pi)   # the half-turn toward y's side
    on_axis = tl.where(y == 0, tl.where(kiln_signbit(x), away, y), tl.where(kiln_signbit(y), -pi / 2, pi / 2))
    # both infinite: y / x is nan, C gives the diagonals +-pi/4, +-3pi/4
    diagonal = tl.where(x > 0, 0.25, 0.75) * away
    r = tl.where((tl.abs(x) == float("inf")) & (tl.abs(y) == float("inf")), diagonal, tl.where(x < 0, r + away, r))
    return tl.where((x == 0) & (y == y), on_axis, r)


@triton.jit
def kiln_expm1(x):
    # the interpreter has no libdevice: Kahan's exp(x) - 1, exact to a few ulps where exp(x) rounds to near 1.
    # It divides by log(exp(x)), which is x only while exp(x) is a normal float: below float32's smallest normal
    # exp(x) - 1 is -1 to any float's precision, and is taken so (tanh(51.45) read 0.9928 through it). The ratio
    # x / log(u), near 1, is formed first: (u - 1) * x overflowed from x = 84.5 on.
    u = tl.exp(x)
    r = tl.where(u == 1, x, (u - 1) * (x / tl.log(u)))
    return tl.where((u < 1.1754943508222875e-38) | (u == float("inf")), u - 1, r)


@triton.jit
def kiln_log1p(x):
    # Kahan's log(1 + x): the rounding of 1 + x divided back out (the ratio first: log(u) * x overflowed past 4e36)
    u = 1 + x
    r = tl.where(u == 1, x, tl.log(u) * (x / (u - 1)))
    return tl.where((u == 0) | (u == float("inf")) | (u < 0), tl.log(u), r)


@triton.jit
def kiln_tanh(x):
    t = kiln_expm1(-2 * tl.abs(x))
    r = -t / (t + 2)
    return tl.where(kiln_signbit(x), -r, r)   # -0.0 stays -0.0


@triton.jit
def kiln_sinh(x):
    # (past |x| = 20, e^-|x| is below half an ulp: exp(|x| - log 2) is finite up to where sinh is, 89.4)
    a = tl.abs(x)
    t = kiln_expm1(a)
    r = tl.where(a > 20, tl.exp(a - 0.6931471805599453), 0.5 * (t + t / (t + 1)))
    return tl.where(kiln_signbit(x), -r, r)


@triton.jit
def kiln_acosh(x):
    # log1p of t + sqrt(t (2 + t)) with t = x - 1, exact near 1 (log(x + sqrt(x^2 - 1)) lost 2e-5 at 1 + 1e-6);
    # past 1e18 t * t would overflow, where acosh(x) is log(2x) to float precision; NaN below 1 (t (2 + t) is
    # positive again below -1)
    t = x - 1
    y = tl.where(x > 1e18, tl.log(x) + 0.6931471805599453, kiln_log1p(t + tl.sqrt(t * (2 + t))))
    return tl.where(x < 1, float("nan"), y)


@triton.jit
def kiln_asinh(x):
    a = tl.abs(x)
    r = tl.where(a > 1e18, tl.log(a) + 0.6931471805599453, kiln_log1p(a + a * a / (1 + tl.sqrt(1 + a * a))))
    return tl.where(kiln_signbit(x), -r, r)


@triton.jit
def kiln_erfc(x):
    # Numerical Recipes' erfcc: relative error < 1.2e-7 everywhere, tails included (1 - erf(x) is 0 past x = 4)
    z = tl.abs(x)
    t = 1 / (1 + 0.5 * z)
    p = -0.82215223 + t * 0.17087277
    p = 0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * p))
    p = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * p))))
    r = t * tl.exp(-z * z + p)
    return tl.where(x < 0, 2 - r, r)


@triton.jit
def kiln_hypot(x, y):
    # scaled, so that x * x cannot overflow; an infinite side wins over a NaN one, as in C, and a NaN over a
    # finite one (maximum and minimum propagate it)
    a = tl.maximum(tl.abs(x), tl.abs(y), propagate_nan=tl.PropagateNan.ALL)
    b = tl.minimum(tl.abs(x), tl.abs(y), propagate_nan=tl.PropagateNan.ALL)
    q = b / tl.where(a == 0, 1, a)
    r = a * tl.sqrt(1 + q * q)
    return tl.where((tl.abs(x) == float("inf")) | (tl.abs(y) == float("inf")), float("inf"), r)


@triton.jit
def kiln_lgamma_near_1(e):
    # lgamma(1 + e) = -euler * e + sum over k >= 2 of (-1)^k zeta(k) / k * e^k: its zero at e = 0 kept exactly
    p = 1.0001227133 / 13
    p = 1.0002460866 / 12 - e * p
    p = 1.0004941886 / 11 - e * p
    p = 1.0009945751 / 10 - e * p
    p = 1.0020083928 / 9 - e * p
    p = 1.0040773562 / 8 - e * p
    p = 1.0083492774 / 7 - e * p
    p = 1.0173430620 / 6 - e * p
    p = 1.0369277551 / 5 - e * p
    p = 1.0823232337 / 4 - e * p
    p = 1.2020569032 / 3 - e * p
    p = 1.6449340668 / 2 - e * p
    return e * (-0.5772156649015329 + e * p)


@triton.jit
def kiln_lgamma(x):
    # the interpreter has no libdevice: near its zeros at 1 and 2 a series; elsewhere reflection for x < 0.5,
    # then a shift to z >= 6 and Stirling's series (which near 1 and 2 cancels to an absolute error only)
    near1 = tl.abs(x - 1) < 0.2
    near2 = tl.abs(x - 2) < 0.2
    e = tl.where(near2, x - 2, x - 1)
    series = kiln_lgamma_near_1(e) + tl.where(near2, kiln_log1p(e), 0.0)
    neg = x < 0.5
    v = tl.where(neg, 1.0 - x, x)
    prod = v * (v + 1) * (v + 2) * (v + 3) * (v + 4) * (v + 5)
    z = v + 6
    iz = 1.0 / z
    stirling = (z - 0.5) * tl.log(z) - z + 0.9189385332046727 + iz * (1.0 / 12 - iz * iz * (1.0 / 360 - iz * iz / 1260))
    lg = stirling - tl.log(tl.abs(prod))
    lg = tl.where(neg, tl.log(3.141592653589793 / tl.abs(tl.sin(3.141592653589793 * x))) - lg, lg)
    return tl.where(near1 | near2, series, lg)


@triton.jit
def kiln_logaddexp(a, b):
    m = tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)
    return tl.where((m == float("inf")) | (m == float("-inf")), m, m + {log1p}(tl.exp(-tl.abs(a - b))))


@triton.jit
def kiln_pow_int(a, b):
    # by squaring, wrapping as eager's integer pow does; negative exponents: 1 for a == 1, +-1 for a == -1, else 0
    base = a + (b * 0).to(a.dtype)
    e = b + (a * 0).to(b.dtype)
    r = base * 0 + 1
    for _ in range(b.dtype.primitive_bitwidth - 1):
        r = tl.where((e & 1) != 0, r * base, r)
        base = base * base
        e = e >> 1
    if b.dtype.is_int_unsigned():
        return r
    odd = (b & 1) != 0
    negative = tl.where(a == 1, 1, tl.where(a == -1, tl.where(odd, -1, 1), 0)).to(r.dtype)
    return tl.where(b < 0, negative, r)


@triton.jit
def kiln_pow(a, b):
    # C's pow (the GPU calls libdevice's): |a| ** b, negated for an odd integer b when a's sign bit is set
    # (-0.0 and -inf too); a negative finite a to a non-integer power is NaN; a ** 0, 1 ** b (NaN too) and
    # (-1) ** +-inf are 1
    mag = tl.exp(b * tl.log(tl.abs(a)))
    odd = (b - 2 * tl.floor(b / 2)) == 1
    not_integer = tl.where((a == 0) | (a == float("-inf")), mag, float("nan"))
    neg = tl.where(b == tl.floor(b), tl.where(odd, -mag, mag), not_integer)
    one = (b == 0) | (a == 1) | ((a == -1) & (tl.abs(b) == float("inf")))
    return tl.where(one, 1.0, tl.where(kiln_signbit(a), neg, mag))
'''


def prelude(interpreted, dependent=False):
    """kiln's helper functions, as the interpreter or the GPU runs them."""
    if interpreted:
        return PRELUDE.format(libdevice="", float_fmod="a % b", log1p="kiln_log1p")
    imports = "from triton.language.extra import libdevice"
    if dependent:
        imports += "\nfrom triton.language.extra.cuda import gdc_wait"
    return PRELUDE.format(libdevice=imports, float_fmod="libdevice.fmod(a, b)", log1p="libdevice.log1p")
