"""Random programs for `kiln fuzz`: a program is a list of inputs and a list of ops, rendered as Python source.

Each op is one or more lines of code that assign a new value `vN` from earlier values; an op is kept only if
eager runs it (so generated programs are valid by construction), except that with out_of_range=True an
indexing op whose eager run raises IndexError/RuntimeError may end the program (kiln must raise too).
The program returns every value no later op reads, so dropping ops while shrinking keeps outputs meaningful.
"""
import random
import re

import torch
import torch.nn.functional as F  # noqa: F401  (the generated code's namespace)

FLOAT = ("float32", "bfloat16")
DTYPES = ("float32", "bfloat16", "int64", "int32", "bool")
LAYOUTS = ("contig", "contig", "t", "slice", "expand")


def new_input(rng, shape, dtype, layout="contig", grad=False, high=None):
    dtype = str(dtype).replace("torch.", "")   # a name: programs are JSON
    return {"shape": list(shape), "dtype": dtype, "layout": layout, "grad": grad, "high": high}


def render_input(name, spec, specials, variant=0):
    """Lines building one input (and its grad leaf) from generator g; fp64 inputs when f64 is set."""
    shape = [s + variant if s > 1 else s for s in spec["shape"]]  # variant 1: a second shape for recompiles
    dtype, layout = spec["dtype"], spec["layout"]
    base = list(shape)
    if layout == "t" and len(base) >= 2:
        base[-1], base[-2] = base[-2], base[-1]
    elif layout == "slice" and base:
        base[0] = 2 * base[0]
    elif layout == "expand" and base:
        base[0] = 1
    if spec["high"] is not None:   # an index tensor
        make = f"torch.randint(0, {spec['high']}, {tuple(base)}, generator=g)"
    elif dtype in FLOAT:
        make = f"torch.randn({tuple(base)}, generator=g).to(torch.{dtype}).to(f(torch.{dtype}))"
        if specials:
            make = f"specials({make}, g)"
    elif dtype == "bool":
        make = f"(torch.rand({tuple(base)}, generator=g) < 0.5)"
    else:
        make = f"torch.randint(-8, 9, {tuple(base)}, generator=g).to(torch.{dtype})"
    # each input draws from its own generator, so shrinking or dropping one leaves the others' values alone
    # values are drawn on the CPU (the same on every device), then moved: the view below is taken on the device
    lines = [f"g = torch.Generator().manual_seed({spec['gen']} + seed)", f"{name}_leaf = {make}.to(device)"]
    if spec["grad"] and dtype in FLOAT:
        lines.append(f"{name}_leaf.requires_grad_(True)")
        lines.append(f"leaves.append({name}_leaf)")
    view = {"contig": "", "t": ".transpose(-1, -2)" if len(base) >= 2 else "",
            "slice": "[::2]" if base else "", "expand": f".expand({tuple(shape)})" if base else ""}[layout]
    lines.append(f"{name} = {name}_leaf{view}")
    return lines


def render(program, with_helpers=True, device="cpu"):
    """The program as a module defining fn(*inputs) and make_inputs(f64=False, variant=0, device) -> (leaves,
    inputs); device is make_inputs' default device."""
    names = [f"x{i}" for i in range(len(program["inputs"]))]
    out = ["import torch", "import torch.nn.functional as F", ""]
    if with_helpers and program.get("specials"):
        out += ["", "def specials(x, g):",
                "    # some elements become inf, -inf, nan, -0.0 or 0.0",
                "    pick = torch.randint(0, 12, x.shape, generator=g)",
                "    for k, v in enumerate((float('inf'), float('-inf'), float('nan'), -0.0, 0.0)):",
                "        x = torch.where(pick == k, torch.tensor(v, dtype=x.dtype), x)",
                "    return x", ""]
    out += ["", f"def fn({', '.join(names)}):"]
    for op in program["ops"]:
        out += ["    " + line for line in op["code"].split("\n")]
    out += [f"    return ({''.join(v + ', ' for v in outputs(program))})", ""]
    out += ["", f"def make_inputs(f64=False, variant=0, device={device!r}):",
            "    f = lambda d: torch.float64 if f64 and d.is_floating_point else d",
            f"    seed = {program['seed']} * 1000 + 100 * variant", "    leaves = []"]
    variants = [0, 1] if program.get("twice") else [0]   # variant 1: a second shape, to recompile
    for variant in variants:
        indent = "        " if program.get("twice") else "    "
        if program.get("twice"):
            out.append("    if variant == %d:" % variant)
        for name, spec in zip(names, program["inputs"]):
            out += [indent + line for line in render_input(name, spec, program.get("specials"), variant)]
    out += [f"    return leaves, [{', '.join(names)}]", ""]
    return "\n".join(out) + "\n"


