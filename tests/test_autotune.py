"""mode="max-autotune" (kiln.runtime.autotune): each Triton kernel's candidate launch configurations timed, the
fastest launched, the choice cached. Run by Triton's interpreter (the suite's Triton half) with a fake timer."""
import os

import pytest
import torch

import kiln
from kiln.launches import FusedProduct

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="Triton kernels run here under the interpreter: the suite's Triton half")


def fake_seconds(config):
    """max-autotune's timer in tests: most warps first, then the smallest tile"""
    x, r, persistent, warps = config
    return 1 / warps + x * r * 1e-5


class FakeClock:
    """Times each configuration by fake_seconds, and records it with the kernel it is for; configurations in
    `fails` raise, as one that runs out of resources does."""

    def __init__(self, fails=()):
        self.timed, self.fails = [], fails

    def __call__(self, run, config):
        self.timed.append((run.func.fn.__name__.rsplit("_", 1)[0], config))   # (the name less its text's hash)
        if config in self.fails:
            raise RuntimeError("out of resources")
        return fake_seconds(config)

    def by_kernel(self):
        timed = {}
        for kernel, config in self.timed:
            timed.setdefault(kernel, []).append(config)
        return timed


@pytest.fixture
def tuning(monkeypatch, tmp_path):
    """A fresh tuning cache, the timer, and the launches of the graph generated last
    (tuning.launched(): {kernel: (XBLOCK, RBLOCK, warps)})."""
    from kiln.codegen import triton as codegen
    from kiln.runtime import autotune
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path))
    generated = []
    real = codegen.generate_module
    monkeypatch.setattr(codegen, "generate_module", lambda *a, **k: generated.append(real(*a, **k)) or generated[-1])
    torch._dynamo.reset()

    class Tuning:
        @staticmethod
        def clock(clock):
            monkeypatch.setattr(autotune, "TIMER", clock)
            return clock

        @staticmethod
        def launched():
            _, launches, _ = generated[-1]
            return {info["function"].rsplit("_", 1)[0]: (p["xblock"], p["rblock"], p["num_warps"])
                    for info in launches.values() for p in info["parts"]}

        @staticmethod
        def fresh_cache(name):
            monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / name))
    return Tuning


def launch_of(config):
    """A configuration as launched: (XBLOCK, RBLOCK, warps)"""
    x, r, persistent, warps = config
    return x, r, warps


def softmax_sum_and_relu(x, y):
    return (x.softmax(-1) * y).sum(0), torch.relu(x) + 1


def tuned(fn, **kwargs):
    return kiln.compile(fn, mode="max-autotune-no-cudagraphs", options={"target": "triton", "graph_cache": False},
                        **kwargs)


def check_softmax_sum_and_relu(x, y):
    for a, b in zip(tuned(softmax_sum_and_relu)(x, y), softmax_sum_and_relu(x, y)):
        torch.testing.assert_close(a, b)


def test_max_autotune_launches_each_kernel_in_its_fastest_configuration(tuning):
    """Each kernel's candidates are timed; the graph is generated with the fastest where it beats the heuristic's
    configuration by more than timing noise (3%); its results are eager's."""
    clock = tuning.clock(FakeClock())
    check_softmax_sum_and_relu(torch.randn(6, 40), torch.randn(6, 40))
    timed, launched = clock.by_kernel(), tuning.launched()
    assert len(timed) == 2, clock.timed
    for kernel, configs in timed.items():
        assert len({persistent for _, _, persistent, _ in configs}) == 1, configs   # whole rows stay whole
        best = min(configs, key=fake_seconds)   # where it beats the heuristic's (timed first) by 3%
        expected = best if fake_seconds(best) < 0.97 * fake_seconds(configs[0]) else configs[0]
        assert launched[kernel] == launch_of(expected), (kernel, launched, configs)
    assert any(launched[k] != launch_of(configs[0]) for k, configs in timed.items())   # (the heuristic's is timed first)


