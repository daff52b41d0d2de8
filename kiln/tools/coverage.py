"""`kiln coverage`: the OpInfo coverage sweep (issue 6).

Runs every OpInfo of torch.testing._internal.common_methods_invocations.op_db through a backend on
the CPU and compares each sample's outputs, and its inputs after the call (in-place ops), with eager:

    python -m kiln.tools.coverage --shard 1/4 --dtypes float32,bfloat16,int64,bool --backend kiln --out DIR
    python -m kiln.tools.coverage --summary-only --out DIR       # merge the shards' results into DIR/summary*.md

Every sample lands in one class:
  native          the backend compiled every graph, and ran no op eagerly (kiln: only kiln kernels and
                  library externs such as mm, conv, LAPACK and FFT; inductor: no FallbackKernel but of
                  those same library calls)
  partial         compiled, but some ops ran as eager fallbacks inside the compiled graph
  graph_fallback  some graph ran eagerly as a whole (kiln caught an error and fell back)
  no_graph        Dynamo handed the backend no graph: not a test of the backend, never counted as a pass
  mismatch        a wrong answer: outputs or mutated inputs differ from eager beyond tolerance (and, for
                  floating results, are further from an fp64 reference than eager is)
  error           the compiled function raised, hung or crashed the process
  skipped         eager itself fails on the sample, or the sample has more than MAX_ELEMENTS elements

Each sample runs on freshly cloned inputs, after torch._dynamo.reset() (else the recompile limit would
silently turn later samples eager). wrapper_set_seed is patched to call the op directly so that RNG
ops reach the backend; ops whose values are random or undefined (empty*) compare shapes and dtypes only.

One worker process runs the samples and writes one JSON line per sample to DIR/raw/BACKEND/*.jsonl;
this process supervises it: if a sample kills the worker (a segfault in generated code), the sample is
recorded as an error and a new worker resumes after it. kiln.tools.coverage_summaries merges the records into
summaries.
"""
import argparse
import collections
import contextlib
import datetime
import hashlib
import importlib.util
import json
import logging
import math
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
import zlib

from kiln.tools.coverage_summaries import (BACKENDS, CLASSES, check_expected, DEFAULT_EXPECTED, DTYPE_NAMES,
                                           load_meta, parse_key, REPO, sample_key, sweep_expected, torch_version,
                                           write_summaries)

MAX_ELEMENTS = 1_000_000
# ops whose outputs are undefined values: compare shapes and dtypes only
UNDEFINED_VALUES = {"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty", "new_empty_strided",
                    "resize_", "resize_as_"}


def op_fullname(op):
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


# ---------------------------------------------------------------- running one sample (worker side)

class SampleTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise SampleTimeout("sample timed out")


def patch_wrapper_set_seed():
    """OpInfos of RNG ops call wrapper_set_seed(op, ...), which reseeds under freeze_rng_state: a graph
    break that keeps the op away from the backend. Replace it, in every module that imported it, by a
    plain call; the harness seeds the generator itself before each run."""
    import torch.testing._utils as tu

    def wrapper_set_seed(op, *args, **kwargs):
        return op(*args, **kwargs)

    original = tu.wrapper_set_seed
    for name, mod in list(sys.modules.items()):
        if name.startswith("torch.testing") and getattr(mod, "wrapper_set_seed", None) is original:
            mod.wrapper_set_seed = wrapper_set_seed


def load_op_db():
    warnings.filterwarnings("ignore")
    from torch.testing._internal.common_methods_invocations import op_db
    patch_wrapper_set_seed()
    return op_db


def dtype_of(name):
    import torch
    return getattr(torch, name)


