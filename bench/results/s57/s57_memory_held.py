"""What kiln's BART fp32 training step holds between steps (issue 16; s57_memory_peak.py found kiln's allocated
memory between steps 948 MiB above eager's). CUDA memory history from before the first (compiling) step through
two steps; the blocks still allocated after them, grouped by the three innermost frames of their allocation that
are not in torch itself. Usage: s57_memory_held.py OUT.json MODEL"""
import json
import sys
from collections import defaultdict

import torch

from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload


def frames_of(frames):
    kept = []
    for f in frames:
        name = f.get("filename", "")
        if "/torch/" in name and "/_dynamo/" not in name and "/_functorch/" not in name or name.startswith("<frozen"):
            continue
        kept.append(f"{name.split('/')[-1]}:{f.get('line')} {f.get('name')}")
        if len(kept) == 4:
            break
    return " < ".join(kept) or "?"


def main():
    out, name = sys.argv[1], sys.argv[2]
    w = workload(name)
    module = w.make_module("cuda", torch.float32, "gpu", True)
    inputs = w.make_inputs("cuda", torch.float32, "gpu")
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    torch.cuda.memory._record_memory_history(max_entries=2000000, stacks="python")
    step = _make_step(_compile(module, "kiln"), inputs, True)
    step()
    step()
    torch.cuda.synchronize()
    snapshot = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    after = torch.cuda.memory_allocated()
    live = {}
    for trace in snapshot["device_traces"]:
        for e in trace:
            if e["action"] == "alloc":
                live[e["addr"]] = (e["size"], frames_of(e.get("frames", [])))
            elif e["action"] == "free_completed":
                live.pop(e["addr"], None)
    groups = defaultdict(lambda: [0, 0])
    for size, where in live.values():
        groups[where][0] += size
        groups[where][1] += 1
    top = sorted(groups.items(), key=lambda kv: -kv[1][0])[:40]
    result = {"model": name, "before_mib": before / 2 ** 20, "after_mib": after / 2 ** 20,
              "held": [{"where": w, "mib": round(s / 2 ** 20, 2), "blocks": n} for w, (s, n) in top]}
    for row in result["held"][:15]:
        print(json.dumps(row), flush=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