def reads(op):
    return set(re.findall(r"\b[vx]\d+\b", op["code"])) - {op["out"]}


def outputs(program):
    read = set().union(*[reads(op) for op in program["ops"]]) if program["ops"] else set()
    return [op["out"] for op in program["ops"] if op["out"] not in read]


# ---------------------------------------------------------------------------------------------- the op menu
# each entry: (name, function(rng, a, pool, add_input) -> code template or None); `a` is a random earlier value
# (its eager tensor in a.t, its name in a.n); the template uses {o} for the new value's name.

def _dim(rng, t):
    return rng.randrange(t.dim()) if t.dim() else None


def _other(rng, a, pool, want=None):
    """Another earlier value broadcastable with a (of a wanted kind), or None."""
    cands = []
    for v in pool:
        try:
            torch.broadcast_shapes(a.t.shape, v.t.shape)
        except RuntimeError:
            continue
        if want is None or want(v.t):
            cands.append(v)
    return rng.choice(cands) if cands else None


def isfloat(t):
    return t.is_floating_point()


def isint(t):
    return not t.is_floating_point() and t.dtype != torch.bool


UNARY_FLOAT = ["neg", "abs", "exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "sqrt", "rsqrt", "floor",
               "ceil", "round", "trunc", "sign", "reciprocal", "erf", "expm1", "log1p", "square", "frac"]
UNARY_FN = ["gelu", "silu", "softplus", "hardtanh", "leaky_relu", "elu"]
# Eager's CPU gradient of these at NaN depends on the element's position: the vectorized body gives 0 (hardtanh)
# or NaN (elu), the scalar tail passes the gradient through (fuzz seeds 80667, 84845); CUDA passes it. It is
# unspecified, so their NaN inputs are made 0.
NAN_GRAD_BY_POSITION = {"hardtanh", "elu"}


def op_unary(rng, a, pool, add_input):
    if isfloat(a.t):
        if rng.random() < 0.25:
            fn = rng.choice(UNARY_FN)
            x = f"torch.where({a.n}.isnan(), 0.0, {a.n})" if fn in NAN_GRAD_BY_POSITION else a.n
            return f"{{o}} = F.{fn}({x})"
        return f"{{o}} = torch.{rng.choice(UNARY_FLOAT)}({a.n})"
    if a.t.dtype == torch.bool:
        return f"{{o}} = torch.logical_not({a.n})"
    return f"{{o}} = torch.{rng.choice(['neg', 'abs', 'bitwise_not', 'sign', 'square'])}({a.n})"


def _rhs(rng, a, pool, want=None):
    b = _other(rng, a, pool, want)
    if b is None or rng.random() < 0.25:
        if a.t.dtype == torch.bool:
            return "True"
        return rng.choice(["2", "-3", "0.5", "1.5", "-2.0"]) if isfloat(a.t) else rng.choice(["2", "-3", "5"])
    return b.n


