"""kiln bench: the accuracy rule, the geomean, the workloads, and the CLI end to end at tiny sizes."""
import argparse
import importlib.util
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import kiln
from kiln.tools import accuracy, bench
from kiln.tools.workloads import WORKLOADS

REPO = Path(__file__).resolve().parents[1]
NUMBER = (int, float)
ROW_KEYS = {"workload": str, "backend": str, "device": str, "dtype": str, "ok": bool, "median_ms": NUMBER,
            "speedup": NUMBER, "compile_cold_s": NUMBER, "compile_warm_s": NUMBER, "peak_mem_bytes": int}


def noisy(fp64, scale, seed):
    return fp64 + scale * torch.randn(fp64.shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


@pytest.fixture
def fp64():
    return torch.randn(10_000, generator=torch.Generator().manual_seed(0), dtype=torch.float64)


def test_float64_reference_skips_the_models_own_narrowing_casts():
    """An HF norm upcasts with .to(torch.float32): in the fp64 reference that cast would round the variance
    in eager's own float32 kernel, sharing eager's rounding. Under Float64Throughout it stays fp64."""
    def rms_norm(x):
        variance = x.to(torch.float32).pow(2).mean(-1, keepdim=True)
        return x * torch.rsqrt(variance + 1e-6)
    x = torch.randn(64, 512, dtype=torch.float64) * 3
    exact = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
    with accuracy.Float64Throughout():
        assert torch.equal(rms_norm(x), exact)
        assert x.float().dtype == x.half().dtype == x.to("cpu", torch.bfloat16).dtype == torch.float64
        assert x.to(torch.int32).dtype == torch.int32 and x.float().requires_grad is False
        positions = torch.arange(4)   # integers made float meet float64 buffers (Llama's rotary matmul)
        assert positions.float().dtype == positions.to(torch.float32).dtype == torch.float64
        assert positions.to(torch.int32).dtype == torch.int32
    assert not torch.equal(rms_norm(x), exact)   # outside it, the model's cast rounds


def test_allclose_passes(fp64):
    eager = fp64.float()
    assert accuracy.tensor_error(eager + 1e-5, eager, fp64) is None  # within tol=1e-4 of eager


def test_rmse_against_fp64_fp32(fp64):
    eager = noisy(fp64, 1e-3, 1).float()
    assert accuracy.tensor_error(noisy(fp64, 1.5e-3, 2).float(), eager, fp64) is None  # 1.5x eager's error
    assert "RMSE" in accuracy.tensor_error(noisy(fp64, 2.5e-3, 2).float(), eager, fp64)  # 2.5x > m=2
    assert accuracy.tensor_error(noisy(fp64, 0.5e-3, 2).float(), eager, fp64) is None  # closer to fp64 than eager


def test_small_tensors_get_the_harness_multiplier_of_3(fp64):
    # a loss is one sample of rounding noise: 2.5x eager's error passes below 1000 elements, not above
    eager, result = noisy(fp64, 1e-3, 1).float(), noisy(fp64, 2.5e-3, 2).float()
    assert accuracy.tensor_error(result, eager, fp64) is not None
    assert accuracy.tensor_error(result[:999], eager[:999], fp64[:999]) is None
    assert accuracy.tensor_error(noisy(fp64, 3.5e-3, 2).float()[:999], eager[:999], fp64[:999]) is not None  # 3.5x
    as_1x1_weights = [t[:8000].reshape(100, 80, 1, 1) for t in (result, eager, fp64)]
    assert accuracy.tensor_error(*as_1x1_weights) is None


def test_exact_float32_turns_tf32_off_and_restores_it():
    saved = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
    try:
        with accuracy.exact_float32():
            assert not torch.backends.cuda.matmul.allow_tf32 and not torch.backends.cudnn.allow_tf32
        assert torch.backends.cuda.matmul.allow_tf32 and torch.backends.cudnn.allow_tf32
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_rmse_against_fp64_low_precision(fp64, dtype):
    eager = noisy(fp64, 0.05, 1).to(dtype)
    assert accuracy.tensor_error(noisy(fp64, 0.125, 2).to(dtype), eager, fp64) is None  # 2.5x passes with m=3
    assert accuracy.tensor_error(noisy(fp64, 0.175, 2).to(dtype), eager, fp64) is not None  # 3.5x does not


def test_eagers_nudged_runs_bound_an_ill_conditioned_output(fp64):
    """Where eager's run on inputs moved by one ulp lands far from fp64 (a ReLU flips at an element within
    rounding of 0, and with it a gradient), a compiled result is held to the larger of eager's errors, not to
    its luckier run; one further off than that still fails."""
    eager = fp64.float()
    flipped = eager.clone()
    flipped[:20] += 1e-2
    result = eager.clone()
    result[20:40] += 1e-2
    assert accuracy.tensor_error(result, eager, fp64) is not None
    assert accuracy.tensor_error(result, eager, fp64, nudged=[eager, flipped]) is None
    assert accuracy.accuracy_error([result], [eager], [fp64], nudged=[[eager], [flipped]]) is None
    result[40:200] += 1e-2
    assert accuracy.tensor_error(result, eager, fp64, nudged=[flipped]) is not None


def test_integers_from_rounded_floats_lie_among_eagers_values():
    """An integer read off an ill-conditioned float (fuzz seed 212646: bf16 2.75 ** prod(x * x) cast to int32
    is 394 in eager, 381 in fp64, 358 and 508 one ulp away) is right anywhere among the values eager takes;
    outside them, or where eager's do not move, it is wrong. Booleans pass where eager's or fp64's."""
    eager, fp64, kiln_value = (torch.tensor([7, v], dtype=torch.int32) for v in (394, 381, 368))
    ulp_away = [torch.tensor([7, 358], dtype=torch.int32), torch.tensor([7, 508], dtype=torch.int32)]
    assert accuracy.tensor_error(kiln_value, eager, fp64) is not None
    assert accuracy.tensor_error(kiln_value, eager, fp64, nudged=ulp_away) is None
    assert accuracy.tensor_error(torch.tensor([7, 357], dtype=torch.int32), eager, fp64, nudged=ulp_away) is not None
    assert accuracy.tensor_error(torch.tensor([8, 368], dtype=torch.int32), eager, fp64, nudged=ulp_away) is not None
    flags = torch.tensor([True, False, True])
    assert accuracy.tensor_error(flags, torch.tensor([True, True, True]), flags) is None
    assert accuracy.tensor_error(flags, torch.tensor([True, True, True]), torch.tensor([True, True, False])) is not None


def test_nudged_moves_each_element_by_one_ulp():
    x = torch.randn(1000)
    moved = accuracy.nudged(x, torch.Generator().manual_seed(0))
    up, down = moved == torch.nextafter(x, torch.tensor(math.inf)), moved == torch.nextafter(x, torch.tensor(-math.inf))
    assert (up | down).all() and up.any() and down.any()
    ids = torch.arange(5)
    assert accuracy.nudged(ids, torch.Generator()) is ids
    fp64, eager, nudged = bench._references(torch.nn.Linear(1000, 3), [x], train=False)
    assert len(nudged) == accuracy.NUDGED_RUNS and not torch.equal(nudged[0][0], eager[0])


def test_nan_handling(fp64):
    nan_head = fp64.float().clone()
    nan_head[:10] = math.nan
    # NaNs where eager has them too: equal
    assert accuracy.tensor_error(nan_head.clone(), nan_head, fp64) is None
    # NaNs that eager and fp64 do not have: fails
    assert accuracy.tensor_error(nan_head, fp64.float(), fp64) is not None
    # eager's NaNs, which fp64 does not have, where the result is right: better than eager, passes
    assert accuracy.tensor_error(fp64.float(), nan_head, fp64) is None
    # NaNs in fp64 too: nobody computes it stably in this precision, so both NaN errors pass
    fp64_nan = fp64.clone()
    fp64_nan[:10] = math.nan
    assert accuracy.tensor_error(noisy(fp64_nan, 1e-2, 2).float(), nan_head, fp64_nan) is None
    # eager infinitely far from fp64 (its 1 where fp64 has -inf: 0 * inf rounded otherwise, fuzz seed 97840): a
    # NaN result cannot be ranked against it, and passes; a NaN result where eager is finitely off fails
    inf_ref = fp64.clone()
    inf_ref[0] = -math.inf
    eager_one = inf_ref.float().clone()
    eager_one[0] = 1.0
    nan_first = inf_ref.float().clone()
    nan_first[0] = math.nan
    assert accuracy.tensor_error(nan_first, eager_one, inf_ref) is None
    assert accuracy.tensor_error(nan_first, eager_one, fp64) is not None
    # ...but the other elements are ranked as ever: wrong there, it fails
    assert accuracy.tensor_error(-nan_first, eager_one, inf_ref) is not None
    assert accuracy.tensor_error(noisy(nan_first.double(), 1e-1, 3).float(), eager_one, inf_ref) is not None


def test_a_scalar_is_allowed_ten_times_eagers_error():
    # one draw of rounding noise: a loss that eager happens to get nearly right fails a compiler's equally good one
    fp64 = torch.tensor(36.0, dtype=torch.float64)
    eager = torch.tensor(36.05)
    assert accuracy.tensor_error(torch.tensor(36.4), eager, fp64) is None
    assert accuracy.tensor_error(torch.tensor(36.6), eager, fp64) is not None
    assert accuracy.tensor_error(torch.full((11,), 36.4), torch.full((11,), 36.05), torch.full((11,), 36.0)) \
        is not None   # tensors of more elements keep the rule's 3x


def test_exact_outputs_pass_where_they_equal_eager_or_fp64():
    # ne(x, softmax(x)) in bf16 (fuzz seed 81775): eager's rounding made one element equal, fp64's did not
    eager, fp64 = torch.tensor([True, False, True]), torch.tensor([True, True, False])
    assert accuracy.tensor_error(torch.tensor([True, True, True]), eager, fp64) is None
    assert accuracy.tensor_error(torch.tensor([False, True, True]), eager, fp64) is not None   # neither's
    ints = torch.tensor([1, 2, 3])
    assert accuracy.tensor_error(torch.tensor([1, 5, 3]), ints, torch.tensor([1, 5, 4])) is None
    assert accuracy.tensor_error(torch.tensor([1, 6, 3]), ints, torch.tensor([1, 5, 4])) is not None


def test_accuracy_error_names_the_output(fp64):
    good = fp64.float()
    assert accuracy.accuracy_error([good, good], [good, good], [fp64, fp64]) is None
    assert accuracy.accuracy_error([good, good + 1], [good, good], [fp64, fp64]).startswith("output 1: RMSE")
    assert "expected torch.float32 [10000]" in accuracy.accuracy_error([good[:5]], [good], [fp64])
    assert accuracy.accuracy_error([good], [good, good], [fp64, fp64]) == "expected 2 tensors, got 1"


def test_geomean():
    assert bench.geomean([1.0, 4.0]) == pytest.approx(2.0)
    assert bench.geomean([2.0]) == pytest.approx(2.0)
    assert bench.geomean([]) is None


def test_geomean_speedups_counts_ok_rows_only():
    rows = [dict(workload=w, backend=b, ok=ok, speedup=s) for w, b, ok, s in [
        ("a", "eager", True, 1.0), ("a", "kiln", True, 2.0), ("b", "eager", True, 1.0), ("b", "kiln", False, 9.0),
        ("c", "eager", True, 1.0), ("c", "kiln", True, 0.5)]]
    assert bench.geomean_speedups(rows) == {"kiln": (pytest.approx(1.0), 2, 3)}


@pytest.mark.parametrize("name", WORKLOADS)
def test_workloads_run_tiny(name):
    workload = WORKLOADS[name]
    out = workload.make_module(size="tiny")(*workload.make_inputs(size="tiny"))
    assert out.isfinite().all()
    loss = workload.make_module(size="tiny", dtype=torch.float64, train=True)(
        *workload.make_inputs(size="tiny", dtype=torch.float64))
    assert loss.dim() == 0 and loss.dtype == torch.float64


def test_worker_timeout_is_an_error(tmp_path):
    (tmp_path / "logs").mkdir()
    spec = dict(workload="sincos", device="cpu", dtype="float32", size="tiny", train=False, backend="aot_eager")
    result = bench._run_worker("cold", spec, {}, "slow", argparse.Namespace(out=tmp_path, timeout=0.05))
    assert result["error"].startswith("timed out after 0.05 s")


def run_cli(out, *args):
    return subprocess.run([sys.executable, "-m", "kiln", "bench", "--device", "cpu", "--size", "tiny",
                           "--out", str(out), *args], cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def train_run(tmp_path_factory):
    """A training run in which one backend fails everywhere (it does not exist)."""
    out = tmp_path_factory.mktemp("bench")
    done = run_cli(out, "--train", "--workloads", "sincos,resnet_block", "--backends", "aot_eager,no_such_backend")
    return done, json.loads((out / "results.json").read_text()), out


def test_cli_results_schema(train_run):
    done, results, out = train_run
    assert done.returncode == 1, done.stderr  # a row failed
    assert {"versions", "host", "git", "started", "command"} <= set(results["metadata"])
    assert results["metadata"]["versions"]["torch"] == torch.__version__
    rows = results["rows"]
    assert [(r["workload"], r["backend"]) for r in rows] == [
        (w, b) for w in ("sincos", "resnet_block") for b in ("eager", "aot_eager", "no_such_backend")]
    for row in rows:
        assert set(ROW_KEYS) <= set(row) and row["device"] == "cpu" and row["dtype"] == "float32" and row["train"]
        for key, kind in ROW_KEYS.items():
            if row["ok"] and not (row["backend"] == "eager" and key.startswith("compile")):  # eager compiles nothing
                assert isinstance(row[key], kind), (key, row)
    assert "| workload | backend | ok |" in (out / "results.md").read_text()
    assert "geomean speedup over eager, aot_eager" in done.stdout
    if importlib.util.find_spec("matplotlib"):
        assert (out / "speedup.png").stat().st_size > 0


def test_cli_failing_backend_is_a_row(train_run):
    _, results, _ = train_run
    by_backend = {}
    for row in results["rows"]:
        by_backend.setdefault(row["backend"], []).append(row)
    assert all(row["ok"] and row["error"] is None for row in by_backend["eager"] + by_backend["aot_eager"])
    assert all(row["speedup"] > 0 for row in by_backend["aot_eager"])
    assert all(row["ok"] is False and "no_such_backend" in row["error"] and row["median_ms"] is None
               for row in by_backend["no_such_backend"])


@pytest.mark.skipif(not hasattr(kiln, "compile"), reason="kiln.compile does not exist yet")
def test_bench_kiln(tmp_path):
    status = bench.main_bench(["--device", "cpu", "--size", "tiny", "--workloads", "sincos", "--backends", "kiln",
                               "--out", str(tmp_path)])
    _, kiln_row = json.loads((tmp_path / "results.json").read_text())["rows"]
    assert status == 0 and kiln_row["ok"], kiln_row["error"]
    assert kiln_row["kernels"] >= 1 and kiln_row["fallback_ops"] == 0 and kiln_row["speedup"] > 0


def timed_row(backend, median_ms, iqr_ms, speedup=None):
    return dict(workload="sincos", backend=backend, ok=True, error=None, median_ms=median_ms, iqr_ms=iqr_ms,
                speedup=speedup, compile_cold_s=None, compile_warm_s=None, peak_mem_bytes=None, kernels=None,
                fallback_ops=None, graphs_fallback=None, unreliable=None)


def test_unreliable_rows_are_flagged():
    eager = timed_row("eager", 10.0, 0.2)
    # slower in ms, yet a paired speedup above 1: the two columns contradict each other
    assert bench.unreliable(timed_row("kiln", 11.0, 0.2, 1.05), eager) == \
        "eager ms / ms = 0.91 against a paired speedup of 1.05"
    assert bench.unreliable(timed_row("kiln", 5.0, 1.5, 2.0), eager) == "its iqr 30% of its median"
    assert bench.unreliable(timed_row("kiln", 5.0, 0.1, 2.02), eager) is None


def test_table_has_a_legend_and_marks_unreliable_rows(tmp_path):
    rows = [timed_row("eager", 10.0, 0.2), timed_row("kiln", 11.0, 0.2, 1.05)]
    rows[1]["unreliable"] = bench.unreliable(rows[1], rows[0])
    meta = dict(command="kiln bench", started="now", suite="quick", size="tiny", device="cpu", dtype="float32",
                train=False, versions={}, git={}, host={})
    bench.write_markdown(tmp_path / "results.md", rows, meta)
    text = (tmp_path / "results.md").read_text()
    assert "| 1.05? |" in text and "sincos kiln: eager ms / ms = 0.91" in text
    for header, _, _, _ in bench.COLUMNS:
        assert f"\n- {header}: " in text, header


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs matplotlib")
def test_plot_labels_its_log_axis_with_plain_numbers(tmp_path, monkeypatch):
    import matplotlib.figure
    figures, savefig = [], matplotlib.figure.Figure.savefig
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda fig, *a, **k: (figures.append(fig),
                                                                                    savefig(fig, *a, **k)))
    rows = [timed_row("eager", 10.0, 0.1, 1.0), timed_row("kiln", 2.5, 0.1, 4.0), timed_row("inductor", 5, 0.1, 2.0)]
    meta = dict(suite="quick", size="tiny", device="cpu", dtype="float32", train=False)
    assert bench.plot_speedups(tmp_path / "speedup.png", rows, meta)
    axis = figures[0].axes[0].yaxis
    labels = [t.get_text() for t in axis.get_ticklabels() + axis.get_ticklabels(minor=True) if t.get_text()]
    assert labels and all(re.fullmatch(r"[\d.]+", label) for label in labels), labels
    assert "4" in labels or "5" in labels, labels


def test_interleaved_rounds_let_each_step_follow_each_other_equally(monkeypatch):
    """With a fixed order the step sampled after eager's read ~3% slower on the H100: over the rounds, each step
    must follow each other step (within a round) equally often, and go first equally often."""
    sampled = []
    monkeypatch.setattr(bench, "_time_calls", lambda step, calls, device: sampled.append(step) or 1e-3)
    monkeypatch.setattr(bench, "MAX_ROUNDS", bench.MIN_ROUNDS)
    bench._interleaved_times({name: name for name in ("eager", "inductor", "kiln")}, "cpu")
    rounds = [sampled[i:i + 3] for i in range(9, len(sampled), 3)]   # (after the 3 x 3 calls sizing each sample)
    assert len(rounds) == bench.MIN_ROUNDS
    follows = {}
    for r in rounds:
        for before, after in zip(r, r[1:]):
            follows[before, after] = follows.get((before, after), 0) + 1
    assert len(follows) == 6 and len(set(follows.values())) == 1, follows
    assert len({sum(r[0] == name for r in rounds) for name in ("eager", "inductor", "kiln")}) == 1


def test_each_backend_compiled_in_turn_gets_its_own_recompiles():
    """Dynamo counts the graphs of a code object against one recompile limit, whichever backend compiled them.
    A frame that recompiles once per layer index, more often than Dynamo's default limit (transformers' layers
    share one frame: BART's compiled it more than 8 times), compiled by one backend and then by kiln in one
    process (as the bench and scripts/gpu_models.py do): kiln still compiles every graph, none falls back to eager
    for being late or many."""
    def layer(x, name):
        return x * 2 + len(name)   # a graph per string (Dynamo specializes on it; an int would turn dynamic)
    x = torch.randn(4)
    limit = torch._dynamo.config.recompile_limit
    layers = bench.DEFAULT_RECOMPILE_LIMIT + 4
    torch._dynamo.reset()
    try:
        for turn, compile in enumerate([lambda f: torch.compile(f, backend="eager"), kiln.compile]):
            bench._own_recompile_budget(turn)
            kiln.reset_stats()
            fn = compile(layer)
            for i in range(layers):
                torch.testing.assert_close(fn(x, "layer" + "s" * i), layer(x, "layer" + "s" * i))
        assert kiln.stats()["graphs_compiled"] == layers
    finally:
        torch._dynamo.config.recompile_limit = limit
        torch._dynamo.reset()


def test_jobs_time_alone_after_every_compile_ends(tmp_path):
    """scripts/gpu_models.py --jobs on a GPU per job: a job's timing rounds hold the lock alone, so they wait for
    the compiles under way in other jobs (shared holders) and exclude each other: no host work of another job
    falls in them. Four processes: two compiles (3 s and 2 s from t=0 and 0.2), two timings asked at 1.0 and 1.1."""
    worker = f"""
import argparse, glob, importlib.util, sys, time
spec = importlib.util.spec_from_file_location("gpu_models", {str(REPO / "scripts" / "gpu_models.py")!r})
gm = importlib.util.module_from_spec(spec); spec.loader.exec_module(gm)
alone, delay, hold, me = sys.argv[1] == "alone", float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
open({str(tmp_path)!r} + "/ready" + me, "w").close()
while len(glob.glob({str(tmp_path)!r} + "/ready*")) < 4:
    time.sleep(0.01)
time.sleep(delay)
with gm.held(argparse.Namespace(timing_lock={str(tmp_path / "lock")!r}), alone):
    start = time.time(); time.sleep(hold); print(start, time.time())
"""
    # (the module's import takes seconds: the delays count from the moment all four have imported it)
    jobs = [("shared", 0, 3), ("shared", 0.2, 2), ("alone", 1.0, 1), ("alone", 1.1, 1)]
    procs = [subprocess.Popen([sys.executable, "-c", worker, *map(str, job), str(i)], stdout=subprocess.PIPE,
                              text=True) for i, job in enumerate(jobs)]
    spans = [tuple(map(float, p.communicate(timeout=300)[0].split())) for p in procs]
    shared, alone = spans[:2], spans[2:]
    assert all(a_start >= max(end for _, end in shared) - 0.05 for a_start, _ in alone), spans
    (s1, e1), (s2, e2) = sorted(alone)
    assert s2 >= e1 - 0.05, spans
    assert shared[1][0] < shared[0][1], spans   # the two compiles ran at once
