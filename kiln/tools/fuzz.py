"""`kiln fuzz`: random programs (kiln/tools/fuzz_gen.py) compiled by kiln and compared with eager.

Each program runs in a worker subprocess (one per target; the "triton" one has TRITON_INTERPRET=1 set before
triton is imported; "cuda" runs eager, the fp64 reference and kiln's Triton kernels on the GPU), so a segfault,
abort or hang is recorded as a crash and the campaign goes on. A result fails if kiln's outputs or gradients
fail kiln's fp64 accuracy rule, if output dtypes, shapes or strides differ from eager's, if outputs that view
one storage in eager do not in kiln's (or the reverse), if kiln raises where eager does not, or if eager raises
and kiln returns. Each new failure is shrunk (delta debugging over ops, input shapes and layouts) and written to
--out as JSON and markdown with a standalone pytest repro. Each campaign gives its workers their own caches
(unless KILN_CACHE_DIR, TRITON_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR are set), so campaigns with other --seed and
--out can run side by side.
"""
import argparse
import contextlib
import functools
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

WORKER_TIMEOUT = 120   # seconds for one program (C++ builds included) before it counts as a hang
# target -> (device of the inputs, kiln options besides strict)
TARGETS = {"cpp": ("cpu", {"target": "cpp"}), "triton": ("cpu", {"target": "triton"}),
           "cuda": ("cuda", {"target": "triton"}), "aot_eager": ("cpu", None)}   # aot_eager: torch's share


# ------------------------------------------------------------------------------------------ worker side

def _loss_grads(outs, leaves, torch):
    """Gradients of a fixed weighted sum of the floating outputs that need them."""
    terms = [(o.double() * torch.cos(torch.arange(o.numel(), dtype=torch.float64, device=o.device))
              .reshape(o.shape)).sum()
             for o in outs if o.requires_grad and o.is_floating_point()]
    if not terms or not leaves:
        return []
    return list(torch.autograd.grad(sum(terms), leaves, allow_unused=True))


def _run(fn, make, variant, torch, device, f64=False, nudge=None, rounding=None):
    """fn's outputs and gradients on the program's inputs; with nudge (a generator), on inputs each moved by one
    ulp (accuracy.nudged): the leaves in place, so that the inputs viewing them move too, and the other inputs;
    with rounding (an accuracy.RoundedOtherwise), with every op, forward and backward, rounded otherwise."""
    leaves, xs = make(f64=f64, variant=variant, device=device)
    if nudge is not None:
        from kiln.tools.accuracy import nudged
        with torch.no_grad():
            for leaf in leaves:
                leaf.copy_(nudged(leaf, nudge))
        xs = [x if not isinstance(x, torch.Tensor) or x.requires_grad else nudged(x, nudge) for x in xs]
    with rounding if rounding is not None else contextlib.nullcontext():
        outs = list(fn(*xs))
        return outs, _loss_grads(outs, leaves, torch)


def _layout_differs(a, b):
    """(kind, detail) where kiln's output a is laid out otherwise than eager's b, as a caller can observe it: the
    strides of dims longer than one, and the storage offset (eager code past a graph break may read it); None if
    not."""
    if a.numel() == 0:
        return None
    if any(sa != sb for n, sa, sb in zip(a.shape, a.stride(), b.stride()) if n > 1):
        return "strides", f"strides {a.stride()} vs eager's {b.stride()} for shape {list(a.shape)}"
    if a.storage_offset() != b.storage_offset():
        return "storage_offset", f"storage offset {a.storage_offset()} vs eager's {b.storage_offset()}"
    return None


@contextlib.contextmanager
def interpreter_bf16_casts_round_to_nearest_even():
    """The Triton interpreter's fp32 -> bf16 cast rounded to nearest even, as on GPUs (cvt.rn.bf16.f32) and in
    torch. The interpreter (Triton 3.6 and 3.9) truncates, whatever fp_downcast_rounding says: explicit "rtne"
    is the default and takes the same truncating path."""
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter
    truncating = interpreter.InterpreterBuilder.cast_impl

    def cast_impl(self, src, dst_type):
        if src.dtype.scalar != tl.float32 or dst_type.scalar != tl.bfloat16:
            return truncating(self, src, dst_type)
        x = np.asarray(src.data, dtype=np.float32)
        bits = x.view(np.uint32)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        return interpreter.TensorHandle(np.where(np.isnan(x), np.uint16(0x7FC0), rounded), dst_type.scalar)
    interpreter.InterpreterBuilder.cast_impl = cast_impl
    try:
        yield
    finally:
        interpreter.InterpreterBuilder.cast_impl = truncating