def op_binary(rng, a, pool, add_input):
    if a.t.dtype == torch.bool:
        fn = rng.choice(["logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_xor", "eq"])
        return f"{{o}} = torch.{fn}({a.n}, {_rhs(rng, a, pool, lambda t: t.dtype == torch.bool)})"
    b = _rhs(rng, a, pool, lambda t: t.dtype != torch.bool)
    fn = rng.choice(["add", "sub", "mul", "div", "div_floor", "div_trunc", "floor_divide", "fmod", "remainder",
                     "pow", "maximum", "minimum", "atan2", "shift", "bitwise", "hypot", "copysign"])
    if fn in ("div_floor", "div_trunc"):
        return f"{{o}} = torch.div({a.n}, {b}, rounding_mode='{fn[4:]}')"
    if fn == "pow":
        if isint(a.t):   # integer powers with small non-negative exponents: no overflow, no negative powers
            if b[0] in "vx" and isint(_val(pool, b)):
                return f"{{o}} = torch.pow({a.n}, {b} % 3)"
            return f"{{o}} = torch.pow({a.n}, 2)"
        return f"{{o}} = torch.pow({a.n}, {b})"
    if fn in ("shift", "bitwise"):
        if not (isint(a.t) and (b[0] not in "vx" or isint(_val(pool, b)))):
            return None
        if fn == "bitwise":
            return f"{{o}} = torch.{rng.choice(['bitwise_and', 'bitwise_or', 'bitwise_xor'])}({a.n}, {b})"
        count = f"({b}.abs() % 8)" if b[0] in "vx" else str(abs(int(b)) % 8)   # in-range counts
        return f"{{o}} = torch.bitwise_{rng.choice(['left', 'right'])}_shift({a.n}, {count})"
    if fn in ("atan2", "hypot", "copysign") and not isfloat(a.t):
        return None
    if fn == "copysign" and b[0] in "vx":
        # a computed NaN's sign is unspecified (IEEE 754): x86's log(-1.5) is -NaN, torch's vectorized one and
        # a GPU's +NaN; a computed zero's sign depends on the formula, and eager's formulas vary with layout
        # (its batch_norm of a constant column is -0.0 for a contiguous input, +0.0 for an expanded one:
        # fuzz seed 82994). copysign would read them, so the sign operand's NaNs and zeros are made positive
        b = f"torch.where({b}.isnan() | ({b} == 0), {b}.abs(), {b})"
    return f"{{o}} = torch.{fn}({a.n}, {b})"


def _val(pool, name):
    return next(v.t for v in pool if v.n == name)


def op_compare(rng, a, pool, add_input):
    fn = rng.choice(["eq", "ne", "lt", "le", "gt", "ge"])
    return f"{{o}} = torch.{fn}({a.n}, {_rhs(rng, a, pool, lambda t: t.dtype != torch.bool)})"


def op_where(rng, a, pool, add_input):
    b = _rhs(rng, a, pool, lambda t: t.dtype == a.t.dtype)
    zero = "False" if a.t.dtype == torch.bool else "0"
    return f"{{o}} = torch.where({a.n} > {zero}, {a.n}, {b})" if a.t.dtype != torch.bool else \
        f"{{o}} = torch.where({a.n}, {b}, {a.n})"


def op_clamp(rng, a, pool, add_input):
    if a.t.dtype == torch.bool:
        return None
    lo, hi = (-0.5, 0.75) if isfloat(a.t) else (-2, 3)
    kind = rng.choice(["both", "min", "max"])
    args = {"both": f"min={lo}, max={hi}", "min": f"min={lo}", "max": f"max={hi}"}[kind]
    return f"{{o}} = torch.clamp({a.n}, {args})"


def op_cast(rng, a, pool, add_input):
    return f"{{o}} = {a.n}.to(torch.{rng.choice(DTYPES)})"


def op_reduce(rng, a, pool, add_input):
    fn = rng.choice(["sum", "mean", "amax", "amin", "argmax", "var", "std", "prod", "any", "argmin"])
    if fn in ("mean", "var", "std") and not isfloat(a.t):
        return None
    d = _dim(rng, a.t)
    if d is None or rng.random() < 0.2:
        return f"{{o}} = torch.{fn}({a.n})"
    keep = rng.choice([True, False])
    if fn in ("sum", "mean", "amax", "amin") and a.t.dim() >= 2 and rng.random() < 0.3:
        return f"{{o}} = torch.{fn}({a.n}, dim=({d}, {(d + 1) % a.t.dim()}), keepdim={keep})"
    return f"{{o}} = torch.{fn}({a.n}, dim={d}, keepdim={keep})"


def op_scan(rng, a, pool, add_input):
    d = _dim(rng, a.t)
    return None if d is None else f"{{o}} = torch.{rng.choice(['cumsum', 'cumprod'])}({a.n}, dim={d})"


