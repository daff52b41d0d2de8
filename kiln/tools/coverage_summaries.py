"""The OpInfo coverage sweep's results (kiln.tools.coverage runs the sweep): the classes a sample lands in, sample
keys and the expected-failures list, and the summaries (DIR/summary*.md) merged from the records of the shards."""
import collections
import contextlib
import datetime
import glob
import json
import os
import sys

CLASSES = ("native", "partial", "graph_fallback", "no_graph", "mismatch", "error", "skipped")
TESTED = ("native", "partial", "graph_fallback", "mismatch", "error")   # no_graph and skipped are not tests
FAILURES = ("mismatch", "error")
DTYPE_NAMES = ("float32", "bfloat16", "int64", "bool")
BACKENDS = ("kiln", "inductor", "aot_eager", "eager")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_EXPECTED = os.path.join(REPO, "bench", "coverage", "expected_failures.txt")

DEFINITIONS = {
    "kiln": "native = every graph compiled by kiln, with only kiln kernels and library externs (BLAS, conv, "
            "attention, LAPACK, FFT); partial = some ops ran as eager fallbacks (kiln.stats() fallback_ops); "
            "graph_fallback = kiln fell back to running a whole graph eagerly (kiln.stats() graphs_fallback).",
    "inductor": "native = every graph compiled by Inductor without a FallbackKernel (an aten op run eagerly "
                "inside the compiled graph) other than the library calls kiln also runs as externs; partial = some "
                "other FallbackKernel; Inductor has no graph fallback: its compile failures raise and count as "
                "errors.",
    "aot_eager": "native = a graph reached aot_eager (no code generation: a check of the harness itself).",
    "eager": "native = a graph reached the eager backend (no AOTAutograd: a check of Dynamo).",
}


# ---------------------------------------------------------------- sample keys and the expected-failures list

def sample_key(op, dtype, index):
    return f"{op}:{dtype}:{index}"


def parse_key(key):
    op, dtype, index = key.rsplit(":", 2)
    return op, dtype, int(index)


def load_expected(path=DEFAULT_EXPECTED, versions=None):
    """{sample key: class} from the expected-failures list: `op:dtype:index class [torch=V]  # why` per
    line; with torch=V the line holds only where a version swept (default: this torch's) starts with V."""
    versions = versions or [torch_version()]
    expected = {}
    if not path or not os.path.exists(path):
        return expected
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            key, cls, *only = line.split()
            if cls not in FAILURES:
                raise ValueError(f"{path}: {key}: class must be one of {FAILURES}, not {cls!r}")
            if all(any(v.startswith(o.removeprefix("torch=")) for v in versions) for o in only):
                expected[key] = cls
    return expected


def check_expected(records, expected):
    """(unexpected failures, listed failures that now pass) among records, both as lists of records.

    A listed failure counts as still failing if it is a mismatch or error of either kind; one that now
    passes must be removed from the list, so that the list only shrinks and stays true."""
    unexpected, fixed = [], []
    for r in records:
        key = sample_key(r["op"], r["dtype"], r["index"])
        if r["cls"] in FAILURES and key not in expected:
            unexpected.append(r)
        elif r["cls"] not in FAILURES and key in expected and r["cls"] != "skipped":
            fixed.append(r)
    return unexpected, fixed


# ---------------------------------------------------------------- summaries

def load_records(out, backend):
    """The latest record of each sample over the backend's result files (newer files win)."""
    files = sorted(glob.glob(os.path.join(out, "raw", backend, "*.jsonl")), key=os.path.getmtime)
    latest = {}
    for path in files:
        with open(path) as f:
            for line in f:
                with contextlib.suppress(ValueError):
                    r = json.loads(line)
                    latest[sample_key(r["op"], r["dtype"], r["index"])] = r
    return [library_calls_are_native(r) for r in latest.values()]


def library_calls_are_native(rec):
    """A partial sample whose only eager ops are library calls (kiln's externs: LAPACK, FFT, attention; see
    kiln.lowering.EXTERNS) is native, for every backend alike: kiln runs them as externs, as it does mm,
    and Inductor's FallbackKernels of the same calls are no more eager. Records from before kiln made them
    externs, and Inductor's, list them as fallbacks."""
    from kiln.lowering import LIBRARY_CALLS
    names, calls = rec.get("fallback_names") or [], set(map(str, LIBRARY_CALLS))
    library = [n for n in names if n in calls]
    if not library:
        return rec
    rec = dict(rec, fallback_names=[n for n in names if n not in library], library_calls=library)
    if rec["cls"] == "partial" and not rec["fallback_names"]:
        rec.update(cls="native", detail="")
    return rec


def load_meta(out, backend):
    metas = []
    for path in sorted(glob.glob(os.path.join(out, "raw", backend, "*.meta.json"))):
        with open(path) as f:
            metas.append(json.load(f))
    return metas


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