def op_tolerance(op, dtype):
    """(rtol, atol): assert_close's defaults for dtype, loosened by the OpInfo's toleranceOverrides."""
    import torch
    from torch.testing._comparison import default_tolerances
    from torch.testing._internal.common_device_type import toleranceOverride
    rtol, atol = default_tolerances(dtype) if dtype.is_floating_point else (0.0, 0.0)
    for info in getattr(op, "decorators", ()) or ():
        if getattr(info, "device_type", None) not in (None, "cpu"):
            continue
        for deco in getattr(info, "decorators", ()) or ():
            if isinstance(deco, toleranceOverride) and dtype in deco.d:
                atol, rtol = max(atol, deco.d[dtype].atol), max(rtol, deco.d[dtype].rtol)
    if dtype == torch.bfloat16:   # eager rounds each op to bf16; a fused kernel rounds once
        rtol, atol = max(rtol, 1.6e-2), max(atol, 1e-2)
    return rtol, atol


def clone_exact(x):
    """A copy with the same sizes, strides and storage offset (also for overlapping views)."""
    import torch
    if not isinstance(x, torch.Tensor):
        return x
    if x.layout != torch.strided or type(x) is not torch.Tensor and not isinstance(x, torch.nn.Parameter):
        return x.clone()
    storage = x.untyped_storage()
    fresh = torch.empty(0, dtype=x.dtype, device=x.device)
    fresh.set_(storage.clone() if storage.nbytes() else storage, x.storage_offset(), x.size(), x.stride())
    return fresh


def clone_leaves(leaves):
    return [clone_exact(v) for v in leaves]


def upcast_leaves(leaves, dtype):
    import torch
    return [v.detach().clone().to(torch.float64) if isinstance(v, torch.Tensor) and v.dtype == dtype else clone_exact(v)
            for v in leaves]


def make_call(fn, spec, leaves):
    """(f, tensors): f(*tensors) calls fn on the sample with its tensors replaced by f's arguments."""
    import torch
    from torch.utils._pytree import tree_unflatten
    positions = [i for i, v in enumerate(leaves) if isinstance(v, torch.Tensor)]

    def call(*tensors):
        values = list(leaves)
        for p, t in zip(positions, tensors):
            values[p] = t
        inp, args, kwargs = tree_unflatten(values, spec)
        return fn(inp, *args, **kwargs)

    return call, positions


def run_with_leaves(fn, spec, leaves, seed, compiled=None):
    """fn on the sample's leaves (already cloned): (output, the tensor arguments after the call)."""
    import torch
    call, positions = make_call(fn, spec, leaves)
    tensors = [leaves[p] for p in positions]
    torch.manual_seed(seed)
    out = (compiled(call) if compiled else call)(*tensors)
    return out, tensors


def draws_random_numbers(fn, spec, leaves):
    """Whether fn advances torch's default generator: its values are one draw of many, and a compiler's
    own generator draws others (fractional_max_pool's window offsets can give equal outputs for two seeds)."""
    import torch
    call, positions = make_call(fn, spec, leaves)
    torch.manual_seed(0)
    state = torch.get_rng_state()
    call(*[leaves[p] for p in positions])
    return not torch.equal(state, torch.get_rng_state())


def flatten_result(x):
    from torch.utils._pytree import tree_flatten
    leaves, spec = tree_flatten(x)
    return leaves, spec


def values_differ(expected, actual, rtol, atol, meta_only):
    """Why actual is not expected (pytrees of tensors and Python values), or None."""
    e_leaves, e_spec = flatten_result(expected)
    a_leaves, a_spec = flatten_result(actual)
    if len(e_leaves) != len(a_leaves) or e_spec != a_spec:
        return f"result structure differs: expected {e_spec}, got {a_spec}"
    for i, (e, a) in enumerate(zip(e_leaves, a_leaves)):
        why = leaf_differs(e, a, rtol, atol, meta_only)
        if why:
            return f"leaf {i}: {why}"
    return None


