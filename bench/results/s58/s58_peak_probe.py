"""BART's fp32 training peak as scripts/gpu_models.py measures it (issue 16), with what is alive at it.

gpu_models.py reads eager's peak on its first call and a compiler's after its compile call and three steady calls
(kiln.tools.bench._compile_time under accuracy.exact_float32, then bench._peak_memory). This runs the same
sequence per backend and records the measured call's CUDA allocator events: the net rise over the call (every
allocation less every free, blocks allocated before the call included), when it peaks, and the blocks the call
allocated that are alive then, grouped by the innermost frame outside torch (a model line or a kiln wrapper line).
Usage: s58_peak_probe.py OUT.json MODEL [backends] [--no-reset: Dynamo not reset between backends, as in
gpu_models.py]"""
import copy
import json
import sys
from collections import defaultdict

import torch

from kiln.tools import accuracy
from kiln.tools.bench import _compile, _compile_time, _make_step
from kiln.tools.workloads import workload


def frame_of(frames):
    for f in frames:
        name = f.get("filename", "")
        if "/torch/" in name and "/_dynamo/" not in name or name.startswith("<frozen"):
            continue
        return f"{name.split('/')[-1]}:{f.get('line')} {f.get('name')}"
    return "?"


def measured(step):
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    torch.cuda.memory._record_memory_history(max_entries=500000, stacks="python")
    step()
    torch.cuda.synchronize()
    snapshot = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    allocator_peak = torch.cuda.max_memory_allocated() - before
    events = [e for trace in snapshot["device_traces"] for e in trace if e["action"] in ("alloc", "free_completed")]
    live, net, best, best_at, best_live, freed_old = {}, 0, -1, 0, {}, 0
    for i, e in enumerate(events):
        if e["action"] == "alloc":
            live[e["addr"]] = (e["size"], frame_of(e.get("frames", [])))
            net += e["size"]
        else:
            net -= e["size"]
            if live.pop(e["addr"], None) is None:
                freed_old += e["size"]
        if net > best:
            best, best_at, best_live, best_freed_old = net, i, dict(live), freed_old
    groups = defaultdict(lambda: [0, 0])
    for size, where in best_live.values():
        groups[where][0] += size
        groups[where][1] += 1
    top = sorted(groups.items(), key=lambda kv: -kv[1][0])[:30]
    mib = 2 ** 20
    return {"before_mib": before / mib, "allocator_peak_above_before_mib": allocator_peak / mib,
            "events_net_peak_mib": best / mib, "at": best_at / max(1, len(events)), "events": len(events),
            "freed_from_before_by_peak_mib": best_freed_old / mib,
            "live_at_peak": [{"where": w, "mib": round(s / mib, 2), "blocks": n} for w, (s, n) in top]}


def main():
    out, name = sys.argv[1], sys.argv[2]
    backends = (sys.argv[3] if len(sys.argv) > 3 else "eager,kiln").split(",")
    reset = "--no-reset" not in sys.argv
    w = workload(name)
    module = w.make_module("cuda", torch.float32, "gpu", True)
    inputs = w.make_inputs("cuda", torch.float32, "gpu")
    result = {"model": name, "device": torch.cuda.get_device_name(), "torch": torch.__version__}
    for backend in backends:
        if reset:
            torch._dynamo.reset()
        step = _make_step(_compile(copy.deepcopy(module), backend), inputs, True)
        if backend != "eager":
            with accuracy.exact_float32():
                kept, _ = _compile_time(step, "cuda")   # (gpu_models keeps the first call's result, cloned)
        result[backend] = measured(step)
        print(backend, json.dumps({k: v for k, v in result[backend].items() if k != "live_at_peak"}), flush=True)
        for g in result[backend]["live_at_peak"][:12]:
            print("   ", g, flush=True)
        del step
        kept = None
        torch.cuda.empty_cache()
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
