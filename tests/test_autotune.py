"""mode="max-autotune" (kiln.runtime.autotune): each Triton kernel's candidate launch configurations timed, the
fastest launched, the choice cached. Run by Triton's interpreter (the suite's Triton half) with a fake timer."""
import os

import pytest
import torch

import kiln

pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="Triton kernels run here under the interpreter: the suite's Triton half")


def fake_seconds(config):
    """max-autotune's timer in tests: most warps first, then the smallest tile"""
    x, r, persistent, warps = config
    return 1 / warps + x * r * 1e-9


class FakeClock:
    """Times each configuration by fake_seconds, and records it with the kernel it is for; configurations in
    `fails` raise, as one that runs out of resources does."""

    def __init__(self, fails=()):
        self.timed, self.fails = [], fails

    def __call__(self, run, config):
        self.timed.append((run.launch.fn.__name__.rsplit("_", 1)[0], config))   # (the name less its text's hash)
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
    """Each kernel's candidates are timed; the graph is generated with the fastest; its results are eager's."""
    clock = tuning.clock(FakeClock())
    check_softmax_sum_and_relu(torch.randn(6, 40), torch.randn(6, 40))
    timed, launched = clock.by_kernel(), tuning.launched()
    assert len(timed) == 2, clock.timed
    for kernel, configs in timed.items():
        assert len({persistent for _, _, persistent, _ in configs}) == 1, configs   # whole rows stay whole
        assert launched[kernel] == launch_of(min(configs, key=fake_seconds)), (kernel, launched, configs)
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
    assert clock.timed and any(configs[0] != min(configs, key=fake_seconds) for configs in clock.by_kernel().values())