def op_view(rng, a, pool, add_input):
    t, n = a.t, a.n
    nd = t.dim()
    kind = rng.choice(["slice", "step", "flip", "transpose", "permute", "expand", "reshape", "flatten",
                       "unsqueeze", "select", "narrow", "squeeze", "as_strided"])
    if kind == "as_strided":   # its own elements, or all but the first along dim 0, at an explicit storage offset
        shape, stride, offset = list(t.shape), list(t.stride()), t.storage_offset()
        if nd and shape[0] > 1 and rng.random() < 0.5:
            shape[0], offset = shape[0] - 1, offset + stride[0]
        return f"{{o}} = {n}.as_strided({shape}, {stride}, {offset})"
    if kind == "unsqueeze":
        return f"{{o}} = {n}.unsqueeze({rng.randrange(nd + 1)})"
    if kind == "reshape":
        return f"{{o}} = {n}.reshape(-1)" if rng.random() < 0.5 else f"{{o}} = {n}.reshape({t.numel()}, 1)"
    if nd == 0:
        return None
    d = _dim(rng, t)
    size = t.shape[d]
    if kind == "slice":
        start = rng.randrange(size + 1)
        return f"{{o}} = {n}[{':, ' * d}{start}:]"
    if kind == "step":
        return f"{{o}} = {n}[{':, ' * d}{rng.randrange(max(size, 1))}::{rng.choice([2, 3])}]"
    if kind == "flip":
        return f"{{o}} = {n}.flip({d})"
    if kind == "transpose":
        return f"{{o}} = {n}.transpose({d}, {rng.randrange(nd)})"
    if kind == "permute":
        perm = list(range(nd))
        rng.shuffle(perm)
        return f"{{o}} = {n}.permute({perm})"
    if kind == "expand":
        if 1 not in t.shape:
            return f"{{o}} = {n}.unsqueeze(0).expand(3, *{list(t.shape)})"
        return f"{{o}} = {n}.expand({[3 if s == 1 else s for s in t.shape]})"
    if kind == "flatten":
        return f"{{o}} = {n}.flatten({d})"
    if kind == "select":
        return None if size == 0 else f"{{o}} = {n}.select({d}, {rng.randrange(-size, size)})"
    if kind == "narrow":
        start = rng.randrange(size + 1)
        return f"{{o}} = {n}.narrow({d}, {start}, {rng.randrange(size - start + 1)})"
    return f"{{o}} = {n}.squeeze({d})"


def op_join(rng, a, pool, add_input):
    t, n = a.t, a.n
    kind = rng.choice(["cat", "stack", "pad"])
    if kind == "pad":
        if t.dim() == 0 or t.dtype == torch.bool:
            return None
        pads = [rng.randrange(-1, 3) for _ in range(2 * min(t.dim(), 2))]
        return f"{{o}} = F.pad({n}, {pads}, value={rng.choice([0, 1, -2])})"
    others = [v.n for v in pool if v.t.shape == t.shape and v.t.dtype == t.dtype] or [n]
    b = rng.choice(others)
    if kind == "stack":
        return f"{{o}} = torch.stack([{n}, {b}], dim={rng.randrange(t.dim() + 1)})"
    if t.dim() == 0:
        return None
    return f"{{o}} = torch.cat([{n}, {b}], dim={_dim(rng, t)})"


def _index(rng, add_input, size, shape, oob):
    high = size + 3 if oob else size   # out of range only under the opt-in flag
    if high == 0:
        return None
    return add_input(new_input(rng, shape, "int64", high=high))


def op_index(rng, a, pool, add_input, oob=False):
    t, n = a.t, a.n
    if t.dim() == 0:
        return None
    oob = oob and rng.random() < 0.3
    d = _dim(rng, t)
    size = t.shape[d]
    kind = rng.choice(["gather", "scatter", "scatter_add", "index_select", "index_put", "index_put_acc",
                       "getitem"])
    if kind == "index_select" or kind == "getitem":
        idx = _index(rng, add_input, size, [rng.randrange(0, 5)], oob)
        if idx is None:
            return None
        return f"{{o}} = torch.index_select({n}, {d}, {idx})" if kind == "index_select" else f"{{o}} = {n}[{idx}]"
    if kind in ("gather", "scatter", "scatter_add"):
        shape = [rng.randrange(0, s + 1) if i != d else rng.randrange(0, 4) for i, s in enumerate(t.shape)]
        idx = _index(rng, add_input, size, shape, oob)
        if idx is None:
            return None
        if kind == "gather":
            return f"{{o}} = torch.gather({n}, {d}, {idx})"
        src = f"{n}[{', '.join(f':{s}' for s in shape)}]"
        if kind == "scatter" and rng.random() < 0.5:
            src = "2" if t.dtype != torch.bool else "True"
        return f"{{o}} = torch.{kind}({n}, {d}, {idx}, {src})"
    idx = _index(rng, add_input, t.shape[0], [rng.randrange(0, 5)], oob)
    if idx is None:
        return None
    value = rng.choice(["-1", f"{n}[:1]"]) if t.dtype != torch.bool else "True"
    if kind == "index_put_acc" and t.dtype != torch.bool:
        return f"{{o}} = {n}.index_put(({idx},), {n}[:1].expand({idx}.shape[0], *{n}.shape[1:]), accumulate=True)"
    return f"{{o}} = {n}.clone()\n{{o}}[{idx}] = {value}"