def test_max_autotune_keeps_its_choices_in_the_kernel_cache(tuning):
    """A graph compiled again (here, by a fresh Dynamo) reads the choices back and times nothing."""
    clock = tuning.clock(FakeClock())
    x, y = torch.randn(6, 40), torch.randn(6, 40)
    check_softmax_sum_and_relu(x, y)
    first, timings = tuning.launched(), len(clock.timed)
    assert timings
    torch._dynamo.reset()
    check_softmax_sum_and_relu(x, y)
    assert len(clock.timed) == timings and tuning.launched() == first


def test_max_autotune_passes_over_configurations_that_fail(tuning):
    """A configuration that fails to build or run is not chosen: the next fastest is."""
    fastest = FakeClock()
    tuning.clock(fastest)
    check_softmax_sum_and_relu(torch.randn(6, 40), torch.randn(6, 40))
    chosen = tuning.launched()
    torch._dynamo.reset()
    tuning.clock(FakeClock(fails={c for _, c in fastest.timed if launch_of(c) in chosen.values()}))
    tuning.fresh_cache("again")
    check_softmax_sum_and_relu(torch.randn(6, 40), torch.randn(6, 40))
    again = tuning.launched()
    assert all(again[k] != chosen[k] for k in chosen), (chosen, again)


def test_max_autotune_choices_hold_for_other_sizes(tuning):
    """Under dynamic=True, kernels are timed at the traced sizes; the chosen tiles stay right at any other."""
    clock = tuning.clock(FakeClock())
    f = tuned(softmax_sum_and_relu, dynamic=True)
    for n, m in ((6, 40), (3, 7), (9, 65)):
        x, y = torch.randn(n, m), torch.randn(n, m)
        for a, b in zip(f(x, y), softmax_sum_and_relu(x, y)):
            torch.testing.assert_close(a, b)
    timed, launched = clock.by_kernel(), tuning.launched()
    assert any(launched[k] != launch_of(configs[0]) for k, configs in timed.items()), (timed, launched)


class MatmulClock:
    """Times the library at 1 and each configuration of kiln's matmul by `seconds` (2 where not named)."""

    def __init__(self, seconds):
        self.seconds, self.timed = seconds, []

    def __call__(self, run, choice):
        if isinstance(choice, tuple):   # a generated kernel's launch configuration
            return fake_seconds(choice)
        if choice == "apart" or isinstance(choice, FusedProduct):   # (a product inside its consumer: slower)
            return 1.0 if choice == "apart" else 2.0
        self.timed.append(choice)
        return 1.0 if choice is None else self.seconds.get(choice.config, 2.0)


@pytest.fixture
def wrappers(monkeypatch):
    """The wrapper source of each graph loaded."""
    from kiln import capture
    sources, real = [], capture.load
    monkeypatch.setattr(capture, "load", lambda artifact, *a, **k: sources.append(artifact.wrapper_source) or
                        real(artifact, *a, **k))
    return sources


def linear_relu_then_bmm(x, w, b, y):
    return torch.nn.functional.linear(x, w, b).relu() @ y, torch.bmm(x.expand(3, -1, -1), y[:40].expand(3, -1, -1))


def products(dtype=torch.float16):
    return (torch.randn(37, 40, dtype=dtype), torch.randn(50, 40, dtype=dtype), torch.randn(50, dtype=dtype),
            torch.randn(50, 24, dtype=dtype))