def run_case(case, target):
    """One program on one target of TARGETS: {'kind': 'ok'} or a failure {'kind', 'detail', 'output'}.

    A wrong value on the Triton interpreter that goes away when the interpreter's fp32 -> bf16 casts round to
    nearest even is the interpreter's artifact, not kiln's: kind 'artifact:interpreter_bf16_cast'. A failure
    that torch.compile's aot_eager backend (Dynamo and AOTAutograd, no compiler) shows the same way is torch's:
    the graph kiln receives already computes it (prod's traced backward of a NaN beside two zeros is NaN, where
    eager's data-dependent formula gives 0), or an error it raises as kiln does (std's traced backward of one
    element divides a size hint by zero): kind 'artifact:aot_autograd'. An integer division by zero that CPU
    eager raises and the Triton target returns is a GPU's semantics, which that target keeps (CUDA eager divides
    by zero without an error; the interpreter runs the target on CPU tensors): kind 'artifact:gpu_semantics'.
    A wrong value that passes once eager's error is the largest over its run and NUDGED_RUNS runs on inputs
    moved by one ulp (the bench's rule, kiln.tools.accuracy) is rounding that an ill-conditioned output amplifies,
    where eager's one run was a lucky draw: kind 'artifact:ill_conditioned'. (Seed 187733: a layer norm's gradient
    over rows of identical values is the rounding residue of terms near 100 that cancel; eager is 1.3e-5 to 5.4e-5
    from fp64 over six inputs, kiln 3.0e-5 on C++ and 6.4e-5 on the interpreter.) The re-check also counts
    ROUNDED_RUNS runs of eager with its ops rounded otherwise (accuracy.RoundedOtherwise): an output behind a
    discontinuity (trunc, a cast to an integer) that flips when an intermediate rounds by one ulp, as a compiler's
    fused kernel may round it (seeds 224142, 270267, 293849)."""
    from kiln.tools.accuracy import NUDGED_RUNS, ROUNDED_RUNS
    if case.get("graphed"):   # (its plain case first, artifacts and all)
        plain = run_case(dict(case, graphed=False), target)
        return _run_graphed_case(case, target) if plain["kind"] == "ok" else plain
    result = _run_case(case, target)
    if target == "triton" and result["kind"] == "no_raise" and result["eager_error"] == "RuntimeError: ZeroDivisionError":
        return {"kind": "artifact:gpu_semantics", "detail": result["detail"], "output": None}
    if target == "triton" and result["kind"].endswith("wrong_values"):
        with interpreter_bf16_casts_round_to_nearest_even():
            if _run_case(case, target)["kind"] == "ok":
                return {"kind": "artifact:interpreter_bf16_cast", "detail": result["detail"], "output": None}
    if result["kind"].endswith("wrong_values") and \
            _run_case(case, target, nudged_runs=NUDGED_RUNS, rounded_runs=ROUNDED_RUNS)["kind"] == "ok":
        return {"kind": "artifact:ill_conditioned", "detail": result["detail"], "output": None}
    layout_or_values = ("wrong_values", "strides", "storage_offset", "aliasing")
    if target != "aot_eager" and result["kind"].endswith(layout_or_values) and \
            _run_case(case, "aot_eager")["kind"] == result["kind"]:
        return {"kind": "artifact:aot_autograd", "detail": result["detail"], "output": None}
    if target != "aot_eager" and result["kind"].startswith("raise:") and \
            _run_case(case, "aot_eager").get("detail") == result["detail"].replace("backend='kiln'", "backend='aot_eager'"):
        return {"kind": "artifact:aot_autograd", "detail": result["detail"], "output": None}
    return result