def op_matmul(rng, a, pool, add_input):
    t, n = a.t, a.n
    if not isfloat(t) or t.dim() == 0 or t.dim() > 3:
        return None
    k = t.shape[-1]
    m = rng.choice([1, 3, 4, 0])
    kind = rng.choice(["matmul", "linear", "bmm"])
    if kind == "bmm":
        if t.dim() != 3:
            return None
        w = add_input(new_input(rng, [t.shape[0], k, m], a.t.dtype, rng.choice(LAYOUTS), grad=True))
        return f"{{o}} = torch.bmm({n}, {w})"
    if kind == "linear":
        w = add_input(new_input(rng, [m, k], a.t.dtype, rng.choice(LAYOUTS), grad=True))
        bias = add_input(new_input(rng, [m], a.t.dtype, grad=True)) if rng.random() < 0.5 else "None"
        return f"{{o}} = F.linear({n}, {w}, {bias})"
    w = add_input(new_input(rng, [k, m] if rng.random() < 0.8 else [k], a.t.dtype, rng.choice(LAYOUTS), grad=True))
    return f"{{o}} = torch.matmul({n}, {w})"


def op_norm(rng, a, pool, add_input):
    t, n = a.t, a.n
    if not isfloat(t) or t.dim() == 0:
        return None
    kind = rng.choice(["softmax", "log_softmax", "layer_norm", "batch_norm", "dropout"])
    if kind in ("softmax", "log_softmax"):
        return f"{{o}} = torch.{kind}({n}, dim={_dim(rng, t)})"
    if kind == "dropout":
        return f"{{o}} = F.dropout({n}, p=0.0, training=True)"
    if kind == "layer_norm":
        shape = list(t.shape[-1:])
        w = add_input(new_input(rng, shape, t.dtype, grad=True)) if rng.random() < 0.6 else "None"
        return f"{{o}} = F.layer_norm({n}, {shape}, {w}, None, 1e-5)"
    if t.dim() < 2:
        return None
    c = t.shape[1]
    train = rng.random() < 0.5
    w = add_input(new_input(rng, [c], t.dtype, grad=True))
    if train:   # batch statistics; no running stats (a mutated input would be compared nowhere)
        return f"{{o}} = F.batch_norm({n}, None, None, {w}, None, training=True)"
    mean = add_input(new_input(rng, [c], t.dtype))
    var = add_input(new_input(rng, [c], t.dtype))
    return f"{{o}} = F.batch_norm({n}, {mean}, {var}.abs() + 0.5, {w}, None, training=False)"


def op_inplace(rng, a, pool, add_input):
    t, n = a.t, a.n
    if t.dim() == 0:
        return None
    value = "True" if t.dtype == torch.bool else rng.choice(["5", "-1"])
    index = rng.choice(["[..., ::2]", "[1:]", "[:, 0]" if t.dim() >= 2 else "[0]"])
    if rng.random() < 0.5 and t.dtype != torch.bool:
        return f"{{o}} = {n}.clone()\n{{o}}{index} += {value}"
    return f"{{o}} = {n}.clone()\n{{o}}{index} = {value}"


MENU = [(op_unary, 4), (op_binary, 5), (op_compare, 1), (op_where, 1), (op_clamp, 1), (op_cast, 2),
        (op_reduce, 3), (op_scan, 1), (op_view, 4), (op_join, 2), (op_index, 2), (op_matmul, 1.5),
        (op_norm, 2), (op_inplace, 1)]