@pytest.mark.parametrize("faster", [True, False], ids=["kiln-matmul-faster", "library-faster"])
def test_max_autotune_runs_each_product_where_it_timed_fastest(tuning, wrappers, faster):
    """addmm, mm and bmm are timed in the library and in each configuration of kiln's matmul: the wrapper calls
    kiln's matmul only where one of its configurations was timed faster, and the results stay eager's."""
    clock = tuning.clock(MatmulClock({(64, 64, 32, 2, 4): 0.5} if faster else {}))
    args = products()
    for got, expected in zip(tuned(linear_relu_then_bmm)(*args), linear_relu_then_bmm(*args)):
        torch.testing.assert_close(got, expected, atol=2e-2, rtol=2e-3)
    assert clock.timed.count(None) == 3, clock.timed   # addmm, mm, bmm
    [wrapper] = wrappers
    assert wrapper.count("kiln.runtime.matmul: tiles 64x64x32, 2 stages, 4 warps") == (3 if faster else 0), wrapper


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_max_autotune_leaves_float32_products_to_the_library(tuning, wrappers, dtype):
    """kiln's matmul is timed for float16 and bfloat16 only: float32 products keep the library's precision
    settings (TF32 or not). Under Triton's interpreter, bfloat16 ones too: its tl.dot multiplies them wrongly."""
    clock = tuning.clock(MatmulClock({(64, 64, 32, 2, 4): 0.5}))
    args = products(dtype)
    for got, expected in zip(tuned(linear_relu_then_bmm)(*args), linear_relu_then_bmm(*args)):
        torch.testing.assert_close(got, expected, **({} if dtype == torch.float32 else {"atol": 0.1, "rtol": 0.02}))
    assert clock.timed == [] and "kiln.runtime.matmul" not in wrappers[0]


@pytest.mark.parametrize("wide", [False, True], ids=["32-bit", "64-bit"])
@pytest.mark.parametrize("config", [(16, 64, 128, 3, 4), (64, 64, 32, 2, 4), (128, 128, 64, 3, 4)])
def test_kilns_matmul_computes_every_layout_and_edge(config, wide, monkeypatch):
    """Odd sizes, transposed and offset operands, broadcast and full biases, batches, an empty sum, K a multiple
    of the tile's, more tile rows than a group, in 32- and 64-bit offsets: each
    result within float16's rounding of the float64 product, nothing written past the result (its memory is
    fresh, and a store outside it would land in the guard elements around it)."""
    from kiln.runtime import matmul
    from kiln.runtime.matmul import TritonMatmul, launch_args, launcher
    if wide:   # offsets in 64 bits, as for tensors of 2**31 elements or more
        monkeypatch.setattr(matmul, "WIDE_FROM", 0)
    torch.manual_seed(0)
    h = torch.float16
    a = torch.randn(70, 33, dtype=h)
    bt = torch.randn(19, 33, dtype=h).t()                   # (33, 19), column-major
    a_offset = torch.randn(71, 33, dtype=h)[1:]              # a view at an offset
    cases = [("mm", (a, bt), a.double() @ bt.double()),
             ("mm", (a_offset[:, :0], bt[:0]), torch.zeros(70, 19, dtype=torch.float64)),
             ("addmm", (torch.randn(19, dtype=h), a_offset, bt), None),
             ("addmm", (torch.randn(70, 1, dtype=h), a, bt), None),
             ("addmm", (torch.randn(70, 19, dtype=h).t().contiguous().t(), a, bt), None),
             ("bmm", (torch.randn(3, 5, 33, dtype=h), torch.randn(3, 19, 33, dtype=h).transpose(1, 2)), None),
             # K a multiple of every BLOCK_K (no mask along K); more tile rows than a group of GROUP_M
             ("addmm", (torch.randn(1, 24, dtype=h), torch.randn(150, 128, dtype=h), torch.randn(128, 24, dtype=h)),
              None)]
    for op, args, expected in cases:
        if expected is None:
            expected = args[0].double() + args[1].double() @ args[2].double() if op == "addmm" else \
                args[0].double() @ args[1].double()
        got = TritonMatmul(op, config)(*args)
        assert got.shape == expected.shape and got.is_contiguous(), (op, got.shape)
        torch.testing.assert_close(got.double(), expected, atol=0.05, rtol=2e-3)
    # stores land inside the result only: a result viewed inside guard elements leaves them untouched
    guarded = torch.full((72, 21), -7.0, dtype=h)
    out = guarded[1:71, 1:20]
    programs, args = launch_args(a, bt, None, out, config)
    launcher(config)(programs, *args)
    torch.testing.assert_close(out.double(), a.double() @ bt.double(), atol=0.05, rtol=2e-3)
    rim = torch.ones_like(guarded, dtype=torch.bool)
    rim[1:71, 1:20] = False
    assert (guarded[rim] == -7.0).all()