def _run_case(case, target, nudged_runs=0, rounded_runs=0):
    import torch

    from kiln.tools.accuracy import Float64Throughout, RoundedOtherwise
    torch._dynamo.reset()
    ns = {}
    exec(compile(case["src"], "<fuzz program>", "exec"), ns)  # noqa: S102 (a generated program)
    fn, make = ns["fn"], ns["make_inputs"]
    if case.get("frozen"):
        return _run_frozen_case(fn, make, case, target)
    device = TARGETS[target][0]
    compiled = _compiled(fn, target, case)
    for variant in ([0, 1] if case["twice"] else [0]):
        make(variant=variant, device=device)   # raises here if the inputs cannot be built: not eager's error
        try:
            eager, eager_grads = _run(fn, make, variant, torch, device)
        except Exception as e:  # noqa: BLE001 (eager's error: kiln must raise too)
            try:
                _run(compiled, make, variant, torch, device)
            except Exception:  # noqa: BLE001
                continue
            return {"kind": "no_raise", "detail": f"eager raised {type(e).__name__}: {str(e)[:200]}; kiln returned",
                    "output": None, "eager_error": f"{type(e).__name__}: {str(e).strip()}"}
        try:
            with Float64Throughout():   # the program's own casts to bf16 too (as kiln bench's reference)
                fp64, fp64_grads = _run(fn, make, variant, torch, device, f64=True)
        except Exception:  # noqa: BLE001 (fp64 inputs not accepted: eager is the reference)
            fp64, fp64_grads = eager, eager_grads
        try:
            nudged = [_run(fn, make, variant, torch, device, nudge=torch.Generator().manual_seed(run))
                      for run in range(nudged_runs)]
        except Exception:  # noqa: BLE001 (eager fails one ulp away: no nudged runs, the plain rule)
            nudged = []
        try:   # the first with every op rounded otherwise, the others with a random half of its elements
            rounded = [_run(fn, make, variant, torch, device,
                            rounding=RoundedOtherwise(torch.Generator().manual_seed(run) if run else None))
                       for run in range(rounded_runs)]
        except Exception:  # noqa: BLE001 (as the nudged runs)
            rounded = []
        try:
            result, grads = _run(compiled, make, variant, torch, device)
        except Exception as e:  # noqa: BLE001
            return _raised(e)
        for k, (what, res, ref, ref64) in enumerate((("output", result, eager, fp64),
                                                     ("grad", grads, eager_grads, fp64_grads))):
            failure = _mismatch(what, res, ref, ref64, f"variant {variant}: ", [run[k] for run in nudged],
                                [run[k] for run in rounded])
            if failure:
                return failure
        if _sharing(result) != _sharing(eager):   # (a write into one output shows in the others in eager)
            return {"kind": "output_aliasing", "output": None, "detail": f"variant {variant}: outputs in one "
                    f"storage {_sharing(result)}, eager's {_sharing(eager)}"}
    return {"kind": "ok"}


def _sharing(outs):
    """The groups of outputs (their indices) that view one storage, where more than one does."""
    import torch
    groups = {}
    for i, o in enumerate(outs):
        if isinstance(o, torch.Tensor) and o.numel():
            groups.setdefault(o.untyped_storage().data_ptr(), []).append(i)
    return sorted(g for g in groups.values() if len(g) > 1)


def _compiled(fn, target, case, mode=None, **options):
    """fn compiled for target as case asks (dynamic or not): by kiln, strict, in mode, with options, or by torch's
    aot_eager (torch's share of a failure)."""
    import torch

    import kiln
    dynamic = True if case["dynamic"] else None
    target_options = TARGETS[target][1]
    if target_options is None:
        return torch.compile(fn, backend="aot_eager", dynamic=dynamic)
    return kiln.compile(fn, dynamic=dynamic, mode=mode, options={"strict": True, **options, **target_options})


def _raised(e, prefix=""):
    last = traceback.format_exception_only(type(e), e)[-1].strip()
    return {"kind": f"{prefix}raise:{type(e).__name__}", "detail": last[:600], "output": None}


def _mismatch(what, results, eager, fp64, where, nudged=(), rounded=(), prefix=""):
    """The first failure of outputs or gradients (what) against eager's and fp64's by the accuracy rule (nudged,
    rounded: the same outputs of eager's nudged and rounded runs), and of the outputs' strides and storage offsets
    (eager code past a graph break may read them); None if none."""
    from kiln.tools.accuracy import accuracy_error
    if len(results) != len(eager):
        return {"kind": f"{prefix}{what}_count", "detail": f"{len(results)} vs eager's {len(eager)}", "output": None}
    detached = lambda t: [t.detach() if t is not None else None]  # noqa: E731 (one tensor as accuracy_error's list)
    for i, (r, e, e64) in enumerate(zip(results, eager, fp64)):
        error = accuracy_error(detached(r), detached(e), detached(e64), nudged=[detached(run[i]) for run in nudged],
                               rounded=[detached(run[i]) for run in rounded])
        if error:
            kind = "dtype_shape" if error.startswith("output 0: expected") else "wrong_values"
            return {"kind": f"{prefix}{what}_{kind}", "detail": where + error[10:], "output": i, "what": what,
                    "dtype": str(e.dtype).replace("torch.", "")}
        layout = _layout_differs(r, e) if what == "output" and r is not None else None
        if layout:
            return {"kind": f"{prefix}output_{layout[0]}", "detail": where + layout[1], "output": i, "what": what,
                    "dtype": str(e.dtype).replace("torch.", "")}
    return None


