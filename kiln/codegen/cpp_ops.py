"""How kiln's ops are spelled in C++: the C types of each dtype, the op table, reductions' starting values and
updates, the helper functions every generated translation unit starts with (its prelude), and the special
functions that kernels take from ATen's scalar code, built once into a library of their own."""
import torch

from kiln import ir

CTYPES = {torch.float32: "float", torch.float64: "double", torch.float16: "_Float16", torch.bfloat16: "kiln_bf16",
          torch.int8: "int8_t", torch.int16: "int16_t", torch.int32: "int32_t", torch.int64: "int64_t",
          torch.uint8: "uint8_t", torch.bool: "bool"}


def ctype(dtype):
    """The C type values of dtype are computed in."""
    return "float" if ir.dtype_is_low_precision(dtype) else CTYPES[dtype]


LIBMVEC = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan",
           "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc")   # glibc has SIMD versions of these
MATH1 = LIBMVEC + ("lgamma", "sqrt")            # unary C math functions the kernels call as kiln_NAME
MATH2 = ("atan2", "copysign", "hypot", "nextafter")   # binary ones
ROUNDING_OPS = ("floor", "ceil", "trunc")
ROUNDING = ROUNDING_OPS + ("nearbyint",)        # unary, integers pass through unchanged (nearbyint: round)
# Special functions, computed by ATen's own scalar code (ATen/native/Math.h): eager's CPU kernels call the
# same functions. Parsing that header takes seconds, so the functions are built once into a library of their
# own (runtime/cpp_build.special_library) that kernels using them link against. {0}, {1}: the ATen op's args.
SPECIAL_FUNCTIONS = {
    **{op: f"{fn}({{0}})" for op, fn in {
        "digamma": "calc_digamma", "erfinv": "calc_erfinv", "i0": "calc_i0", "special_i0e": "calc_i0e",
        "special_i1": "calc_i1", "special_i1e": "calc_i1e", "special_ndtri": "calc_ndtri",
        "special_erfcx": "calc_erfcx", "special_log_ndtr": "calc_log_ndtr"}.items()},
    **{f"special_{fn}": f"{fn}_forward({{0}})" for fn in (
        "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
        "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
        "spherical_bessel_j0")},
    **{f"special_{fn}": f"{fn}_forward({{0}}, {{1}})" for fn in (
        "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
        "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
        "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
        "laguerre_polynomial_l", "legendre_polynomial_p")},
    "igamma": "calc_igamma({0}, {1})", "igammac": "calc_igammac({0}, {1})", "special_zeta": "zeta({0}, {1})",
    # polygamma(n, x): eager's kernel takes n = 0 and n = 1 to digamma and trigamma
    "polygamma": "({0} == 0 ? calc_digamma({1}) : {0} == 1 ? trigamma({1}) : calc_polygamma({1}, (int){0}))",
}


def special_arity(op):
    return 2 if "{1}" in SPECIAL_FUNCTIONS[op] else 1


def special_signature(op, t):
    """kiln_OP's signature in type t, as the kernels declare it and the special-function library defines it."""
    return f"{t} kiln_{op}({', '.join(f'{t} {p}' for p in ['x', 'y'][:special_arity(op)])})"


def declaration(f, arity):
    """The C library's float and double versions of math function f."""
    return f"float {f}f({', '.join(['float'] * arity)}); double {f}({', '.join(['double'] * arity)});\n"


def overloads(f, arity=1, integers_as_double=True):
    """kiln_F: float calls Ff, double calls F; other types go through double, or pass unchanged."""
    xs = ["x", "y"][:arity]
    params = lambda t: ", ".join(f"{t} {x}" for x in xs)  # noqa: E731
    other = (f"template <typename T> static inline double kiln_{f}({params('T')}) "
             f"{{ return {f}({', '.join(f'(double){x}' for x in xs)}); }}\n" if integers_as_double else
             f"template <typename T> static inline T kiln_{f}(T x) {{ return x; }}\n")
    return (f"static inline float kiln_{f}({params('float')}) {{ return {f}f({', '.join(xs)}); }}\n"
            f"static inline double kiln_{f}({params('double')}) {{ return {f}({', '.join(xs)}); }}\n" + other)


