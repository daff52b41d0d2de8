"""Shared fixtures for kiln's correctness suite.

Every test compiles with kiln (strict, so internal failures raise instead of falling back) and
compares with eager: values against an fp64 reference (floating inputs cast to float64), and
dtype, shape, strides and storage offset against eager in the inputs' own dtypes.

Environment / options:
  KILN_FORBID_INDUCTOR=1 or --forbid-inductor   patch Inductor's compile_fx to raise for the whole
                                                session (CI runs the full suite this way).
  KILN_TEST_CACHE_DIR=/some/dir                  reuse a kernel cache across runs (default: a fresh
                                                temporary directory per session). The graph cache is off
                                                (KILN_GRAPH_CACHE=0) except where a test turns it on.
"""
import copy
import dataclasses
import logging
import os

import pytest
import torch

import kiln

# -------------------------------------------------------------------------------- session setup


def pytest_configure(config):
    # importing Inductor (to patch it) triggers TorchScript deprecation warnings that are not ours
    config.addinivalue_line("filterwarnings", "ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")


def pytest_addoption(parser):
    parser.addoption("--forbid-inductor", action="store_true", default=False,
                     help="make Inductor's compile_fx raise for the whole session (also: KILN_FORBID_INDUCTOR=1)")


def forbid_inductor_enabled(config):
    return config.getoption("--forbid-inductor") or os.environ.get("KILN_FORBID_INDUCTOR", "") == "1"


class InductorCalled(AssertionError):
    pass


def _forbidden(*args, **kwargs):
    raise InductorCalled("Inductor was called while running kiln")


def inductor_patches():
    """(module, attribute) pairs through which torch.compile reaches Inductor."""
    import importlib
    compile_fx = importlib.import_module("torch." + "_inductor.compile_fx")
    return [(compile_fx, "compile_fx"), (compile_fx, "compile_fx_inner")]


@pytest.fixture(scope="session", autouse=True)
def kiln_cache_dir(tmp_path_factory):
    """Kernels built by the suite go to a temporary cache, never to ~/.cache/kiln."""
    path = os.environ.get("KILN_TEST_CACHE_DIR") or str(tmp_path_factory.mktemp("kiln_cache"))
    old = os.environ.get("KILN_CACHE_DIR")
    os.environ["KILN_CACHE_DIR"] = path
    # the graph cache is off: tests that patch kiln's internals must compile their graphs, not load another
    # test's; tests/test_compile_time.py turns it on where it tests it
    old_graph_cache = os.environ.get("KILN_GRAPH_CACHE")
    os.environ["KILN_GRAPH_CACHE"] = "0"
    yield path
    for var, value in (("KILN_CACHE_DIR", old), ("KILN_GRAPH_CACHE", old_graph_cache)):
        if value is None:
            os.environ.pop(var, None)
        else:
            os.environ[var] = value


@pytest.fixture(scope="session", autouse=True)
def session_forbid_inductor(request):
    if not forbid_inductor_enabled(request.config):
        yield False
        return
    mp = pytest.MonkeyPatch()
    for module, attr in inductor_patches():
        mp.setattr(module, attr, _forbidden)
    yield True
    mp.undo()


@pytest.fixture
def forbid_inductor(monkeypatch):
    """For one test: any call into Inductor's compile_fx raises InductorCalled."""
    for module, attr in inductor_patches():
        monkeypatch.setattr(module, attr, _forbidden)


@pytest.fixture
def launch_by_launch(monkeypatch):
    """Wrappers that launch each kernel by a line of its own, as tests read them (not in runs: wrapper.RUN_BYTES)."""
    from kiln.runtime import wrapper
    monkeypatch.setattr(wrapper, "RUN_BYTES", 0)


@pytest.fixture
def built(monkeypatch, launch_by_launch):
    """The CompiledModules kiln loads during the test, in order (their wrapper and kernel sources), launch by
    launch."""
    import kiln.capture
    modules = []
    load = kiln.capture.load
    monkeypatch.setattr(kiln.capture, "load", lambda *a, **k: modules.append(load(*a, **k)) or modules[-1])
    return modules


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


@pytest.fixture(autouse=True)
def kiln_records_reach_caplog(request, monkeypatch):
    """kiln's loggers are registered with torch's logging, which stops them propagating to the root logger (as
    it does torch's own); where a test reads caplog, whose handler is the root's, they propagate."""
    if "caplog" in request.fixturenames:
        for name in ("kiln", *(f"kiln.{channel}" for channel in kiln.logs.NAMES)):
            monkeypatch.setattr(logging.getLogger(name), "propagate", True)


@pytest.fixture(autouse=True)
def fixed_seed():
    torch.manual_seed(0)


# -------------------------------------------------------------------------------- comparing with eager

STRICT = {"strict": True}