def test_a_graph_calling_kilns_matmul_is_stored_and_loaded_by_the_graph_cache(tuning, wrappers):
    """The wrapper's scope holds the TritonMatmul it calls: the graph cache stores it, and a warm start (a fresh
    Dynamo here) loads the graph, times nothing and computes the same."""
    clock = tuning.clock(MatmulClock({(64, 64, 32, 2, 4): 0.5}))
    args = products()
    options = {"target": "triton", "graph_cache": True}   # (the suite runs with KILN_GRAPH_CACHE=0)
    cached = kiln.compile(linear_relu_then_bmm, mode="max-autotune-no-cudagraphs", options=options)
    first = cached(*args)
    timings, stats = len(clock.timed), kiln.stats()
    torch._dynamo.reset()
    kiln.reset_stats()
    again = kiln.compile(linear_relu_then_bmm, mode="max-autotune-no-cudagraphs", options=options)(*args)
    assert kiln.stats()["graphs_from_cache"] == 1 and len(clock.timed) == timings and timings, (stats, kiln.stats())
    assert "kiln.runtime.matmul: tiles 64x64x32" in wrappers[-1]
    for a, b in zip(first, again):
        assert torch.equal(a, b)


class FusingClock(MatmulClock):
    """Times a product computed inside the kernel that reads it (FusedProduct) faster than the two apart, the
    faster where its tiles are `block_n` columns wide; records the choices."""

    def __init__(self, block_n=None):
        super().__init__({})
        self.block_n, self.fused = block_n, []

    def __call__(self, run, choice):
        if isinstance(choice, FusedProduct):
            self.fused.append(choice)
            return 0.4 if choice.config[1] == self.block_n else 0.5
        return super().__call__(run, choice)


def gelu_of_linear(x, w, b):
    return torch.nn.functional.gelu(torch.nn.functional.linear(x, w, b))


def gelu_kept(x, w, b):   # the product is an output too: stored as well
    h = torch.nn.functional.linear(x, w, b)
    return torch.nn.functional.gelu(h), h


def residual_of_two(x, w, b):   # GELU reads 40 of the first product's 50 columns: apart; the second product's
    # epilogue adds the first, and writes over it
    h = torch.nn.functional.linear(x, w, b)
    return torch.nn.functional.linear(torch.nn.functional.gelu(h)[:, :40], w, b) + h


def relu_of_half(x, w, b):   # reads half the product: not fused (its kernel covers other elements)
    return torch.relu(torch.nn.functional.linear(x, w, b)[:18])


def transposed(x, w, b):   # reads the product transposed: not fused
    return (torch.nn.functional.linear(x, w, b).relu() + 1).t().contiguous()


def normed(x, w, b):   # a reduction reads it: not fused
    return torch.nn.functional.layer_norm(torch.nn.functional.linear(x, w, b), (50,))


@pytest.mark.parametrize("fn, fused", [(gelu_of_linear, 1), (gelu_kept, 1), (residual_of_two, 1), (relu_of_half, 0),
                                       (transposed, 0), (normed, 0)], ids=lambda v: getattr(v, "__name__", v))