PRELUDE = r"""
// No standard headers: parsing <cmath> and <algorithm> took most of a small build. The kernels need
// only the fixed-width integers, the C math functions and a few helpers, all declared here.
typedef __INT8_TYPE__ int8_t; typedef __INT16_TYPE__ int16_t; typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t; typedef __UINT8_TYPE__ uint8_t; typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t; typedef __UINT64_TYPE__ uint64_t;
extern "C" {
#ifdef KILN_LIBMVEC
// glibc's vector math library: declared SIMD-callable, so loops over exp/erf/tanh/... vectorize
""" + "".join(f"#pragma omp declare simd notinbranch\nfloat {f}f(float);\n#pragma omp declare simd notinbranch\n"
              f"double {f}(double);\n" for f in LIBMVEC) + "#endif\n" + "".join(
    declaration(f, 1) for f in MATH1 + ROUNDING) + "".join(
    declaration(f, 2) for f in MATH2 + ("fmod", "pow")) + r"""int dprintf(int, const char*, ...);
}
""" + "".join(
    f"{special_signature(op, t)};\n" for op in SPECIAL_FUNCTIONS
    for t in ("float", "double")) + r"""template <typename T> constexpr bool kiln_is_float = false;
template <> constexpr bool kiln_is_float<float> = true;
template <> constexpr bool kiln_is_float<double> = true;
// sin and cos are plain calls (their builtins are off): gcc would otherwise merge sin(x) and cos(x)
// into one scalar sincos call, which has no vector form
""" + "".join(overloads(f) for f in MATH1) + "".join(overloads(f, 2) for f in MATH2) + "".join(
    overloads(f, integers_as_double=False) for f in ROUNDING) + r"""
template <typename T> static inline bool kiln_isnan(T a) { return a != a; }
template <typename T> static inline bool kiln_isinf(T a) { if constexpr (kiln_is_float<T>) { return __builtin_isinf(a); } else { return false; } }
template <typename T> static inline bool kiln_signbit(T a) { if constexpr (kiln_is_float<T>) { return __builtin_signbit(a); } else { return a < 0; } }
template <typename T> static inline T kiln_abs(T a) { if constexpr (kiln_is_float<T>) { return __builtin_fabs(a); } else { return a < 0 ? -a : a; } }
template <typename T> static inline T kiln_relu(T a) { return a < T(0) ? T(0) : a; }   // NaN stays NaN
template <typename T> static inline T kiln_fma(T a, T b, T c) {   // integers exactly, not through a float fma
    if constexpr (!kiln_is_float<T>) { return a * b + c; } else if constexpr (sizeof(T) == 4) { return __builtin_fmaf(a, b, c); } else { return __builtin_fma(a, b, c); } }
static inline int64_t kiln_imax(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t kiln_imin(int64_t a, int64_t b) { return a < b ? a : b; }
typedef uint16_t kiln_bf16;
static inline float kiln_load(kiln_bf16 v) { uint32_t u = (uint32_t)v << 16; float f; __builtin_memcpy(&f, &u, 4); return f; }
__attribute__((cold, noinline)) static void kiln_index_error(int64_t* flags, int64_t site, int64_t index,
                                                              int64_t size) {   // read by the wrapper
    __atomic_store_n(&flags[0], site, __ATOMIC_RELAXED);
    __atomic_store_n(&flags[1], index, __ATOMIC_RELAXED);
    __atomic_store_n(&flags[2], size, __ATOMIC_RELAXED);
    __atomic_store_n(&flags[3], 0, __ATOMIC_RELAXED);
}
static inline float kiln_load(_Float16 v) { return (float)v; }
template <typename T> static inline T kiln_load(T v) { return v; }
static inline kiln_bf16 kiln_to_bf16(float f) {
    uint32_t u; __builtin_memcpy(&u, &f, 4);
    if (f != f) return 0x7fc0;
    return (kiln_bf16)((u + 0x7fff + ((u >> 16) & 1)) >> 16);   // round to nearest even
}
static inline float kiln_round_bf16(float f) { return kiln_load(kiln_to_bf16(f)); }
static inline float kiln_round_half(float f) { return (float)(_Float16)f; }
// eager's float -> integer conversion on x86 (cvttss2si and kin): NaN and values out of range give the minimum
// of 32- and 64-bit types; narrower types take the low bits of the 32-bit conversion. C++ leaves these
// conversions undefined, and gcc folded a known NaN's to 0.
template <typename I, typename F> static inline I kiln_float_to_int(F x) {
    if constexpr (sizeof(I) >= 4) {
        constexpr F limit = F(sizeof(I) == 8 ? 9223372036854775808.0 : 2147483648.0);
        return (x >= -limit && x < limit) ? I(x) : I(uint64_t(1) << (8 * sizeof(I) - 1));   // NaN fails both
    } else { return I(kiln_float_to_int<int32_t>(x)); }
}
// an integer as a float is never -0.0, but gcc (-fno-trapping-math) folds float(int(x)) into trunc(x), which
// keeps the sign of -0.39's zero (atan2 of it gave -pi); a zero tested for and spelled out stays +0.0
template <typename F, typename I> static inline F kiln_int_to_float(I x) { return x == I(0) ? F(0) : F(x); }
template <typename T> static inline T kiln_maximum(T a, T b) { return (a != a || a > b) ? a : b; }
template <typename T> static inline T kiln_minimum(T a, T b) { return (a != a || a < b) ? a : b; }
template <typename T> static inline T kiln_fmod(T a, T b);
// an integer division by -1 negates, wrapping as eager's does: INT_MIN / -1 traps (SIGFPE) on x86
// (unsigned: T(-1) is the type's greatest value, an ordinary divisor)
template <typename T> static inline T kiln_idiv(T a, T b) {
    return T(-1) < T(0) && b == T(-1) ? T(0 - (uint64_t)a) : a / b;
}
template <typename T> static inline T kiln_floordiv(T a, T b) {
    if constexpr (kiln_is_float<T>) {   // eager's div_floor_floating: exact through fmod, NaN for inf // y
        if (b == 0) return a / b;
        T mod = kiln_fmod(a, b), div = (a - mod) / b;
        if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
        if (div == 0) return __builtin_copysign(T(0), a / b);
        T q = kiln_floor(div); return div - q > T(0.5) ? q + 1 : q;
    } else { T q = kiln_idiv(a, b); return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q; }
}
template <typename T> static inline T kiln_truncdiv(T a, T b) {
    if constexpr (kiln_is_float<T>) { return kiln_trunc(a / b); } else { return kiln_idiv(a, b); }
}
template <typename T> static inline T kiln_fmod(T a, T b) {
    if constexpr (sizeof(T) == 4 && kiln_is_float<T>) { return fmodf(a, b); }
    else if constexpr (kiln_is_float<T>) { return fmod(a, b); } else { return T(-1) < T(0) && b == T(-1) ? T(0) : a % b; }
}
template <typename T> static inline T kiln_remainder(T a, T b) {
    T r = kiln_fmod(a, b); return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
// eager's shifts: a count < 0 or >= the width shifts every bit out (C++ leaves those counts undefined)
template <typename T, typename U> static inline T kiln_lshift(T a, U b) {
    return (b < 0 || (int64_t)b >= (int64_t)(8 * sizeof(T))) ? T(0) : T((uint64_t)a << b);
}
template <typename T, typename U> static inline T kiln_rshift(T a, U b) {
    return (b < 0 || (int64_t)b >= (int64_t)(8 * sizeof(T))) ? T(a < 0 ? -1 : 0) : T(a >> b);
}
template <typename T, typename U> static inline T kiln_pow(T a, U b) {
    if constexpr (sizeof(T) == 4 && kiln_is_float<T>) { return powf(a, (T)b); }
    else if constexpr (kiln_is_float<T>) { return pow(a, (T)b); }
    else {   // by squaring (a loop of b steps hung on 2 ** 10**12), unsigned: eager's wraps, C++'s signed is undefined
        if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);
        uint64_t r = 1, base = (uint64_t)(int64_t)a;
        for (uint64_t e = (uint64_t)b; e; e >>= 1) { if (e & 1) r *= base; base *= base; }
        return (T)r;
    }
}
#pragma omp declare reduction(kiln_max : float, double : omp_out = kiln_maximum(omp_out, omp_in)) \
    initializer(omp_priv = omp_orig)
#pragma omp declare reduction(kiln_min : float, double : omp_out = kiln_minimum(omp_out, omp_in)) \
    initializer(omp_priv = omp_orig)
template <typename T> static inline T kiln_sign(T a) { return a != a ? a : (T)((a > 0) - (a < 0)); }
template <typename T> static inline T kiln_sigmoid(T a) { return T(1) / (T(1) + kiln_exp(-a)); }
template <typename T> static inline T kiln_logaddexp(T a, T b) {   // log(exp(a) + exp(b)), NaN-propagating
    T m = kiln_maximum(a, b);
    return kiln_isinf(m) ? m : m + kiln_log1p(kiln_exp(-kiln_abs(a - b)));
}
template <typename T> static inline T kiln_bitnot(T a) { return ~a; }
static inline bool kiln_bitnot(bool a) { return !a; }
static inline uint64_t kiln_mix(uint64_t x) {   // splitmix64: a counter-based generator, one draw per element
    x += 0x9e3779b97f4a7c15ULL; x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL; return x ^ (x >> 31);
}
static inline float kiln_rand(int64_t seed, int64_t offset) {
    return (float)(kiln_mix(((uint64_t)seed << 32) ^ (uint64_t)offset) >> 40) * (1.0f / 16777216.0f);
}
static inline float kiln_randn(int64_t seed, int64_t offset) {
    uint64_t r = kiln_mix(((uint64_t)seed << 32) ^ (uint64_t)offset);
    float u1 = ((float)(r >> 40) + 1.0f) * (1.0f / 16777217.0f), u2 = (float)((r >> 16) & 0xffffff) * (1.0f / 16777216.0f);
    return kiln_sqrt(-2.0f * kiln_log(u1)) * kiln_cos(6.2831853071795865f * u2);
}
"""