def totals_table(records):
    by_dtype = collections.defaultdict(collections.Counter)
    for r in records:
        by_dtype[r["dtype"]][r["cls"]] += 1
        by_dtype["all"][r["cls"]] += 1
    lines = ["| dtype | samples | " + " | ".join(CLASSES) + " | tested | native % of tested |",
             "|---" * (len(CLASSES) + 4) + "|"]
    for dt in [d for d in DTYPE_NAMES if d in by_dtype] + ["all"]:
        c = by_dtype[dt]
        tested = sum(c[k] for k in TESTED)
        lines.append(f"| {dt} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in CLASSES) +
                     f" | {tested} | {pct(c['native'], tested)} |")
    return "\n".join(lines), by_dtype


def headline(by_dtype):
    f32 = by_dtype.get("float32", collections.Counter())
    tested = sum(f32[k] for k in TESTED)
    allc = by_dtype["all"]
    return (f"float32: {pct(f32['native'], tested)} of {tested} tested samples native; all dtypes: "
            f"{pct(allc['native'], sum(allc[k] for k in TESTED))} native, {allc['mismatch']} mismatches, "
            f"{allc['error']} errors, {allc['no_graph']} without a graph, {allc['skipped']} skipped")


def sweep_expected(metas, path):
    """The expected failures that hold for a torch version the runs (their metas) were swept with."""
    return load_expected(path, sorted({m.get("torch") for m in metas} - {None}))


def backend_summary(out, backend, expected_path):
    records = load_records(out, backend)
    if not records:
        return None
    metas = load_meta(out, backend)
    expected = sweep_expected(metas, expected_path)
    table, by_dtype = totals_table(records)
    per_op = collections.defaultdict(collections.Counter)
    fallbacks = collections.defaultdict(collections.Counter)
    for r in records:
        per_op[r["op"]][r["cls"]] += 1
        for name in r.get("fallback_names") or []:
            fallbacks[r["op"]][name.replace("aten.", "")] += 1
    wall = sum(m["wall_s"] for m in metas)
    sample_time = sum(r.get("time", 0) for r in records)
    unexpected, fixed = check_expected(records, expected) if backend == "kiln" else ([], [])
    lines = [f"# OpInfo coverage: {backend}", "",
             f"torch {', '.join(sorted({m.get('torch', '?') for m in metas}))}; "
             f"{', '.join(sorted({m.get('host', '?') for m in metas}))}. "
             f"Generated {datetime.date.today().isoformat()} by `python -m kiln.tools.coverage`; "
             f"runs: {', '.join(sorted({m['args'] for m in metas})) or '-'}.", "",
             f"**{headline(by_dtype)}.**", "",
             f"Time: {wall / 60:.0f} min of wall time over {len(metas)} runs; {sample_time / 60:.0f} min in samples.",
             "", f"Classes: {DEFINITIONS.get(backend, '')} no_graph = Dynamo made no graph (not a test); "
             "skipped = eager fails on the sample, or it has more than 1e6 elements. native % is of tested "
             "samples (native + partial + graph_fallback + mismatch + error).", "", table, ""]
    values = collections.Counter(r.get("values") for r in records if r["cls"] in TESTED and r.get("values"))
    fp64 = sum(1 for r in records if r.get("fp64_rule"))
    library = collections.Counter(r["dtype"] for r in records if r.get("library_calls") and r["cls"] == "native")
    if library:
        lines += [f"Native only because library calls count as externs (LAPACK, FFT, attention run eagerly; "
                  f"kiln.lowering.EXTERNS): {', '.join(f'{n} {dt}' for dt, n in library.items())} samples.", ""]
    lines += [f"Compared by shape and dtype only: {sum(values.values())} tested samples "
              f"({', '.join(f'{v} {k}' for k, v in values.most_common()) or 'none'} values). Passed by the fp64 rule "
              f"(further from eager than the tolerance, but no further from an fp64 reference than eager): {fp64}.",
              ""]
    if backend == "kiln" and expected is not None:
        lines += [f"Expected failures: {len(expected)} listed; {len(unexpected)} unexpected failures; "
                  f"{len(fixed)} listed failures now pass.", ""]
    failures = [r for r in records if r["cls"] in FAILURES]
    if failures:
        lines += ["## Failures", "", "| sample | class | detail |", "|---|---|---|"]
        for r in sorted(failures, key=lambda r: (r["op"], r["dtype"], r["index"])):
            lines.append(f"| {sample_key(r['op'], r['dtype'], r['index'])} | {r['cls']} | "
                         f"{md_cell(r.get('detail', ''))[:200]} |")
        lines.append("")
    lines += ["## Per op", "", "| op | " + " | ".join(CLASSES) + " | fallback ops (samples) |",
              "|---" * (len(CLASSES) + 2) + "|"]
    total = collections.Counter()
    for op in sorted(per_op):
        c = per_op[op]
        total.update(c)
        fb = ", ".join(f"{n} ({k})" for n, k in fallbacks[op].most_common(4))
        lines.append(f"| {op} | " + " | ".join(str(c[k]) if c[k] else "" for k in CLASSES) + f" | {md_cell(fb)} |")
    lines.append(f"| **total** ({len(per_op)} ops) | " + " | ".join(str(total[k]) for k in CLASSES) + " | |")
    all_fb = collections.Counter()
    for op, c in fallbacks.items():
        all_fb.update(c)
    if all_fb:
        lines += ["", "## Fallback ops by samples", "", ", ".join(f"{n} ({k})" for n, k in all_fb.most_common())]
    return "\n".join(lines) + "\n", records, by_dtype