def test_max_autotune_computes_a_product_inside_the_kernel_that_reads_it(tuning, wrappers, fn, fused):
    """Where the pointwise kernel reading a product's result was timed faster computing the product's tiles itself,
    the graph launches that kernel alone: its results are eager's (the product stored too where it is still read),
    and a kernel that reads the product elsewhere than at its own elements, or reduces it, stays apart."""
    clock = tuning.clock(FusingClock())
    x, w, b, _ = products()
    for got, expected in zip(*(f(x, w, b) if isinstance(f(x, w, b), tuple) else (f(x, w, b),)
                               for f in (tuned(fn), fn))):
        torch.testing.assert_close(got, expected, atol=2e-2, rtol=2e-3)
    [wrapper] = wrappers
    assert wrapper.count("kernel_addmm_") + wrapper.count("kernel_mm_") == fused, wrapper
    assert "aten.addmm" not in wrapper if fn is gelu_of_linear else True
    assert bool(clock.fused) == bool(fused)


def test_a_product_computed_in_its_consumer_is_not_written_over_its_operands(tuning, wrappers):
    """h @ w + h, h dying there: the sum may not be stored over h, which other programs still read as the
    product's rows (tiles 64 columns wide, two per row of the result)."""
    tuning.clock(FusingClock(block_n=64))
    x, w = torch.randn(37, 128, dtype=torch.float16), torch.randn(128, 128, dtype=torch.float16) / 8

    def square_residual(x, w):
        h = torch.relu(x)
        return h @ w + h
    torch.testing.assert_close(tuned(square_residual)(x, w), square_residual(x, w), atol=2e-2, rtol=2e-3)
    [wrapper] = wrappers
    assert "kernel_mm_add" in wrapper and "written over" not in wrapper, wrapper


def test_a_product_that_fails_to_generate_in_its_consumer_runs_apart(tuning, wrappers, monkeypatch, caplog):
    """A failure while generating the fused kernel leaves that product apart, with one warning; the graph is still
    compiled by kiln (not run eagerly) and computes eager's results."""
    from kiln.codegen.triton_product import ProductKernel

    def broken(self, part=False):
        raise RuntimeError("a codegen fault")
    monkeypatch.setattr(ProductKernel, "generate", broken)
    tuning.clock(FusingClock())
    x, w, b, _ = products()
    torch.testing.assert_close(tuned(gelu_of_linear)(x, w, b), gelu_of_linear(x, w, b), atol=2e-2, rtol=2e-3)
    [wrapper] = wrappers
    assert "aten.addmm" in wrapper and "kernel_addmm_" not in wrapper, wrapper
    assert "failed to generate; they run apart: RuntimeError: a codegen fault" in caplog.text


@pytest.mark.parametrize("faster", [True, False], ids=["kiln-matmul-faster", "blocks-faster"])
def test_max_autotune_times_a_head_with_misaligned_rows_against_kilns_matmul(tuning, wrappers, monkeypatch, faster):
    """A product whose rows are misaligned for the library (a language model's head), where it runs as aligned-rows
    blocks (lowering.externs.aligned_rows_mm: rows and contraction longer than TILE_UP_TO, 0 here); max-autotune
    times those blocks against kiln's matmul, whose tiles store the misaligned rows directly, and calls the
    faster."""
    from kiln.lowering import externs
    monkeypatch.setattr(externs, "TRANSPOSED_MATMUL_DEVICES", {"cpu"})   # (the CPU stands in for CUDA here)
    monkeypatch.setattr(externs, "TRANSPOSED_FROM", 1)
    monkeypatch.setattr(externs, "TILE_UP_TO", 0)
    clock = tuning.clock(MatmulClock({(64, 64, 32, 2, 4): 0.5} if faster else {}))
    x, w, b, _ = products()
    x = torch.randn(64, 40, dtype=torch.float16)   # (64 rows of 50 half-precision columns: misaligned rows)
    torch.testing.assert_close(tuned(gelu_of_linear)(x, w, b), gelu_of_linear(x, w, b), atol=2e-2, rtol=2e-3)
    [wrapper] = wrappers
    assert clock.timed.count(None) == 1, clock.timed
    assert ("aligned rows" in wrapper) != faster and ("kiln.runtime.matmul: tiles 64x64x32" in wrapper) == faster, \
        wrapper