BINARY_INFIX = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "eq": "==", "ne": "!=", "lt": "<", "le": "<=",
                "gt": ">", "ge": ">=", "logical_and": "&&", "logical_or": "||", "logical_xor": "!=",
                "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^"}
CPP_OPS = {
    **{op: f"kiln_{op}({{0}})" for op in MATH1 + ROUNDING_OPS + ("isnan", "isinf", "signbit", "abs", "relu")},
    **{op: f"{{0}} {sym} {{1}}" for op, sym in BINARY_INFIX.items()},
    **{op: f"kiln_{op}({{0}}, {{1}})" for op in ("maximum", "minimum", "floordiv", "truncdiv", "remainder", "fmod",
                                                 "pow", "lshift", "rshift")},
    **{op: f"kiln_{op}({{0}}, {{1}})" for op in MATH2},
    "neg": "-{0}", "logical_not": "!{0}", "bitwise_not": "kiln_bitnot({0})", "sign": "kiln_sign({0})",
    "sigmoid": "kiln_sigmoid({0})", "reciprocal": "1 / {0}", "rsqrt": "1 / kiln_sqrt({0})",
    "round": "kiln_nearbyint({0})", "where": "{0} ? {1} : {2}", "fma": "kiln_fma({0}, {1}, {2})",
    "rand": "kiln_rand({0}, {1})", "randn": "kiln_randn({0}, {1})",
    **{op: f"kiln_{op}({', '.join(['{0}', '{1}'][:special_arity(op)])})" for op in SPECIAL_FUNCTIONS},
}

SCATTER_COMBINE = {"sum": "add", "prod": "mul", "max": "maximum", "min": "minimum"}
REDUCTION_INIT = {"sum": "0", "prod": "1", "any": "false", "all": "true", "logaddexp": "-__builtin_inf()"}
REDUCTION_UPDATE = {"sum": "{acc} += {v};", "prod": "{acc} *= {v};", "any": "{acc} = {acc} || {v};",
                    "logaddexp": "{acc} = kiln_logaddexp({acc}, {v});",
                    "all": "{acc} = {acc} && {v};", "max": "{acc} = kiln_maximum({acc}, {v});",
                    "min": "{acc} = kiln_minimum({acc}, {v});"}


def special_library_source():
    """kiln_OP for every special function, in float and double, defined by ATen's scalar code."""
    lines = ["#include <ATen/native/Math.h>"]
    for op, fn in SPECIAL_FUNCTIONS.items():
        for t in ("float", "double"):
            lines.append(f"{special_signature(op, t)} {{ return {fn.format('x', 'y')}; }}")
    return "\n".join(lines) + "\n"


def uses_special_functions(kernel_texts):
    return any(f"kiln_{op}(" in text for text in kernel_texts for op in SPECIAL_FUNCTIONS)
