"""session 78: where a frozen CPU graph's steady-state call goes, kernel by kernel, kiln against Inductor, in one
process (quick size, float32, 2-core CPU). kiln: every launch and library call of the wrapper timed at every call
(trace_profile's hook, timing each call rather than the first); Inductor: torch.profiler with its C++ kernels
marked (config.cpp.enable_kernel_profile). Both after 20 warm-up calls, over CALLS calls (default 200); us a call.
    PYTHONPATH=.:$TIMMLIB python3 bench/results/s78/steady_kernels.py timm_convnext [unfrozen]
"""
import collections, copy, json, os, sys, time
import torch, kiln
import torch._inductor.config as icfg
from kiln.runtime import profile
from kiln.tools.workloads import workload

name, frozen = sys.argv[1], "unfrozen" not in sys.argv[2:]
calls = int(os.environ.get("CALLS", 200))
spent, counting = collections.Counter(), [False]


def timed_call(self, label, call):
    if not counting[0]:
        return call()
    t = time.perf_counter()
    result = call()
    spent[label] += time.perf_counter() - t
    return result


profile.KernelProfiler.__call__ = timed_call
w = workload(name)
m = w.make_module("cpu", torch.float32, "quick", False).eval(); x = w.make_inputs("cpu", torch.float32, "quick")
trace = f"/tmp/s78_steady_{name}"
fk = kiln.compile(copy.deepcopy(m), options={"freezing": frozen, "trace": trace, "trace_profile": True})
with torch.no_grad():
    fk(*x)   # compiled before Inductor's freezing flag is set: with it set, Dynamo hands parameters over as constants
    icfg.freezing, icfg.cpp.enable_kernel_profile = frozen, True
    fi = torch.compile(copy.deepcopy(m))
    fi(*x)
    icfg.freezing = False
    for _ in range(20):
        fk(*x); fi(*x)
    counting[0] = True
    t = time.perf_counter()
    for _ in range(calls): fk(*x)
    kiln_ms = (time.perf_counter() - t) / calls * 1e3
    counting[0] = False
    with torch.profiler.profile(record_shapes=True) as p:
        t = time.perf_counter()
        for _ in range(calls): fi(*x)
        ind_ms = (time.perf_counter() - t) / calls * 1e3
rows = {k["name"]: k for d in os.listdir(trace) if os.path.exists(f"{trace}/{d}/kernels.json")
        for k in json.load(open(f"{trace}/{d}/kernels.json"))}
groups = collections.Counter(); count = collections.Counter()
for label, s in spent.items():
    row = rows.get(label, {})
    key = "+".join(row.get("source_ops", [label]))[:60] if row.get("kind") == "kernel" else str(row.get("source_ops", [label])[0])[:60]
    groups[key] += s / calls * 1e6; count[key] += 1
print(f"== kiln {kiln_ms:.3f} ms a call (timed with its hooks); kernels and calls {sum(groups.values()):.0f} us")
for k, v in groups.most_common(): print(f"  {v:8.1f} us  x{count[k]:3d}  {k}")
print(f"== inductor {ind_ms:.3f} ms a call (under torch.profiler)")
for e in sorted(p.key_averages(), key=lambda e: -e.self_cpu_time_total)[:14]:
    print(f"  {e.self_cpu_time_total / calls:8.1f} us  x{e.count // calls:3d}  {e.key[:70]}")
if "--shapes" in sys.argv:
    print("== kiln's library calls, one by one: us a call, MFLOP")
    for label, s in sorted(spent.items(), key=lambda kv: int(''.join(c for c in kv[0] if c.isdigit()) or 0)):
        row = rows.get(label, {})
        if row.get("kind") == "extern":
            print(f"  {s / calls * 1e6:7.1f} us {(row.get('flops') or 0) / 1e6:6.1f} MF  {label} {str(row.get('source_ops'))[:50]}")
    print("== Inductor's oneDNN calls by input shapes")
    for e in p.key_averages(group_by_input_shape=True):
        if "mkldnn" in e.key or "mkl" in e.key:
            print(f"  {e.self_cpu_time_total / e.count:7.1f} us x{e.count // calls:2d} {e.key} {str(e.input_shapes)[:90]}")
