"""Where a step's memory peaks: the blocks alive at the peak of one call, with the frame that allocated each."""
import copy, json, os, sys, tempfile
for var in ("KILN_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):
    os.environ[var] = tempfile.mkdtemp()
import torch, kiln
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload

name = sys.argv[1]; out = sys.argv[2]
w = workload(name)
module = w.make_module("cuda", torch.bfloat16, "gpu", False)
inputs = w.make_inputs("cuda", torch.bfloat16, "gpu")

def frame_of(frames):
    keep = [f for f in frames if not f["filename"].endswith(("torch/cuda/memory.py",)) and
            ("kiln" in f["filename"] or "transformers" in f["filename"] or "/tmp" in f["filename"] or "torch/_" in f["filename"])]
    return " < ".join(f"{os.path.basename(f['filename'])}:{f['line']} {f['name']}" for f in keep[:3])

def probe(step):
    step(); step(); torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats(); before = torch.cuda.memory_allocated()
    torch.cuda.memory._record_memory_history(max_entries=200000)
    step(); torch.cuda.synchronize()
    snap = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    peak = torch.cuda.max_memory_allocated() - before
    live, cur, best, best_live, order = {}, 0, -1, None, 0
    for ev in snap["device_traces"][0]:
        if ev["action"] == "alloc":
            order += 1; live[ev["addr"]] = (ev["size"], frame_of(ev.get("frames", [])), order); cur += ev["size"]
        elif ev["action"] == "free_requested" and ev["addr"] in live:
            cur -= live.pop(ev["addr"])[0]
        if cur > best:
            best, best_live = cur, dict(live)
    blocks = sorted(best_live.values(), key=lambda b: -b[0])
    return {"peak_mib": peak / 2**20, "traced_peak_mib": best / 2**20, "n_live": len(blocks),
            "live": [(round(s / 2**20, 3), o, f) for s, f, o in blocks[:40]]}

def safe(fn):
    try:
        return fn()
    except Exception as e:
        import traceback; traceback.print_exc(); return {"peak_mib": 0, "traced_peak_mib": 0, "n_live": 0, "live": [], "error": repr(e)}

res = {"eager": safe(lambda: probe(_make_step(copy.deepcopy(module), inputs, False, None)))}
res["kiln"] = safe(lambda: probe(_make_step(_compile(copy.deepcopy(module), "kiln"), inputs, False, None)))
json.dump(res, open(out, "w"), indent=1)
for k, r in res.items():
    print(k, r["peak_mib"], r["traced_peak_mib"], r["n_live"])
    for b in r["live"][:25]: print("   ", b)
