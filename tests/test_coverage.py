"""The OpInfo coverage sweep (kiln.tools.coverage): its CI tier and the expected-failures list.

test_ci_subset_* run a fixed subset of op_db through kiln (CI_OPS x CI_DTYPES, at most CI_MAX_SAMPLES
samples per op and dtype, plus every sample in bench/coverage/expected_failures.txt) in about two
minutes on two cores, and fail on a mismatch or error that is not listed, and on a listed failure that
now passes: the list only shrinks, and stays true. The full sweep is `kiln coverage` (see bench/coverage/).
"""
import json
import os

import pytest
import torch

from kiln.tools import coverage, coverage_summaries

pytest.importorskip("expecttest")   # torch.testing._internal's op_db needs it

# A fixed subset spanning kiln's lowering table: pointwise (unary, binary, comparisons, casts, where,
# clamp), reductions, composite ops decomposed into them, views, data movement, indexing, factories,
# RNG and externs, and ops that must fall back cleanly.
CI_OPS = [
    "abs", "neg", "exp", "log1p", "sqrt", "rsqrt", "sin", "tanh", "sigmoid", "erf", "floor", "round", "sign",
    "reciprocal", "bitwise_not", "logical_not", "isnan", "nan_to_num",
    "add", "sub", "mul", "div.no_rounding_mode", "div.floor_rounding", "div.trunc_rounding", "remainder", "fmod",
    "pow", "atan2", "maximum", "minimum", "bitwise_and", "bitwise_left_shift", "eq", "lt", "ge", "logical_and",
    "logical_xor", "where", "clamp", "lerp", "addcmul", "to", "double",
    "sum", "mean", "prod", "amax", "argmax", "max.reduction_with_dim", "var", "std", "any", "all", "logsumexp",
    "softmax", "log_softmax", "nn.functional.layer_norm", "nn.functional.gelu", "nn.functional.silu",
    "nn.functional.hardtanh", "nn.functional.mse_loss", "nn.functional.cross_entropy",
    "view", "reshape", "permute", "transpose", "expand", "squeeze", "unsqueeze", "narrow", "select", "flatten",
    "cat", "stack", "split", "unbind", "nn.functional.pad.constant", "nn.functional.pad.reflect", "index_select", "gather", "take_along_dim",
    "nn.functional.embedding", "zeros_like", "full_like", "arange", "empty_like", "nn.functional.dropout",
    "mm", "addmm", "matmul", "nn.functional.conv2d", "cumsum", "sort", "index_put", "masked_fill",
]
# the ops also run in bfloat16, int64 and bool (where they support them)
CI_OPS_ALL_DTYPES = [
    "abs", "neg", "sign", "bitwise_not", "logical_not", "add", "mul", "div.floor_rounding", "remainder", "pow",
    "bitwise_and", "bitwise_left_shift", "eq", "lt", "logical_xor", "where", "clamp", "to", "sum", "prod", "mean",
    "amax", "argmax", "any", "softmax", "nn.functional.layer_norm", "cat", "permute", "expand",
    "nn.functional.pad.constant", "index_select", "gather", "mm",
]
# float32: two samples per op (the first and the last); the other dtypes: one
CI_RUNS = [(CI_OPS, "float32", 2), (CI_OPS_ALL_DTYPES, "bfloat16,int64,bool", 1)]


@pytest.fixture(scope="module")
def ci_records(tmp_path_factory):
    out = tmp_path_factory.mktemp("coverage")
    expected = coverage_summaries.load_expected()
    for ops, dtypes, samples in CI_RUNS:
        argv = ["--backend", "kiln", "--ops", ",".join(ops), "--dtypes", dtypes, "--max-samples", str(samples),
                "--out", str(out)]
        assert coverage.main(argv) == 0
    if expected:
        assert coverage.main(["--backend", "kiln", "--samples", ",".join(sorted(expected)), "--out", str(out)]) == 0
    return coverage_summaries.load_records(str(out), "kiln")


def describe(records):
    return "\n".join(f"  {coverage_summaries.sample_key(r['op'], r['dtype'], r['index'])} {r['cls']}: {r.get('detail')}"
                     for r in records)


def test_ci_subset_has_no_unexpected_failures(ci_records):
    unexpected, _ = coverage_summaries.check_expected(ci_records, coverage_summaries.load_expected())
    assert not unexpected, "wrong answers or errors (fix them; a wrong answer is the worst bug):\n" + \
        describe(unexpected)


def test_expected_failures_still_fail(ci_records):
    _, fixed = coverage_summaries.check_expected(ci_records, coverage_summaries.load_expected())
    assert not fixed, f"these now pass: remove them from {coverage_summaries.DEFAULT_EXPECTED}\n" + describe(fixed)


def test_expected_failures_were_run(ci_records):
    ran = {coverage_summaries.sample_key(r["op"], r["dtype"], r["index"]) for r in ci_records}
    missing = sorted(set(coverage_summaries.load_expected()) - ran)
    assert not missing, f"listed samples that no longer exist (remove them): {missing}"