# (atol, rtol) of a result of this dtype against the fp64 reference
TOLERANCES = {torch.float64: (1e-7, 1e-7), torch.float32: (1e-4, 1e-4), torch.float16: (2e-2, 2e-2),
              torch.bfloat16: (3e-2, 3e-2)}


def kiln_compile(fn, dynamic=False, **kwargs):
    return kiln.compile(fn, dynamic=dynamic, options=STRICT, **kwargs)


def tree_tensors(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for y in x for t in tree_tensors(y)]
    if isinstance(x, dict):
        return [t for y in x.values() for t in tree_tensors(y)]
    return []


def to64(x):
    """Floating tensors (and modules) in float64; everything else unchanged."""
    if isinstance(x, torch.nn.Module):
        return copy.deepcopy(x).double()
    if isinstance(x, torch.Tensor):
        if x.is_floating_point():
            # the whole storage in float64, seen with x's sizes, strides and offset (as_strided sees the same data)
            n = x.untyped_storage().nbytes() // x.element_size()
            flat = torch.empty(0, dtype=x.dtype).set_(x.untyped_storage(), 0, (n,), (1,)).detach().double()
            y = flat.as_strided(x.size(), x.stride(), x.storage_offset())
            return y.requires_grad_(x.requires_grad)
        return x
    if isinstance(x, (list, tuple)):
        return type(x)(to64(y) for y in x)
    return x


def clone_inputs(inputs):
    """Fresh copies with the same strides and requires_grad, so each run sees its own leaves."""
    out = []
    for x in inputs:
        if isinstance(x, torch.Tensor):
            # same storage layout, offset and overlaps (expanded inputs) as the original
            y = torch.empty(0, dtype=x.dtype).set_(x.detach().untyped_storage().clone(), x.storage_offset(),
                                                   x.size(), x.stride())
            out.append(y.requires_grad_(x.requires_grad))
        else:
            out.append(x)
    return out


def live_strides(t):
    """Strides of the dims that have more than one element (other dims' strides mean nothing)."""
    return tuple(st for s, st in zip(t.shape, t.stride()) if s > 1)


def assert_same_meta(actual, expected, what="output"):
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != eager's {expected.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {tuple(actual.shape)} != eager's {tuple(expected.shape)}"
    if expected.numel() > 1:
        assert live_strides(actual) == live_strides(expected), \
            f"{what}: strides {actual.stride()} != eager's {expected.stride()} (shape {tuple(expected.shape)})"
    if expected.numel() > 0 and expected.layout == torch.strided:   # (eager code past a graph break may read it)
        assert actual.storage_offset() == expected.storage_offset(), \
            f"{what}: storage offset {actual.storage_offset()} != eager's {expected.storage_offset()}"


def assert_close_to(actual, expected, ref64, what="output", tol=None):
    """actual (kiln) against eager: dtype/shape/strides equal eager's, values close to the fp64 reference
    (floating results) or equal to eager's (integer and bool results)."""
    assert_same_meta(actual, expected, what)
    if not actual.dtype.is_floating_point and not actual.dtype.is_complex:
        assert torch.equal(actual, expected), f"{what}: values differ from eager\n{actual}\n{expected}"
        return
    ref = ref64 if ref64 is not None and ref64.dtype.is_floating_point else expected
    atol, rtol = tol or TOLERANCES[actual.dtype]
    torch.testing.assert_close(actual.double(), ref.double(), atol=atol, rtol=rtol, equal_nan=True,
                               msg=lambda m: f"{what} ({actual.dtype}): {m}")


def run_and_compare(fn, inputs, dynamic=False, tol=None, fp64=True, names=None):
    """Runs fn compiled by kiln and eagerly (and in fp64); asserts equality properties; returns the
    (kiln, eager, fp64) results. `names` labels the outputs in failure messages."""
    compiled = kiln_compile(fn, dynamic=dynamic)
    actual = compiled(*clone_inputs(inputs))
    expected = fn(*clone_inputs(inputs))
    ref64 = None
    if fp64 and any(isinstance(x, torch.Tensor) and x.is_floating_point() for x in inputs):
        ref64 = fn(*to64(clone_inputs(inputs)))
    compare_results(actual, expected, ref64, tol, names=names)
    return actual, expected, ref64


def compare_results(actual, expected, ref64=None, tol=None, what="output", names=None):
    a, e = tree_tensors(actual), tree_tensors(expected)
    r = tree_tensors(ref64) if ref64 is not None else [None] * len(e)
    assert len(a) == len(e) == len(r), f"{len(a)} kiln outputs, {len(e)} eager"
    for i, (x, y, z) in enumerate(zip(a, e, r)):
        if z is not None and z.dtype != torch.float64 and y.dtype.is_floating_point:
            z = None   # fn chose its own dtype; the eager result is the reference
        assert_close_to(x, y, z, f"{what} {i}" + (f" ({names[i]})" if names else ""), tol)
    assert_same_structure(actual, expected, what)


