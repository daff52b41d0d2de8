"""Where a training step's peak memory goes on the GPU, eager against kiln (issue 16: BART's fp32 training step
peaks above eager's). For each backend, one step recorded by torch.cuda.memory._record_memory_history after two
warm-up steps: the peak of allocated bytes over the step, when it happens (the fraction of the step's allocation
events before it), and the blocks alive then, grouped by the innermost frame of their allocation that is not in
torch itself (a line of the model's code, or of kiln's generated wrapper). Usage: s57_memory_peak.py OUT.json MODEL"""
import copy
import json
import sys
from collections import defaultdict

import torch

from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload


def frame_of(frames):
    for f in frames:
        name = f.get("filename", "")
        if "/torch/" in name and "/_dynamo/" not in name or name.startswith("<frozen"):
            continue
        return f"{name.split('/')[-1]}:{f.get('line')} {f.get('name')}"
    return "?"


def peak_of(step):
    step()
    step()
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.memory._record_memory_history(max_entries=500000, stacks="python")
    step()
    torch.cuda.synchronize()
    snapshot = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    events = [e for trace in snapshot["device_traces"] for e in trace if e["action"] in ("alloc", "free_completed")]
    live, total, best, best_at, best_live = {}, 0, -1, 0, {}
    for i, e in enumerate(events):
        if e["action"] == "alloc":
            live[e["addr"]] = (e["size"], frame_of(e.get("frames", [])))
            total += e["size"]
        elif e["addr"] in live:
            total -= live.pop(e["addr"])[0]
        if total > best:
            best, best_at, best_live = total, i, dict(live)
    groups = defaultdict(lambda: [0, 0])
    for size, where in best_live.values():
        groups[where][0] += size
        groups[where][1] += 1
    top = sorted(groups.items(), key=lambda kv: -kv[1][0])[:40]
    return {"base_mib": base / 2 ** 20, "peak_above_base_mib": best / 2 ** 20, "at": best_at / max(1, len(events)),
            "events": len(events),
            "live_at_peak": [{"where": w, "mib": round(s / 2 ** 20, 2), "blocks": n} for w, (s, n) in top]}


def main():
    out, name = sys.argv[1], sys.argv[2]
    w = workload(name)
    module = w.make_module("cuda", torch.float32, "gpu", True)
    inputs = w.make_inputs("cuda", torch.float32, "gpu")
    result = {"model": name, "device": torch.cuda.get_device_name(), "torch": torch.__version__}
    for backend in ("eager", "kiln"):
        torch._dynamo.reset()
        step = _make_step(_compile(copy.deepcopy(module), backend), inputs, True)
        result[backend] = peak_of(step)
        print(backend, json.dumps({k: v for k, v in result[backend].items() if k != "live_at_peak"}), flush=True)
        del step
        torch.cuda.empty_cache()
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
