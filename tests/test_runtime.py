"""kiln's runtime robustness: kernel caches that check what they load, compiled graphs that give their
libraries back, and failures inside kiln that make a graph run eagerly (issue 24)."""
import gc
import glob
import hashlib
import linecache
import logging
import os
import re
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import kiln
import kiln.scheduler
from kiln.runtime import cpp_build

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# compiles in a fresh process (a crash there must not take pytest with it) and prints "ok" if kiln's result
# matches eager with no fallback
SCRIPT = """
import torch, kiln
torch.manual_seed(0)
f = lambda x: (x.sin() * 2 + 1).relu() / (x.exp() + 1)
x = torch.randn(1000)
out = kiln.compile(f, options={"strict": True, "target": TARGET})(x)
torch.testing.assert_close(out, f(x))
assert kiln.stats()["graphs_fallback"] == 0
print("ok")
"""


def run_script(cache, target="cpp", env=()):
    env = {**{k: v for k, v in os.environ.items() if k not in ("KILN_TARGET", "TRITON_INTERPRET")},
           "KILN_CACHE_DIR": str(cache), "PYTHONPATH": REPO, **dict(env)}
    result = subprocess.run([sys.executable, "-c", SCRIPT.replace("TARGET", repr(target))], capture_output=True,
                            text=True, env=env, timeout=300, cwd=REPO)
    assert result.returncode == 0 and result.stdout.strip() == "ok", \
        f"rc {result.returncode}\n{result.stdout}\n{result.stderr[-3000:]}"


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def cached_libraries(cache):
    return glob.glob(os.path.join(cache, "cpp", "*", "kiln_*.so"))