class Value:
    def __init__(self, name, t):
        self.n, self.t = name, t


def random_shape(rng):
    nd = rng.choice([0, 1, 2, 2, 3, 3, 4])
    return [rng.choice([1, 1, 2, 3, 4, 5, 7, 0] if rng.random() < 0.3 else [1, 2, 3, 4, 5, 6, 7, 8])
            for _ in range(nd)]


def generate(seed, n_ops=None, dynamic_fraction=0.2, specials=False, out_of_range=False):
    """A random program (a JSON-able dict), deterministic by seed."""
    rng = random.Random(seed)
    program = {"seed": seed, "inputs": [], "ops": [], "specials": specials,
               "dynamic": rng.random() < dynamic_fraction}
    program["twice"] = program["dynamic"] and rng.random() < 0.5
    grad = rng.random() < 0.6
    for _ in range(rng.choice([1, 1, 2, 3])):
        dtype = rng.choice(["float32"] * 4 + ["bfloat16", "int64", "int32", "bool"])
        program["inputs"].append({**new_input(rng, random_shape(rng), dtype, rng.choice(LAYOUTS),
                                                grad=grad and dtype in FLOAT), "gen": len(program["inputs"])})
    pool = pool_of(program)
    for _ in range(n_ops or rng.randint(1, 8)):
        fns, weights = zip(*MENU)
        for _attempt in range(10):
            fn = rng.choices(fns, weights)[0]
            a = rng.choice(pool)
            saved = list(program["inputs"])

            def add_input(spec):
                program["inputs"].append({**spec, "gen": len(program["inputs"])})
                name = f"x{len(program['inputs']) - 1}"
                pool.append(Value(name, eval_input(program, program["inputs"][-1])))
                return name
            pool_len = len(pool)
            try:
                code = fn(rng, a, pool, add_input, oob=out_of_range) if fn is op_index else fn(rng, a, pool, add_input)
            except Exception:  # noqa: BLE001 (a menu entry's bug costs one op, not the campaign)
                code = None
            out = f"v{len(program['inputs']) + len(program['ops'])}"
            ok, raised = False, False
            if code is not None:
                code = code.format(o=out)
                try:
                    pool.append(Value(out, run_op(code, out, pool)))
                    ok = True
                except (IndexError, RuntimeError):
                    raised = fn is op_index and out_of_range
                except Exception:  # noqa: BLE001 (eager rejects it: try another op)
                    pass
            if ok or raised:
                program["ops"].append({"name": op_name(code), "code": code, "out": out})
                break
            program["inputs"][:] = saved
            del pool[pool_len:]
            pool[:] = [v for v in pool if not v.n.startswith("x") or int(v.n[1:]) < len(saved)]
        if program["ops"] and not ok:
            break   # an out-of-range op ends the program: nothing after it can run eagerly
    # renumber nothing: names only need to be unique
    return program


def op_name(code):
    m = re.search(r"(?:torch|F)\.(\w+)\(|\.(\w+)\(|(\[)", code.split("=", 1)[1])
    if not m:
        return "unknown"
    if m.group(3):
        return "setitem" if "\n" in code else "getitem"
    name = m.group(1) or m.group(2)
    if name == "clone":
        return "index_put" if re.search(r"\[x\d+\]", code) else "clone_setitem"
    if name == "div" and "rounding_mode" in code:
        name += "_" + re.search(r"rounding_mode='(\w+)'", code).group(1)
    return name


NAMESPACE = {"torch": torch, "F": F}


def eval_input(program, spec):
    src = render({**program, "inputs": [spec], "ops": [], "twice": False})
    ns = dict(NAMESPACE)
    exec(src, ns)  # noqa: S102 (our own generated code)
    return ns["make_inputs"]()[1][0].detach()


def pool_of(program):
    src = render({**program, "ops": [], "twice": False})
    ns = dict(NAMESPACE)
    exec(src, ns)  # noqa: S102
    return [Value(f"x{i}", t.detach()) for i, t in enumerate(ns["make_inputs"]()[1])]


def run_op(code, out, pool):
    env = {**NAMESPACE, **{v.n: v.t for v in pool}}
    with torch.no_grad():
        exec(code, env)  # noqa: S102
    result = env[out]
    if not isinstance(result, torch.Tensor):
        raise TypeError("not a tensor")
    return result