def leaf_differs(e, a, rtol, atol, meta_only):
    import torch
    if isinstance(e, torch.Tensor) or isinstance(a, torch.Tensor):
        if not (isinstance(e, torch.Tensor) and isinstance(a, torch.Tensor)):
            return f"expected {type(e).__name__}, got {type(a).__name__}"
        if e.shape != a.shape or e.dtype != a.dtype:
            return f"expected {e.dtype} {list(e.shape)}, got {a.dtype} {list(a.shape)}"
        if meta_only:
            return None
        if e.is_floating_point() or e.is_complex():   # e.g. the float result of an int64 sample
            from torch.testing._comparison import default_tolerances
            rtol, atol = (max(t, d) for t, d in zip((rtol, atol), default_tolerances(e.dtype)))
        if e.layout != torch.strided or a.layout != torch.strided:
            e, a = (t.to_dense() if t.layout != torch.strided else t for t in (e, a))
        try:
            torch.testing.assert_close(a, e, rtol=rtol, atol=atol, equal_nan=True, check_stride=False,
                                       check_device=True, check_layout=False)
        except AssertionError as err:
            return " ".join(str(err).split())[:400]
        return None
    if meta_only:
        return None
    if isinstance(e, float) and isinstance(a, float):
        if math.isnan(e) and math.isnan(a):
            return None
        return None if math.isclose(e, a, rel_tol=max(rtol, 1e-6), abs_tol=atol) else f"expected {e!r}, got {a!r}"
    try:
        same = bool(e == a)
    except Exception:
        same = repr(e) == repr(a)
    return None if same else f"expected {e!r}, got {a!r}"


def fp64_excuses(results, eagers, refs):
    """Whether every differing leaf is a floating tensor no further from fp64 than eager is
    (kiln.tools.accuracy's rule, PyTorch's benchmark harness rule)."""
    import torch
    from kiln.tools.accuracy import tensor_error
    for res, eag, ref in zip(results, eagers, refs):
        r_leaves, _ = flatten_result(res)
        e_leaves, _ = flatten_result(eag)
        f_leaves, _ = flatten_result(ref)
        if not (len(r_leaves) == len(e_leaves) == len(f_leaves)):
            return False
        for r, e, f in zip(r_leaves, e_leaves, f_leaves):
            if not isinstance(r, torch.Tensor):
                if leaf_differs(e, r, 1e-5, 1e-5, False):
                    return False
                continue
            if not isinstance(e, torch.Tensor) or not isinstance(f, torch.Tensor):
                return False
            if not r.is_floating_point():
                if not torch.equal(r, e):
                    return False
                continue
            if r.layout != torch.strided:
                r, e, f = r.to_dense(), e.to_dense(), f.to_dense()
            if f.shape != r.shape:
                return False
            if tensor_error(r.detach(), e.detach(), f.detach().to(torch.float64)):
                return False
    return True