GRAPHED_CALLS = (0, 0, 0, 1, 0, 1, 1, 0)   # the input set of each call; a digit again: the same tensors


def _run_graphed_case(case, target):
    """A graphed case (after its plain case passed: run_case): fn compiled with mode="reduce-overhead" (CUDA graphs;
    on the CPU targets through graph_stand_in's recorder, which replays as a CUDA graph does) and called as a loop
    calls it, GRAPHED_CALLS over two input sets (the second the program's variant 1 where the plain case checked
    it, else variant 0's values in other tensors): the same tensors again (read in place), then the other set's
    (new places: copied into the graph's buffers, or recorded again), every result kept by the caller. Each call's
    outputs and gradients must be the default mode's on the same inputs, bit for bit on the CPU (the same
    kernels), laid out alike; at the end every kept result still is, and no two calls' results share a storage
    that is not an input's (a replay wrote over a result the caller holds, whatever the values)."""
    import torch

    from kiln.tools.graph_stand_in import installed
    ns = {}
    exec(compile(case["src"], "<fuzz program>", "exec"), ns)  # noqa: S102 (a generated program)
    fn, make = ns["fn"], ns["make_inputs"]
    device = TARGETS[target][0]
    exact = device == "cpu"
    inputs = [make(variant=v, device=device) for v in (0, 1 if case["twice"] else 0)]
    default = _compiled(fn, target, case)
    try:
        expected = [_run(default, lambda **_: leaves_xs, 0, torch, device) for leaves_xs in inputs]
    except Exception:  # noqa: BLE001 (eager raises on these inputs: the plain case checked kiln raises too)
        return {"kind": "ok"}
    torch._dynamo.reset()   # (a fresh compile: not the default mode's shapes turned dynamic)
    mine = {t.untyped_storage().data_ptr() for leaves, xs in inputs for t in [*leaves, *xs]
            if isinstance(t, torch.Tensor)}
    kept, owner = [], {}
    with installed() if device == "cpu" else contextlib.nullcontext():
        graphed = _compiled(fn, target, case, mode="reduce-overhead")
        for k, v in enumerate(GRAPHED_CALLS):
            where = f"call {k} (input set {v}): "
            try:
                result = _run(graphed, lambda **_: inputs[v], 0, torch, device)
            except Exception as e:  # noqa: BLE001
                return _raised(e, "graphed_")
            failure = _differs(where, *result, *expected[v], exact)
            if failure:
                return failure
            for t in [*result[0], *result[1]]:
                address = t.untyped_storage().data_ptr() if isinstance(t, torch.Tensor) and t.numel() else None
                if address is not None and address not in mine and owner.setdefault(address, k) != k:
                    return {"kind": "graphed_shared_storage", "output": None,
                            "detail": f"{where}a result in the storage of call {owner[address]}'s, still held"}
            kept.append((k, v, result))
        for k, v, result in kept:
            failure = _differs(f"call {k}'s results, kept until the last call: ", *result, *expected[v], exact)
            if failure:
                return failure
    return {"kind": "ok"}