def test_ci_subset_is_mostly_native(ci_records):
    """Every CI op ran, Dynamo gave kiln a graph for most samples, and nearly all compile natively: a
    regression guard for lowerings (a new fallback shows up here before the full sweep)."""
    assert {r["op"] for r in ci_records} >= set(CI_OPS)
    tested = [r for r in ci_records if r["cls"] in coverage_summaries.TESTED]
    assert len(tested) >= 0.9 * len(ci_records)
    not_native = [r for r in tested if r["cls"] != "native" and r["op"] not in ALLOWED_NOT_NATIVE]
    assert not not_native, "samples that are no longer native:\n" + describe(not_native)


# ops of the subset kiln runs (partly) eagerly on purpose: sorts of long rows, boolean-mask index_put and
# embedding's max_norm renormalization have no kiln kernels yet
ALLOWED_NOT_NATIVE = {"sort", "index_put", "nn.functional.embedding"}


# ---------------------------------------------------------------- the harness itself (fast)

def test_pick_indices():
    assert coverage.pick_indices(5, 0) == [0, 1, 2, 3, 4]
    assert coverage.pick_indices(5, 10) == [0, 1, 2, 3, 4]
    assert coverage.pick_indices(10, 3) == [0, 4, 9] or coverage.pick_indices(10, 3) == [0, 5, 9]
    assert coverage.pick_indices(10, 1) == [0]


def test_expected_list_parses_and_checks(tmp_path):
    path = tmp_path / "expected.txt"
    path.write_text("# comment\nadd:float32:3 mismatch  # why\n\nsin:int64:0 error\n")
    expected = coverage_summaries.load_expected(str(path))
    assert expected == {"add:float32:3": "mismatch", "sin:int64:0": "error"}
    records = [{"op": "add", "dtype": "float32", "index": 3, "cls": "native"},
               {"op": "sin", "dtype": "int64", "index": 0, "cls": "error"},
               {"op": "mul", "dtype": "float32", "index": 0, "cls": "mismatch"},
               {"op": "mul", "dtype": "float32", "index": 1, "cls": "no_graph"}]
    unexpected, fixed = coverage_summaries.check_expected(records, expected)
    assert [r["op"] for r in unexpected] == ["mul"]
    assert [r["op"] for r in fixed] == ["add"]
    path.write_text("add:float32:3 mismatch torch=2.11  # one torch version only\n")
    assert coverage_summaries.load_expected(str(path), ["2.11.0+cu130"]) == {"add:float32:3": "mismatch"}
    assert coverage_summaries.load_expected(str(path), ["2.13.0+cpu"]) == {}
    path.write_text("add:float32:3 native\n")
    with pytest.raises(ValueError):
        coverage_summaries.load_expected(str(path))


def test_the_committed_expected_list_parses():
    coverage_summaries.load_expected()


def test_values_differ():
    t = torch.tensor([1.0, float("nan"), 3.0])
    assert coverage.values_differ((t, 2), (t.clone(), 2), 1e-6, 1e-6, False) is None
    assert coverage.values_differ(t, t + 1, 1e-6, 1e-6, False)
    assert coverage.values_differ(t, t + 1, 1e-6, 1e-6, True) is None          # meta only
    assert coverage.values_differ(t, t.double(), 1e-6, 1e-6, True)             # dtype differs
    assert coverage.values_differ([t], (t,), 1e-6, 1e-6, False)                # structure differs
    assert coverage.values_differ(torch.tensor([True]), torch.tensor([False]), 1e-6, 1e-6, False)


def test_clone_exact_keeps_layout():
    base = torch.arange(12.0)
    for t in (base.view(3, 4).t(), base[2:8], base[:1].expand(5), base.view(3, 4)[:, 1:3]):
        c = coverage.clone_exact(t)
        assert c.stride() == t.stride() and c.storage_offset() == t.storage_offset() and torch.equal(c, t)
        assert c.untyped_storage().data_ptr() != t.untyped_storage().data_ptr()


def test_summary_from_records(tmp_path):
    raw = tmp_path / "raw" / "kiln"
    raw.mkdir(parents=True)
    records = [{"op": "add", "dtype": "float32", "index": i, "cls": c, "detail": "", "time": 0.1,
                "fallback_names": ["aten.sort.default"] if c == "partial" else []}
               for i, c in enumerate(["native", "native", "partial", "no_graph", "mismatch"])]
    (raw / "shard1of1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (raw / "shard1of1.meta.json").write_text(json.dumps({"args": "x", "wall_s": 1.0}))
    results = coverage_summaries.write_summaries(str(tmp_path), expected_path=None)
    text = (tmp_path / "summary-kiln.md").read_text()
    assert "50.0% of 4 tested samples native" in text
    assert "| add | 2 | 1 |  | 1 | 1 |" in text
    assert "sort.default (1)" in text
    assert results["kiln"][2]["float32"]["mismatch"] == 1
    assert os.path.exists(tmp_path / "summary-kiln.md")