class Backend:
    """Compiles functions for one backend and reports what happened: graphs, graph fallbacks, fallback ops."""

    def __init__(self, name):
        import torch
        self.name = name
        self.fallbacks = []      # fallback op names of the current sample
        self.messages = []       # warnings of the current sample
        self.graphs = 0
        if name == "kiln":
            import kiln
            self._kiln = kiln
            self._install_log_capture()
        elif name == "inductor":
            path = os.path.join(REPO, "bench", "coverage", "inductor_backend.py")
            spec = importlib.util.spec_from_file_location("kiln_coverage_reference", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            self.probe = module.InductorProbe(self.fallbacks)
        else:
            self._inner = torch._dynamo.lookup_backend(name)

    def _install_log_capture(self):
        backend = self

        class Capture(logging.Handler):
            def emit(self, record):
                if record.name == "kiln.fallback":
                    backend.fallbacks.append(str(record.args[0]) if record.args else record.getMessage())
                elif record.levelno >= logging.WARNING:
                    backend.messages.append(record.getMessage())

        self._kiln.logs.send_records_to(Capture())
        logging.getLogger("kiln.fallback").setLevel(logging.INFO)

    def compile(self, fn):
        import torch
        if self.name == "kiln":
            return self._kiln.compile(fn)
        if self.name == "inductor":
            return torch.compile(fn, backend=self.probe.backend)

        def counting(gm, example_inputs):
            self.graphs += 1
            return self._inner(gm, example_inputs)
        return torch.compile(fn, backend=counting)

    def counts(self):
        if self.name == "kiln":
            s = self._kiln.stats()
            return (s["graphs_compiled"], s["graphs_fallback"], s["fallback_ops"])
        if self.name == "inductor":
            return (self.probe.graphs, 0, len(self.fallbacks))
        return (self.graphs, 0, 0)

    def snapshot(self):
        """Counters before a sample; the sample's fallback names and warnings start empty."""
        del self.fallbacks[:], self.messages[:]
        return self.counts()

    def delta(self, before):
        return {k: a - b for k, a, b in zip(("graphs", "graph_fallbacks", "fallback_ops"), self.counts(), before)}


def graph_break_count():
    from torch._dynamo.utils import counters
    return sum(counters["graph_break"].values())


def run_sample(backend, op, sample, dtype, timeout):
    """One sample through eager and the backend: the record's fields (cls, detail, ...)."""
    import torch
    from torch.utils._pytree import tree_flatten
    leaves, spec = tree_flatten((sample.input, tuple(sample.args), dict(sample.kwargs)))
    numel = sum(v.numel() for v in leaves if isinstance(v, torch.Tensor))
    rec = {"numel": numel}
    if numel > MAX_ELEMENTS:
        return dict(rec, cls="skipped", detail=f"{numel} elements > {MAX_ELEMENTS}")
    fn = op.op
    meta_only = op.name in UNDEFINED_VALUES or op.name.startswith("empty") or op.name.startswith("new_empty")

    # eager, twice with one seed (nondeterminism); then whether it draws random numbers, or differs for
    # another seed (randomness)
    try:
        eager_out, eager_inputs = run_with_leaves(fn, spec, clone_leaves(leaves), 0)
        again_out, again_inputs = run_with_leaves(fn, spec, clone_leaves(leaves), 0)
    except Exception as e:
        return dict(rec, cls="skipped", detail=f"eager fails: {type(e).__name__}: {first_line(e)}")
    if not meta_only:
        if values_differ((eager_out, eager_inputs), (again_out, again_inputs), 0, 0, False):
            meta_only, rec["values"] = True, "nondeterministic"
        elif draws_random_numbers(fn, spec, clone_leaves(leaves)):
            meta_only, rec["values"] = True, "random"
        else:
            try:
                other_out, other_inputs = run_with_leaves(fn, spec, clone_leaves(leaves), 1)
                if values_differ((eager_out, eager_inputs), (other_out, other_inputs), 0, 0, False):
                    meta_only, rec["values"] = True, "random"
            except Exception:
                pass
    elif meta_only:
        rec["values"] = "undefined"
    del again_out, again_inputs

    torch._dynamo.reset()
    before, breaks = backend.snapshot(), graph_break_count()
    started = time.perf_counter()
    signal.alarm(timeout)
    try:
        out, inputs = run_with_leaves(fn, spec, clone_leaves(leaves), 0, compiled=backend.compile)
    except SampleTimeout:
        return dict(rec, cls="error", detail=f"timed out after {timeout}s", **backend.delta(before))
    except Exception as e:
        counts = backend.delta(before)
        tb = traceback.extract_tb(e.__traceback__)
        where = f" at {tb[-1].filename.split('site-packages/')[-1]}:{tb[-1].lineno}" if tb else ""
        return dict(rec, cls="error", detail=f"{type(e).__name__}: {first_line(e)}{where}", **counts,
                    fallback_names=sorted(set(backend.fallbacks)), warnings=backend.messages[:3])
    finally:
        signal.alarm(0)
    rec["compile_s"] = round(time.perf_counter() - started, 3)
    rec.update(backend.delta(before))
    rec["graph_breaks"] = graph_break_count() - breaks
    rec["fallback_names"] = sorted(set(backend.fallbacks))
    if backend.messages:
        rec["warnings"] = [m[:300] for m in backend.messages[:3]]
    torch._dynamo.reset()

    if rec["graphs"] + rec["graph_fallbacks"] == 0:
        return dict(rec, cls="no_graph", detail="Dynamo made no graph")
    rtol, atol = op_tolerance(op, dtype)
    why = values_differ((eager_out, eager_inputs), (out, inputs), rtol, atol, meta_only)
    if why and dtype.is_floating_point:
        try:
            ref_out, ref_inputs = run_with_leaves(fn, spec, upcast_leaves(leaves, dtype), 0)
            if fp64_excuses([out, inputs], [eager_out, eager_inputs], [ref_out, ref_inputs]):
                rec["fp64_rule"] = True
                why = None
        except Exception:
            pass
    if why:
        return dict(rec, cls="mismatch", detail=why)
    if rec["graph_fallbacks"]:
        return dict(rec, cls="graph_fallback", detail=(backend.messages or [""])[0][:300])
    if rec["fallback_ops"]:
        return dict(rec, cls="partial", detail=", ".join(rec["fallback_names"]))
    return dict(rec, cls="native", detail="")


def first_line(e):
    s = str(e).strip()
    return (s.splitlines()[0] if s else "")[:300]


def select_ops(op_db, shard, nshards, ops_filter):
    ops = list(op_db)
    if ops_filter:
        wanted = set(ops_filter)
        ops = [op for op in ops if op_fullname(op) in wanted or op.name in wanted]
    return [op for i, op in enumerate(ops) if i % nshards == shard - 1]


def pick_indices(n, max_samples):
    """All of range(n), or max_samples of them spread evenly (first and last included)."""
    if not max_samples or n <= max_samples:
        return list(range(n))
    if max_samples == 1:
        return [0]
    return sorted({round(j * (n - 1) / (max_samples - 1)) for j in range(max_samples)})


def worker(args):
    """Runs the shard's samples, appending one JSON line each to args.jsonl; skips those already there."""
    import torch
    warnings.filterwarnings("ignore")
    torch.set_num_threads(args.threads)
    op_db = load_op_db()
    backend = Backend(args.backend)
    signal.signal(signal.SIGALRM, _alarm)
    shard, nshards = parse_shard(args.shard)
    extra = collections.defaultdict(set)     # (op, dtype) -> sample indices named by --samples
    for key in (args.samples.split(",") if args.samples else []):
        name, dt, index = parse_key(key)
        extra[(name, dt)].add(index)
    # every (picked) sample of these ops; by default all ops, unless only --samples names some
    whole = select_ops(op_db, shard, nshards, args.ops.split(",") if args.ops else None) \
        if args.ops or not extra else []
    whole_ids = {id(op) for op in whole}
    ops = whole + [op for op in select_ops(op_db, shard, nshards, sorted({n for n, _ in extra}))
                   if id(op) not in whole_ids] if extra else whole
    done = set()
    if os.path.exists(args.jsonl):
        with open(args.jsonl) as f:
            for line in f:
                with contextlib.suppress(ValueError):
                    r = json.loads(line)
                    done.add(sample_key(r["op"], r["dtype"], r["index"]))
    dtypes = args.dtypes.split(",")
    label = f"[{args.backend} {args.shard}]"
    started = time.time()
    with open(args.jsonl, "a") as out:
        for k, op in enumerate(ops):
            name = op_fullname(op)
            for dt_name in dtypes:
                dtype = dtype_of(dt_name)
                if not op.supports_dtype(dtype, "cpu"):
                    continue
                wanted = extra.get((name, dt_name), set())
                if id(op) not in whole_ids and not wanted:
                    continue
                seed = zlib.crc32(f"{name}:{dt_name}".encode())
                torch.manual_seed(seed)
                try:
                    samples = list(op.sample_inputs("cpu", dtype, requires_grad=False))
                except Exception as e:
                    print(f"{label} {name} {dt_name}: sample_inputs fails: {first_line(e)}", file=sys.stderr)
                    continue
                indices = set(pick_indices(len(samples), args.max_samples)) if id(op) in whole_ids else set()
                indices |= {i for i in wanted if i < len(samples)}
                counts = collections.Counter()
                for i in sorted(indices):
                    key = sample_key(name, dt_name, i)
                    if key in done:
                        continue
                    with open(args.jsonl + ".current", "w") as marker:
                        json.dump({"op": name, "dtype": dt_name, "index": i, "t": time.time()}, marker)
                    t0 = time.perf_counter()
                    try:
                        rec = run_sample(backend, op, samples[i], dtype, args.timeout)
                    except Exception as e:   # a harness bug must not stop the sweep
                        rec = {"cls": "error", "detail": f"harness: {type(e).__name__}: {first_line(e)}"}
                    rec = {"op": name, "dtype": dt_name, "index": i, **rec,
                           "time": round(time.perf_counter() - t0, 3)}
                    out.write(json.dumps(rec, default=str) + "\n")
                    out.flush()
                    counts[rec["cls"]] += 1
                if counts:
                    elapsed = time.time() - started
                    eta = elapsed / (k + 1) * (len(ops) - k - 1)
                    print(f"{label} {k + 1}/{len(ops)} ops {elapsed / 60:.1f}m elapsed, ~{eta / 60:.0f}m left  "
                          f"{name} {dt_name}: " + ", ".join(f"{c} {counts[c]}" for c in CLASSES if counts[c]),
                          file=sys.stderr, flush=True)
    with contextlib.suppress(FileNotFoundError):
        os.remove(args.jsonl + ".current")
    return 0


# ---------------------------------------------------------------- the supervisor

def parse_shard(text):
    i, n = (int(x) for x in text.split("/"))
    if not 1 <= i <= n:
        raise ValueError(f"--shard {text}: expected i/n with 1 <= i <= n")
    return i, n


def run_shard(args):
    """Runs the worker until the shard is done, recording a sample that kills it as an error."""
    raw = os.path.join(args.out, "raw", args.backend)
    os.makedirs(raw, exist_ok=True)
    # one file per shard and selection, so that runs of other selections (dtypes, ops) keep their results
    tag = f"shard{args.shard.replace('/', 'of')}-{args.dtypes.replace(',', '+')}"
    tag += f"-max{args.max_samples}" if args.max_samples else ""
    if args.ops or args.samples:
        tag += "-" + hashlib.sha256(f"{args.ops}|{args.samples}".encode()).hexdigest()[:8]
    jsonl = os.path.join(raw, f"{tag}.jsonl")
    if not args.resume and os.path.exists(jsonl):
        os.remove(jsonl)
    env = dict(os.environ)
    env.setdefault("KILN_CACHE_DIR", os.path.join(tempfile.gettempdir(), "kiln_coverage_cache"))
    env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    cmd = [sys.executable, "-m", "kiln.tools.coverage", "--worker", "--jsonl", jsonl, "--backend", args.backend,
           "--shard", args.shard, "--dtypes", args.dtypes, "--timeout", str(args.timeout),
           "--threads", str(args.threads)]
    for flag in ("ops", "samples", "max_samples"):
        if getattr(args, flag):
            cmd += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
    started = time.time()
    crashes = 0
    marker = jsonl + ".current"
    while True:
        proc = subprocess.Popen(cmd, env=env)
        while proc.poll() is None:
            time.sleep(1)
            with contextlib.suppress(FileNotFoundError):
                if time.time() - os.path.getmtime(marker) > 2 * args.timeout + 60:
                    proc.kill()
                    proc.wait()
        if proc.returncode == 0:
            break
        crashes += 1
        try:
            with open(marker) as f:
                current = json.load(f)
        except (FileNotFoundError, ValueError):
            print(f"kiln coverage: worker exited with {proc.returncode} outside a sample; giving up",
                  file=sys.stderr)
            return 1
        why = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit status {proc.returncode}"
        rec = {"op": current["op"], "dtype": current["dtype"], "index": current["index"], "cls": "error",
               "detail": f"the worker process died ({why}) or hung", "time": round(time.time() - current["t"], 3)}
        print(f"kiln coverage: {sample_key(rec['op'], rec['dtype'], rec['index'])} killed the worker ({why}); "
              "restarting after it", file=sys.stderr)
        with open(jsonl, "a") as f:
            f.write(json.dumps(rec) + "\n")
        os.remove(marker)
        if crashes > 100:
            print("kiln coverage: more than 100 crashes; giving up", file=sys.stderr)
            return 1
    meta = {"args": " ".join(sys.argv[1:]), "backend": args.backend, "shard": args.shard, "dtypes": args.dtypes,
            "max_samples": args.max_samples, "started": datetime.datetime.fromtimestamp(started).isoformat(
                timespec="seconds"), "wall_s": round(time.time() - started, 1), "crashes": crashes,
            "torch": torch_version(), "host": host_name()}
    with open(jsonl[:-len(".jsonl")] + ".meta.json", "w") as f:
        json.dump(meta, f, indent=1)
    return 0


def host_name():
    return f"{platform.machine()} {cpu_name()}, {os.cpu_count()} cores"


def cpu_name():
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    return platform.processor()


# ---------------------------------------------------------------- the command

def parser():
    p = argparse.ArgumentParser(prog="kiln coverage", description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", default="kiln", choices=BACKENDS)
    p.add_argument("--shard", default="1/1", help="i/n: run every n-th op starting at the i-th (default 1/1)")
    p.add_argument("--dtypes", default=",".join(DTYPE_NAMES),
                   help="comma-separated, of float32,bfloat16,int64,bool (default all four)")
    p.add_argument("--ops", help="comma-separated OpInfo names (name or name.variant); default all of op_db")
    p.add_argument("--samples", help="comma-separated sample keys op:dtype:index to run as well")
    p.add_argument("--max-samples", type=int, default=0,
                   help="at most this many samples per op and dtype, spread evenly (default 0: all)")
    p.add_argument("--out", default="coverage_results", help="results folder (raw/ JSONL and summary*.md)")
    p.add_argument("--resume", action="store_true", help="keep this shard's earlier results and skip their samples")
    p.add_argument("--timeout", type=int, default=180, help="seconds per sample before it counts as an error")
    p.add_argument("--threads", type=int, default=1, help="torch and OpenMP threads in the worker (default 1)")
    p.add_argument("--summary-only", action="store_true", help="only merge the results in --out into summaries")
    p.add_argument("--expected", default=DEFAULT_EXPECTED, help="the expected-failures list")
    p.add_argument("--check", action="store_true",
                   help="exit 1 if a kiln failure is not in the expected list, or a listed one now passes")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--jsonl", help=argparse.SUPPRESS)
    return p


def main(argv=None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.worker:
        os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
        return worker(args)
    os.makedirs(args.out, exist_ok=True)
    if not args.summary_only:
        rc = run_shard(args)
        if rc:
            return rc
    results = write_summaries(args.out, args.expected)
    if args.check and "kiln" in results:
        unexpected, fixed = check_expected(results["kiln"][1], sweep_expected(load_meta(args.out, "kiln"), args.expected))
        for r in unexpected:
            print(f"unexpected {r['cls']}: {sample_key(r['op'], r['dtype'], r['index'])}: {r.get('detail')}",
                  file=sys.stderr)
        for r in fixed:
            print(f"now passes ({r['cls']}), remove it from {args.expected}: "
                  f"{sample_key(r['op'], r['dtype'], r['index'])}", file=sys.stderr)
        return 1 if unexpected or fixed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