def assert_same_structure(actual, expected, what):
    """Same nesting, and non-tensor leaves (ints, floats, None) equal."""
    if isinstance(expected, torch.Tensor):
        assert isinstance(actual, torch.Tensor), f"{what}: {type(actual)} where eager has a tensor"
    elif isinstance(expected, (list, tuple)):
        assert isinstance(actual, (list, tuple)) and len(actual) == len(expected), f"{what}: structure differs"
        for i, (x, y) in enumerate(zip(actual, expected)):
            assert_same_structure(x, y, f"{what}[{i}]")
    else:
        assert actual == expected, f"{what}: {actual!r} != {expected!r}"


def loss_of(out, weights):
    """A scalar from the outputs, weighting each element so that every gradient path is exercised."""
    total = 0
    for t, w in zip(tree_tensors(out), weights):
        if t.is_floating_point():
            total = total + (t.to(w.dtype) * w).sum()
    return total


def run_fwd_bwd(fn, inputs, tol=None, grad_tol=None, dynamic=False, module=None, compiled=None):
    """Forward and backward through kiln vs eager: outputs and gradients (inputs and parameters).
    `compiled` reuses an earlier kiln_compile of fn (or of module)."""
    if compiled is None:
        compiled = kiln_compile(module if module is not None else fn, dynamic=dynamic)

    def step(f, params, xs):
        out = f(*xs)
        outs = tree_tensors(out)
        g = torch.Generator().manual_seed(1234)
        weights = [torch.randn(t.shape, generator=g, dtype=torch.float64) for t in outs]
        loss_of(out, weights).backward()
        grads = [x.grad for x in xs if isinstance(x, torch.Tensor) and x.requires_grad]
        grads += [p.grad for p in params]
        return out, grads

    def params_of(m):
        return [p for p in m.parameters() if p.requires_grad] if m is not None else []

    expected_module = copy.deepcopy(module) if module is not None else None
    ref_module = to64(module) if module is not None else None
    actual, agrads = step(compiled, params_of(module), clone_inputs(inputs))
    expected, egrads = step(expected_module if module is not None else fn, params_of(expected_module),
                            clone_inputs(inputs))
    ref64, rgrads = step(ref_module if module is not None else fn, params_of(ref_module),
                         to64(clone_inputs(inputs)))
    compare_results(actual, expected, ref64, tol)
    assert len(agrads) == len(egrads) > 0
    for i, (a, e, r) in enumerate(zip(agrads, egrads, rgrads)):
        assert (a is None) == (e is None), f"grad {i}: None mismatch"
        if a is not None:
            assert_close_to(a, e, r, f"grad {i}", grad_tol or tol)
    return FwdBwd(actual, agrads, expected_module, ref_module)


@dataclasses.dataclass
class FwdBwd:
    out: object
    grads: list
    eager_module: object     # the eager copy of the module, after its step (running stats...)
    fp64_module: object


class StatsDelta:
    """kiln.stats() counters accumulated since creation."""

    def __init__(self):
        self.start = dict(kiln.stats())

    def __getitem__(self, key):
        return kiln.stats().get(key, 0) - self.start.get(key, 0)

    def __repr__(self):
        now = kiln.stats()
        return repr({k: now.get(k, 0) - self.start.get(k, 0) for k in now})


@pytest.fixture
def stats_delta():
    """Call to start counting; the returned object gives counter deltas."""
    return StatsDelta


@pytest.fixture
def check():
    """check(fn, *inputs, dynamic=False, tol=None, names=None): kiln vs eager, forward only."""
    def _check(fn, *inputs, dynamic=False, tol=None, fp64=True, names=None):
        return run_and_compare(fn, list(inputs), dynamic=dynamic, tol=tol, fp64=fp64, names=names)
    return _check


@pytest.fixture
def check_grad():
    """check_grad(fn, *inputs, module=None, tol=None): kiln vs eager, forward and backward."""
    def _check(fn, *inputs, module=None, tol=None, grad_tol=None, dynamic=False):
        return run_fwd_bwd(fn, list(inputs), tol=tol, grad_tol=grad_tol, dynamic=dynamic, module=module)
    return _check


def make_tensor(shape, dtype=torch.float32, low=None, high=None, requires_grad=False):
    """Random test data of any dtype: floats ~ randn (or uniform in [low, high)), integers in a range safe
    for every op under test, bools at random."""
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype.is_floating_point:
        if low is not None:
            t = torch.rand(shape, dtype=torch.float32) * (high - low) + low
        else:
            t = torch.randn(shape, dtype=torch.float32)
        return t.to(dtype).requires_grad_(requires_grad)
    info = torch.iinfo(dtype)
    lo = max(info.min, -100 if low is None else low)
    hi = min(info.max, 100 if high is None else high)
    return torch.randint(lo, hi, shape, dtype=dtype)