def _differs(where, outs, grads, want_outs, want_grads, exact):
    """The first output or gradient that is not the one wanted (bit for bit where exact, NaN equal to NaN; else
    by torch.testing's tolerances), or laid out otherwise; None if none."""
    import torch
    for what, got, want in (("output", outs, want_outs), ("grad", grads, want_grads)):
        if len(got) != len(want):
            return {"kind": f"graphed_{what}_count", "detail": f"{where}{len(got)} vs {len(want)}", "output": None}
        for i, (a, b) in enumerate(zip(got, want)):
            wrong = {"kind": f"graphed_{what}_wrong_values", "detail": f"{where}{what} {i}: {a} vs {b}", "output": i}
            if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
                if type(a) is not type(b) or (a != b and a == a):   # (a NaN of Python's equals NaN here)
                    return wrong
                continue
            try:
                torch.testing.assert_close(a.detach(), b.detach(), equal_nan=True,
                                           **({"rtol": 0, "atol": 0} if exact else {}))
            except AssertionError as e:
                return dict(wrong, detail=f"{where}{what} {i}: {' '.join(str(e).split())[:300]}")
            layout = _layout_differs(a, b) if what == "output" else None
            if layout:
                return {"kind": f"graphed_output_{layout[0]}", "detail": where + layout[1], "output": i}
    return None


def _run_frozen_case(fn, make, case, target):
    """A frozen case: fn as a module holding the inputs at case["frozen"] as its parameters (frozen_module),
    compiled with options={"freezing": True} and called under no_grad with two modules, two sets of parameters
    through one compiled frame (kiln.freezing.per_parameter_set), each again after its parameters are written in
    place (Constants.refresh). Outputs against eager and fp64 by the accuracy rule, and their strides."""
    import torch

    from kiln.tools.accuracy import Float64Throughout
    device = TARGETS[target][0]
    call = lambda module, *rest: module(*rest)   # noqa: E731 (one frame, whichever module it is given)
    compiled = _compiled(call, target, case, freezing=True)

    def built(variant, f64=False):
        xs = make(f64=f64, variant=variant, device=device)[1]
        return frozen_module()(fn, xs, case["frozen"]), [x for i, x in enumerate(xs) if i not in case["frozen"]]
    with torch.no_grad():
        for variant in (0, 1):
            module, rest = built(variant)
            with Float64Throughout():
                module64, rest64 = built(variant, f64=True)
            for written in (False, True):
                if written:
                    for p in [*module.parameters(), *module64.parameters()]:
                        p.mul_(-0.5)   # (exact in every float dtype: the fp64 module's stays its counterpart)
                try:
                    eager = list(module(*rest))
                except Exception:  # noqa: BLE001 (eager's error: the plain case checks that kiln raises too)
                    return {"kind": "ok"}
                with Float64Throughout():
                    fp64 = list(module64(*rest64))
                try:
                    result = list(compiled(module, *rest))
                except Exception as e:  # noqa: BLE001
                    return _raised(e, "frozen_")
                where = f"variant {variant}{', parameters written' if written else ''}: "
                failure = _mismatch("output", result, eager, fp64, where, prefix="frozen_")
                if failure:
                    return failure
    return {"kind": "ok"}


def frozen_inputs(program):
    """The inputs a frozen case's module holds as its parameters: the float inputs but the first (where there are
    several: the graph keeps an input), not those expanded (written in place after a call)."""
    from kiln.tools.fuzz_gen import FLOAT
    floats = [i for i, spec in enumerate(program["inputs"])
              if spec["dtype"] in FLOAT and spec["high"] is None and spec["layout"] != "expand"]
    return floats[1:] if len(floats) > 1 else floats


@functools.cache
def frozen_module():
    """The nn.Module class of frozen cases: fn with the inputs at indices `frozen` as its parameters. One class (made
    here: torch is imported in the workers only), so that Dynamo runs every such module through one frame."""
    import torch

    class FrozenInputs(torch.nn.Module):
        def __init__(self, fn, xs, frozen):
            super().__init__()
            self.fn, self.frozen = fn, tuple(frozen)
            self.ps = torch.nn.ParameterList(torch.nn.Parameter(xs[i].detach(), requires_grad=False) for i in frozen)

        def forward(self, *rest):
            xs = list(rest)
            for i, p in zip(self.frozen, self.ps):
                xs.insert(i, p)
            return self.fn(*xs)
    return FrozenInputs


def worker_main(target):
    """Read one JSON case a line from stdin, answer one JSON result a line on stdout."""
    import warnings
    warnings.filterwarnings("ignore")
    real_stdout = sys.stdout
    sys.stdout = sys.stderr   # generated code and kiln print nothing into the protocol
    for line in sys.stdin:
        case = json.loads(line)
        try:
            result = run_case(case, target)
        except Exception as e:  # noqa: BLE001 (a harness problem shows as a finding, not a dead campaign)
            result = {"kind": f"harness:{type(e).__name__}", "detail": str(e)[:300], "output": None}
        real_stdout.write(json.dumps(result) + "\n")
        real_stdout.flush()
        if "CUDA error" in result.get("detail", ""):
            return 0   # the CUDA context is unusable after a device error: the driver starts a fresh worker
    return 0