def test_truncated_library_is_rebuilt(tmp_path):
    run_script(tmp_path)
    [path] = cached_libraries(tmp_path)
    good = sha256(path)
    with open(path, "r+b") as f:   # cut short in place, as a full disk or a killed writer leaves it
        f.truncate(os.path.getsize(path) // 2)
    run_script(tmp_path)   # used to die of SIGBUS in dlopen or in the first kernel call
    assert sha256(path) == good


def test_library_that_fails_to_load_is_rebuilt(tmp_path):
    run_script(tmp_path)
    [path] = cached_libraries(tmp_path)
    good = sha256(path)
    # a well-formed library with the right recorded hash that does not have the kernels: loading fails
    empty = tmp_path / "empty.cpp"
    empty.write_text("int unrelated() { return 0; }\n")
    subprocess.run([cpp_build.CXX, "-shared", "-fPIC", str(empty), "-o", path], check=True)
    with open(path + ".sha256", "w") as f:
        f.write(sha256(path))
    run_script(tmp_path)   # used to fall back to eager in every process from then on
    assert sha256(path) == good


def test_edited_triton_module_is_rewritten(tmp_path):
    pytest.importorskip("triton")
    run_script(tmp_path, "triton", {"TRITON_INTERPRET": "1"})
    [path] = glob.glob(os.path.join(tmp_path, "triton", "kiln_*.py"))
    with open(path) as f:
        good = f.read()
    with open(path, "w") as f:
        f.write("raise RuntimeError('the edited module was loaded')\n" + good)
    run_script(tmp_path, "triton", {"TRITON_INTERPRET": "1"})
    with open(path) as f:
        assert f.read() == good


def mapped_kiln_libraries():
    with open("/proc/self/maps") as f:
        return {line.split()[-1] for line in f if os.path.basename(line.split()[-1]).startswith("kiln_")}


def test_reset_unloads_kernel_libraries(tmp_path):
    torch._dynamo.reset()
    gc.collect()
    before = mapped_kiln_libraries()
    f = torch.compile(lambda x: (x.sin() * 2).relu(), backend=lambda gm, inputs: kiln.kiln_backend(
        gm, inputs, options={"target": "cpp", "strict": True, "cache_dir": str(tmp_path)}), dynamic=False)
    for n in (5, 6, 7):   # static shapes: one graph, and one library, each
        x = torch.randn(n)
        torch.testing.assert_close(f(x), (x.sin() * 2).relu())
    loaded = mapped_kiln_libraries() - before
    assert len(loaded) == 3, loaded
    torch._dynamo.reset()
    gc.collect()
    assert not loaded & mapped_kiln_libraries()


def test_wrapper_lines_are_readable_while_the_wrapper_lives():
    """Tracebacks, profilers and memory snapshots read the generated wrapper's lines through linecache."""
    torch._dynamo.reset()
    seen = {}

    def profile(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_filename.startswith("<kiln wrapper"):
            seen[code.co_filename] = linecache.getline(code.co_filename, code.co_firstlineno)
    f = kiln.compile(lambda x: (x.cos() + 1).relu(), options={"strict": True})
    sys.setprofile(profile)
    try:
        f(torch.randn(8))
    finally:
        sys.setprofile(None)
    [(filename, line)] = seen.items()
    assert line.startswith("def call("), line
    del f
    torch._dynamo.reset()
    gc.collect()
    assert filename not in linecache.cache


def test_shared_library_stays_loaded_while_a_graph_uses_it(tmp_path):
    source = 'extern "C" void kiln_add1(float* x, long n) { for (long i = 0; i < n; i++) x[i] += 1; }\n'
    signatures = {"kiln_add1": (["x"], ["n"])}
    first = cpp_build.load(source, str(tmp_path), signatures)
    second = cpp_build.load(source, str(tmp_path), signatures)
    [path] = cached_libraries(tmp_path)
    del first
    gc.collect()
    assert path in mapped_kiln_libraries()
    x = torch.zeros(4)
    second["kiln_add1"](x.data_ptr(), 4)
    assert x.tolist() == [1, 1, 1, 1]
    del second
    gc.collect()
    assert path not in mapped_kiln_libraries()


def gelu_twice(x):
    return F.gelu(x) * 2


def rejecting_decomposition(monkeypatch):
    """kiln's decomposition of gelu raising, as torch's decompositions do on arguments they reject where eager's
    kernel takes them (addcmul's did on integers with a float value, before kiln lowered addcmul whole)."""
    def rejects(*args, **kwargs):
        raise ValueError("value argument of type float cannot be safely cast")
    gelu = torch.ops.aten.gelu.default
    monkeypatch.setitem(kiln.decompositions._tagged_table(), gelu, kiln.decompositions._tagged(gelu, rejects))


def kiln_warnings(caplog):
    return [r.getMessage() for r in caplog.records if r.name.startswith("kiln") and r.levelno >= logging.WARNING]


def test_decomposition_failure_falls_back_to_eager(caplog, monkeypatch):
    torch._dynamo.reset()
    kiln.reset_stats()
    rejecting_decomposition(monkeypatch)
    x = torch.randn(6)
    with caplog.at_level(logging.WARNING, logger="kiln"):
        out = kiln.compile(gelu_twice, options={"strict": False})(x)
    torch.testing.assert_close(out, gelu_twice(x), atol=0, rtol=0)
    [warning] = kiln_warnings(caplog)
    assert "decomposition of aten.gelu" in warning and "at node gelu" in warning, warning
    assert kiln.stats()["graphs_fallback"] == 1


def test_failure_that_is_not_kilns_is_left_to_dynamo(caplog):
    """AOTAutograd cannot trace narrow at a tensor's value without kiln's decompositions either: Dynamo breaks
    the graph there (as for aot_eager), and kiln neither warns nor counts a fallback."""
    torch._dynamo.reset()
    kiln.reset_stats()

    def f(x, start):
        return x.narrow(0, start, 2) * 2
    x, start = torch.randn(5, 3), torch.tensor(1)
    with caplog.at_level(logging.WARNING, logger="kiln"):
        out = kiln.compile(f, options={"strict": False})(x, start)
    torch.testing.assert_close(out, f(x, start))
    assert kiln_warnings(caplog) == [] and kiln.stats()["graphs_fallback"] == 0


def test_decomposition_failure_raises_when_strict(monkeypatch):
    torch._dynamo.reset()
    rejecting_decomposition(monkeypatch)
    with pytest.raises(Exception, match="cannot be safely cast"):
        kiln.compile(gelu_twice, options={"strict": True})(torch.randn(6))


@pytest.mark.parametrize("stage", ["AOTAutograd", "scheduling"])
def test_fallback_graph_trains(stage, monkeypatch, caplog):
    """A graph whose compile fails runs eagerly, backward included: traced again without kiln's table when
    AOTAutograd's trace with it fails, AOTAutograd's graphs as they are when kiln's compile of them fails."""
    def broken(*args, **kwargs):
        raise RuntimeError("a broken stage")
    if stage == "AOTAutograd":
        table = kiln.capture.kiln_decompositions()
        table[torch.ops.aten.gelu.default] = broken
        monkeypatch.setattr(kiln.capture, "kiln_decompositions", lambda inference=False: table)
    else:
        monkeypatch.setattr(kiln.scheduler, "schedule", broken)
    torch._dynamo.reset()

    def step(x, w):
        return F.gelu(x @ w).square().sum()
    x, w = torch.randn(8, 16), torch.randn(16, 4, requires_grad=True)
    with caplog.at_level(logging.WARNING, logger="kiln"):
        loss = kiln.compile(step, options={"strict": False})(x, w)
        loss.backward()
    w_eager = w.detach().clone().requires_grad_()
    expected = step(x, w_eager)
    expected.backward()
    torch.testing.assert_close(loss, expected)
    torch.testing.assert_close(w.grad, w_eager.grad)
    warnings = kiln_warnings(caplog)
    assert len(warnings) == (1 if stage == "AOTAutograd" else 2), warnings   # the forward's, then the backward's
    assert all(stage in w and "a broken stage" in w for w in warnings), warnings


def test_a_training_graph_with_an_effectful_op_compiles(capfd, stats_delta):
    """An op with side effects (aten._print) orders itself by effect tokens, which AOTAutograd passed in and out
    of the forward graph ahead of its outputs: kiln's count of the forward's own outputs (num_forward_returns)
    then named a user output as the first saved activation, and the strides reported for the saved activations
    were off by one (an IndexError in AOTAutograd: the graph ran eagerly). The tokens are made inside the graphs
    now, as AOTAutograd offers, and making and sinking them is no op of its own (the print is the one fallback)."""
    torch._dynamo.reset()
    delta = stats_delta()

    def step(x, w):
        torch.ops.aten._print("a side effect")
        y = (x @ w).relu()
        return y.t() * 2, y.sum()   # (a transposed user output: its strides must be eager's)
    compiled = kiln.compile(step, options={"strict": True})
    for _ in range(2):
        leaves = [torch.randn(8, 16, requires_grad=True), torch.randn(16, 4, requires_grad=True)]
        got = compiled(*leaves)
        (got[0].sum() + got[1]).backward()
        grads = [t.grad for t in leaves]
        for t in leaves:
            t.grad = None
        want = step(*leaves)
        (want[0].sum() + want[1]).backward()
        for a, b in zip([*got, *grads], [*want, *(t.grad for t in leaves)]):
            assert a.stride() == b.stride()
            torch.testing.assert_close(a, b)
    assert capfd.readouterr().out.count("a side effect") == 4   # (the compiled and the eager call, twice)
    assert delta["fallback_ops"] == 1


def test_library_calls_go_through_python_bindings():
    """The wrapper calls a library op through its Python binding (argument parsing in C++, 3-4 us less per call
    than the OpOverload) only where no other overload of the op could take the same arguments."""
    from kiln.runtime.wrapper import python_binding
    aten = torch.ops.aten
    assert python_binding(aten.convolution.default, [None] * 9, {}) is torch.convolution
    assert python_binding(aten.mm.default, [None] * 2, {}) is torch.mm
    assert python_binding(aten.addmm.default, [None] * 3, {"beta": 0.5}) is torch.addmm
    assert python_binding(aten.mm.dtype, [None] * 3, {}) is aten.mm.dtype   # not a default overload
    assert python_binding(aten.max.default, [None], {}) is torch.max   # max.dim needs a dim
    assert python_binding(aten.max.default, [None], {"dim": 0}) is aten.max.default   # which max.dim would take
    assert python_binding(aten.convolution_backward.default, [None] * 11, {}) is aten.convolution_backward.default


def test_launcher_builds_apart_for_ints_past_32_bits():
    """Triton compiles an int argument of 2**31 or more as int64: a launch reusing the variant built for a small
    value of it would truncate it (an offset, a size) and address memory outside the tensors."""
    from kiln.runtime.triton_launch import Launcher, picker
    launch = Launcher(None, 4)
    launch.pick_pointers, launch.pick_ints, launch.pick_exact = picker([]), picker([0]), picker([])
    assert launch.specialization((16,)) != launch.specialization((2 ** 31 + 16,))
    assert launch.specialization((16,)) == launch.specialization((32,))


@pytest.mark.skipif(os.environ.get("KILN_TARGET") == "triton", reason="the C++ module's runs")
@pytest.mark.parametrize("run_bytes", [0, 1 << 20], ids=["a_call_each", "runs"])
def test_consecutive_launches_are_one_call_of_the_module(monkeypatch, built, run_bytes):
    """On the CPU, consecutive kernels and BLAS products are launched by one function of the C++ module
    (codegen.cpp.run_function), each buffer's pointer read once; a dead buffer reused inside the run is passed
    under the name that holds it. Runs allocate at most RUN_BYTES: with 0, each launch is a call of its own. The
    values are eager's either way."""
    from conftest import run_and_compare
    from kiln.runtime import wrapper
    monkeypatch.setattr(wrapper, "RUN_BYTES", run_bytes)   # (after `built`'s)

    def fn(x, w1, w2, w3):
        h = torch.relu(x @ w1).flip(0)          # (the flip needs a buffer of the product's layout, not in place)
        g = torch.tanh(h @ w2).flip(0) + 1      # (the first product is dead by now: its memory reused)
        return torch.sigmoid(g @ w3) * 2, h.sum(0)
    with torch.no_grad():
        run_and_compare(fn, [torch.randn(16, 16) for _ in range(4)])
    source = built[-1].wrapper_source
    launches = re.findall(r"^\s+(run|kernel|blas)_\w+\(", source, re.M)
    if run_bytes:
        assert launches == ["run"] and "reuses a dead buffer" in source, source
        (run,) = re.findall(r'extern "C" void run_\w+\(.*?\n}', built[-1].kernel_source, re.S)
        assert len(re.findall(r"^    (kernel|blas)_\w+\(", run, re.M)) == 6, run
    else:
        assert "run" not in launches and len(launches) == 6, source