def md_cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def comparison(out, results):
    """summary.md: the backends side by side on the samples all of them ran, per dtype and per op."""
    keyed = {b: {sample_key(r["op"], r["dtype"], r["index"]): r for r in recs} for b, (_, recs, _) in results.items()}
    common = set.intersection(*(set(k) for k in keyed.values()))
    lines = ["# OpInfo coverage: kiln vs Inductor", "",
             f"The same sweep for each backend: the {len(common)} samples (op, dtype, sample index) that every "
             "backend ran, on the same machine. summary-BACKEND.md has each backend's full results (kiln's include "
             "every float32 sample), per-op tables and the class definitions. native % is of tested samples "
             "(not no_graph or skipped).", "",
             "| backend | dtype | tested | native | partial | graph_fallback | mismatch | error | no_graph | "
             "skipped | native % |", "|---" * 11 + "|"]
    for backend, recs in keyed.items():
        _, by_dtype = totals_table([r for key, r in recs.items() if key in common])
        for dt in [d for d in DTYPE_NAMES if d in by_dtype] + ["all"]:
            c = by_dtype[dt]
            tested = sum(c[k] for k in TESTED)
            lines.append(f"| {backend} | {dt} | {tested} | {c['native']} | {c['partial']} | {c['graph_fallback']} "
                         f"| {c['mismatch']} | {c['error']} | {c['no_graph']} | {c['skipped']} | "
                         f"{pct(c['native'], tested)} |")
    if "kiln" in keyed and "inductor" in keyed:
        k_recs, i_recs = keyed["kiln"], keyed["inductor"]
        both = collections.Counter((k_recs[s]["cls"] == "native", i_recs[s]["cls"] == "native") for s in common
                                   if k_recs[s]["cls"] in TESTED and i_recs[s]["cls"] in TESTED)
        lines += ["", f"Samples tested by both: native in both {both[(True, True)]}, kiln only {both[(True, False)]}, "
                  f"Inductor only {both[(False, True)]}, neither {both[(False, False)]}.", "",
                  "## Ops where the backends' native counts differ", "",
                  "Most native for kiln first. The fallback ops are each backend's eager fallbacks on these samples.",
                  "", "| op | samples | kiln native | Inductor native | kiln not native: classes, fallback ops | "
                  "Inductor not native: classes, fallback ops |", "|---" * 6 + "|"]
        ops = collections.defaultdict(lambda: [0, 0, 0, collections.Counter(), collections.Counter(),
                                               collections.Counter(), collections.Counter()])
        for s in sorted(common):   # a stable order for ties in the fallback-op columns
            k, i = k_recs[s], i_recs[s]
            row = ops[k["op"]]
            row[0] += 1
            row[1] += k["cls"] == "native"
            row[2] += i["cls"] == "native"
            for rec, classes, names in ((k, row[3], row[5]), (i, row[4], row[6])):
                if rec["cls"] != "native":
                    classes[rec["cls"]] += 1
                    names.update(n.replace("aten.", "") for n in rec.get("fallback_names") or [])
        fmt = lambda c, n: md_cell(", ".join([f"{k} {v}" for k, v in c.most_common()] +  # noqa: E731
                                             [k for k, _ in n.most_common(3)]))
        for op in sorted(ops, key=lambda o: (ops[o][2] - ops[o][1], o)):
            n, kn, inn, kc, ic, kf, i_f = ops[op]
            if kn != inn:
                lines.append(f"| {op} | {n} | {kn} | {inn} | {fmt(kc, kf)} | {fmt(ic, i_f)} |")
    return "\n".join(lines) + "\n"


def write_summaries(out, expected_path=DEFAULT_EXPECTED):
    results = {}
    for backend in BACKENDS:
        made = backend_summary(out, backend, expected_path)
        if made is None:
            continue
        text, records, by_dtype = made
        with open(os.path.join(out, f"summary-{backend}.md"), "w") as f:
            f.write(text)
        results[backend] = made
        print(f"{backend}: {headline(by_dtype)}", file=sys.stderr)
    if len(results) > 1:
        with open(os.path.join(out, "summary.md"), "w") as f:
            f.write(comparison(out, results))
    return results


def torch_version():
    import torch
    return torch.__version__