# ------------------------------------------------------------------------------------------ driver side

class Worker:
    """A persistent worker subprocess for one target; restarted after a crash or a hang."""

    def __init__(self, target, cache_dir):
        self.target, self.cache_dir, self.proc = target, cache_dir, None

    def start(self):
        env = dict(os.environ)
        env.pop("TRITON_INTERPRET", None)
        if self.target == "triton":
            env["TRITON_INTERPRET"] = "1"
        for var in ("KILN_CACHE_DIR", "TRITON_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR"):   # torch's own caches too
            env.setdefault(var, os.path.join(self.cache_dir, var.split("_")[0].lower()))
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen([sys.executable, "-m", "kiln.tools.fuzz", "--worker", self.target],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=env, text=True, start_new_session=True)

    def run(self, case, timeout=WORKER_TIMEOUT):
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if line:
            return json.loads(line)
        if self.proc.poll() is None:
            self.stop()
            return {"kind": "crash:timeout", "detail": f"no answer in {timeout} s", "output": None}
        code = self.proc.wait()
        self.proc = None
        return {"kind": f"crash:exit{code}", "detail": f"worker died with status {code}", "output": None}

    def stop(self):
        if self.proc is not None:
            self.proc.kill()   # our own child, by its handle
            self.proc.wait()
            self.proc = None


def case_of(program):
    from kiln.tools.fuzz_gen import render
    return {"src": render(program), "dynamic": program["dynamic"], "twice": program["twice"],
            "frozen": frozen_inputs(program) if program.get("frozen") else [], "graphed": program.get("graphed", False)}


def failing_op(program, result):
    """The op that produced the failing output, or the program's last op."""
    from kiln.tools.fuzz_gen import outputs
    if result.get("output") is not None and result.get("what") == "output":
        outs = outputs(program)
        if result["output"] < len(outs):
            return next(op["name"] for op in program["ops"] if op["out"] == outs[result["output"]])
    return program["ops"][-1]["name"] if program["ops"] else "none"


def signature(program, result):
    """Op (with the failing output's dtype) + error kind: one finding per signature (exception messages
    without their numbers)."""
    message = re.sub(r"\d+", "N", result.get("detail", "").split("\n")[0])[:80] if "raise" in result["kind"] else ""
    dtype = f":{result['dtype']}" if result.get("dtype") else ""
    return f"{failing_op(program, result)}{dtype}|{result['kind']}" + (f"|{message}" if message else "")


# ------------------------------------------------------------------------------------------ shrinking

def drop_op(program, k):
    """The program without op k; later reads of its value read its first operand instead."""
    from kiln.tools.fuzz_gen import reads
    op = program["ops"][k]
    operands = sorted(reads(op), key=lambda n: op["code"].index(n))
    ops = [dict(o) for o in program["ops"][:k] + program["ops"][k + 1:]]
    if any(op["out"] in reads(o) for o in ops):
        if not operands:
            return None
        for o in ops:
            o["code"] = re.sub(rf"\b{op['out']}\b", operands[0], o["code"])
    return {**program, "ops": ops}


def unused_inputs_dropped(program):
    """Inputs no op reads are dropped (renamed so fn's parameters stay x0, x1, ...)."""
    from kiln.tools.fuzz_gen import reads
    used = set().union(*[reads(op) for op in program["ops"]]) if program["ops"] else set()
    keep = [i for i in range(len(program["inputs"])) if f"x{i}" in used]
    if len(keep) == len(program["inputs"]):
        return program
    rename = {f"x{i}": f"x{j}" for j, i in enumerate(keep)}
    ops = [{**op, "code": re.sub(r"\bx\d+\b", lambda m: rename.get(m.group(0), m.group(0)), op["code"])}
           for op in program["ops"]]
    return {**program, "inputs": [program["inputs"][i] for i in keep], "ops": ops}


def candidates(program):
    """Smaller variants of a program, most aggressive first."""
    n = len(program["ops"])
    chunk = n // 2
    while chunk >= 1:      # delta debugging: drop chunks of ops (from the end first: later ops read earlier ones)
        for start in range(n - chunk, -1, -chunk):
            p = program
            for k in reversed(range(start, start + chunk)):
                p = drop_op(p, k) if p else None
            if p and p["ops"]:
                yield unused_inputs_dropped(p)
        chunk //= 2
    for flag in ("twice", "dynamic", "specials", "frozen", "graphed"):
        if program.get(flag):
            yield {**program, flag: False}
    for i, spec in enumerate(program["inputs"]):
        simpler = []
        if spec["layout"] != "contig":
            simpler.append({**spec, "layout": "contig"})
        if spec["grad"]:
            simpler.append({**spec, "grad": False})
        for d, size in enumerate(spec["shape"]):
            for smaller in sorted({1, size // 2} - {size}):
                if smaller < size:
                    simpler.append({**spec, "shape": spec["shape"][:d] + [smaller] + spec["shape"][d + 1:]})
        for s in simpler:
            yield {**program, "inputs": program["inputs"][:i] + [s] + program["inputs"][i + 1:]}
    for seed in (0, 1):
        if program["seed"] != seed:
            yield {**program, "seed": seed}


def shrink(program, still_fails, budget=200, seconds=300):
    """A smaller program for which still_fails(program) holds: greedy, restarting after each success; at most
    `budget` candidates and `seconds` (a hang costs a worker timeout per candidate)."""
    tried, deadline = 0, time.time() + seconds
    improved = True
    while improved and tried < budget and time.time() < deadline:
        improved = False
        for cand in candidates(program):
            tried += 1
            if tried > budget or time.time() > deadline:
                break
            if still_fails(cand):
                program, improved = cand, True
                break
    return program


def repro(program, target, finding):
    """A standalone pytest snippet reproducing a finding."""
    from kiln.tools.fuzz_gen import render
    device, options = TARGETS[target]
    options = {"strict": True, **options}
    env = {"triton": "# run with TRITON_INTERPRET=1 set before triton is imported (e.g. in the environment)\n",
           "cuda": "# run on a CUDA GPU, without TRITON_INTERPRET\n"}.get(target, "")
    dynamic = "True" if program["dynamic"] else "None"
    return (f"# kiln fuzz finding: {finding['kind']}: {finding['detail'][:200]}\n{env}"
            + render(program, device=device) + f"""

def test_fuzz_{re.sub(r'[^a-z0-9]+', '_', finding['signature'].lower())[:60].strip('_')}():
    import kiln
    from kiln.tools.fuzz import run_case
    import inspect, sys
    case = {{"src": inspect.getsource(sys.modules[__name__]), "dynamic": {dynamic}, "twice": {program['twice']},
            "frozen": {case_of(program)["frozen"]}, "graphed": {case_of(program)["graphed"]}}}
    result = run_case(case, {target!r})  # eager vs kiln with options={options}: outputs, grads, strides
    assert result["kind"] == "ok", result
""")


# ------------------------------------------------------------------------------------------ campaign

def campaign(targets, programs, seed, out, dynamic_fraction=0.2, specials_fraction=0.0, out_of_range=False,
             exclude=(), progress_every=10, shrink_budget=150, log=print, frozen_fraction=0.0, graphed_fraction=0.0):
    """Run `programs` programs per target; returns the findings (also written under out)."""
    import random

    from kiln.tools.fuzz_gen import generate
    os.makedirs(out, exist_ok=True)
    cache_dir = tempfile.mkdtemp(prefix="kiln_fuzz_cache_")   # this campaign's own (unless the user set them)
    workers = {t: Worker(t, cache_dir) for t in targets}
    findings, seen, counts = {}, set(), {t: {} for t in targets}
    started = time.time()
    try:
        for n in range(programs):
            s = seed + n
            specials = random.Random(s * 7919).random() < specials_fraction
            program = generate(s, dynamic_fraction=dynamic_fraction, specials=specials, out_of_range=out_of_range)
            program["frozen"] = random.Random(s * 104729).random() < frozen_fraction
            program["graphed"] = not program["frozen"] and random.Random(s * 130363).random() < graphed_fraction
            for target in targets:
                result = workers[target].run(case_of(program))
                counts[target][result["kind"]] = counts[target].get(result["kind"], 0) + 1
                if result["kind"] == "ok" or result["kind"].startswith("artifact:"):
                    continue   # counted, not a finding
                pre = f"{target}|{signature(program, result)}"
                if pre in seen or any(re.search(x, pre) for x in exclude):
                    continue
                seen.add(pre)
                want = result["kind"]

                def still_fails(cand, target=target, want=want):
                    return workers[target].run(case_of(cand))["kind"] == want
                small = shrink(program, still_fails, shrink_budget)
                final = workers[target].run(case_of(small))
                if final["kind"] != want:
                    small, final = program, result
                sig = f"{target}|{signature(small, final)}"
                if any(re.search(x, sig) for x in exclude):
                    continue
                if sig in findings:
                    findings[sig]["seeds"].append(s)
                    continue
                finding = {"signature": sig, "target": target, "kind": final["kind"], "detail": final["detail"],
                           "seed": s, "seeds": [s], "ops": [op["name"] for op in small["ops"]],
                           "program": small}
                finding["repro"] = repro(small, target, finding)
                findings[sig] = finding
                log(f"[fuzz] finding {sig}: {final['detail'][:160]}")
                write_findings(out, findings, counts, programs, seed)
            if (n + 1) % progress_every == 0 or n + 1 == programs:
                log(f"[fuzz] {n + 1}/{programs} programs, {len(findings)} findings, "
                    f"{time.time() - started:.0f} s; results {counts}")
    finally:
        for w in workers.values():
            w.stop()
        shutil.rmtree(cache_dir, ignore_errors=True)
    write_findings(out, findings, counts, programs, seed)
    return list(findings.values())


def write_findings(out, findings, counts, programs, seed):
    with open(os.path.join(out, "findings.json"), "w") as f:
        json.dump({"programs": programs, "seed": seed, "results": counts, "findings": list(findings.values())},
                  f, indent=1)
    lines = [f"# kiln fuzz: {programs} programs from seed {seed}", "", f"results per target: {counts}", ""]
    for sig, fd in sorted(findings.items()):
        lines += [f"## {sig}", "", f"- kind: {fd['kind']}; seeds {fd['seeds'][:10]}; ops {fd['ops']}",
                  f"- {fd['detail'][:400]}", "", "```python", fd["repro"], "```", ""]
    with open(os.path.join(out, "findings.md"), "w") as f:
        f.write("\n".join(lines))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main(argv[1])
    parser = argparse.ArgumentParser(prog="kiln fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--target", choices=["cpp", "triton", "cuda", "both"], default="cpp",
                        help="both: cpp and triton (the Triton interpreter); cuda: kiln's Triton kernels on a GPU")
    parser.add_argument("--programs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="fuzz_out")
    parser.add_argument("--dynamic-fraction", type=float, default=0.2)
    parser.add_argument("--specials-fraction", type=float, default=0.0,
                        help="fraction of programs whose float inputs hold inf, -inf, nan, -0.0")
    parser.add_argument("--out-of-range", action="store_true", help="some index tensors hold out-of-range indices")
    parser.add_argument("--frozen-fraction", type=float, default=0.0,
                        help="fraction of programs run as a module whose parameters are some of their inputs, "
                             "compiled with freezing, with two sets of parameters, each written after a call")
    parser.add_argument("--graphed-fraction", type=float, default=0.0,
                        help="fraction of programs also compiled with mode='reduce-overhead' (on the CPU targets "
                             "through a stand-in that replays as a CUDA graph does) and called as a loop calls them, "
                             "each result kept: the same inputs again and new ones")
    parser.add_argument("--jobs", type=int, default=1, help="only 1 (one worker per target) is implemented")
    parser.add_argument("--shrink-budget", type=int, default=150)
    parser.add_argument("--progress-every", type=int, default=10)
    args = parser.parse_args(argv)
    targets = ["cpp", "triton"] if args.target == "both" else [args.target]
    if args.target == "cuda":
        import torch
        if not torch.cuda.is_available():
            print("kiln fuzz: --target cuda needs a CUDA GPU, and torch.cuda.is_available() is False",
                  file=sys.stderr)
            return 2
    findings = campaign(targets, args.programs, args.seed, args.out, args.dynamic_fraction, args.specials_fraction,
                        args.out_of_range, progress_every=args.progress_every, shrink_budget=args.shrink_budget,
                        frozen_fraction=args.frozen_fraction, graphed_fraction=args.graphed_fraction)
    print(f"[fuzz] {len(findings)} findings written to {args.out}/findings.md")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
