"""Issue 19: what kiln's reduce-overhead holds between calls, and what is alive at each variant's life peak.

Runs scripts/gpu_modes.py's sequence for one model at one batch (bf16 inference: a variant's compile call, an
accuracy call, one more call; the life measured from before the compile, parameters excluded) with the CUDA
allocator's history recorded over the whole life, C++ frames included (a cuBLAS workspace is made in C++). For
each variant: the life peak read by the allocator and by the events, the blocks alive at the events' peak and at
the end (held), grouped by where they were allocated (the innermost frame outside torch's Python, and whether a
C++ frame names cuBLAS).
Usage: s59_ro_memory_probe.py OUT.json MODEL BATCH [variants: eager,kiln,kiln_ro,inductor,inductor_ro]"""
import copy
import dataclasses
import gc
import json
import sys
from collections import defaultdict

import torch

sys.path.insert(0, "scripts")
from gpu_modes import compiled  # noqa: E402  (sets fresh cache directories)

from kiln.tools.bench import _compile_time, _make_step, _own_recompile_budget  # noqa: E402
from kiln.tools.workloads import workload  # noqa: E402

MIB = 2 ** 20


def where(frames):
    cublas = any("cublas" in (f.get("name", "") + f.get("filename", "")).lower() for f in frames)
    py = "?"
    for f in frames:
        name = f.get("filename", "")
        if not name.endswith(".py") or "/torch/" in name and "/_dynamo/" not in name:
            continue
        py = f"{name.split('/')[-1]}:{f.get('line')} {f.get('name')}"
        break
    cpp = next((f.get("name", "")[:90] for f in frames if not f.get("filename", "").endswith(".py")
                and "c10" not in f.get("name", "") and "alloc" not in f.get("name", "").lower()), "")
    return f"{'[cuBLAS] ' if cublas else ''}{py} | {cpp}"


def life(step_factory):
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    torch.cuda.memory._record_memory_history(max_entries=400000, stacks="all")
    step = step_factory()
    _compile_time(step, "cuda")
    step()
    step()
    torch.cuda.synchronize()
    snapshot = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    peak, held = torch.cuda.max_memory_allocated() - base, torch.cuda.memory_allocated() - base
    events = [e for trace in snapshot["device_traces"] for e in trace if e["action"] in ("alloc", "free_completed")]
    live, net, best, best_live = {}, 0, -1, {}
    for e in events:
        if e["action"] == "alloc":
            live[e["addr"]] = (e["size"], where(e.get("frames", [])))
            net += e["size"]
        else:
            net -= e["size"]
            live.pop(e["addr"], None)
        if net > best:
            best, best_live = net, dict(live)

    def grouped(blocks):
        groups = defaultdict(lambda: [0, 0])
        for size, w in blocks.values():
            groups[w][0] += size
            groups[w][1] += 1
        return [{"where": w, "mib": round(s / MIB, 2), "blocks": n}
                for w, (s, n) in sorted(groups.items(), key=lambda kv: -kv[1][0])[:14]]
    pools = [{"segment_mib": round(s["total_size"] / MIB, 1), "allocated_mib": round(s["allocated_size"] / MIB, 2),
              "pool": str(s.get("segment_pool_id")), "stream": s.get("stream")} for s in snapshot["segments"]]
    return step, {"peak_mib": peak / MIB, "held_mib": held / MIB, "events_peak_mib": best / MIB,
                  "at_peak": grouped(best_live), "held": grouped(live), "segments": pools}


def main():
    out, name, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
    variants = (sys.argv[4] if len(sys.argv) > 4 else "eager,kiln,kiln_ro,inductor,inductor_ro").split(",")
    w = workload(name)
    w = dataclasses.replace(w, sizes={**w.sizes, "small_batch": dict(w.sizes["gpu"], batch=batch)})
    module = w.make_module("cuda", torch.bfloat16, "small_batch")
    inputs = w.make_inputs("cuda", torch.bfloat16, "small_batch")
    modes = {"eager": ("eager", None), "kiln": ("kiln", None), "kiln_ro": ("kiln", "reduce-overhead"),
             "inductor": ("inductor", None), "inductor_ro": ("inductor", "reduce-overhead")}
    result = {"model": name, "batch": batch, "torch": torch.__version__, "device": torch.cuda.get_device_name()}
    keep = []
    for v in variants:
        torch._dynamo.reset()
        _own_recompile_budget(0)
        own = copy.deepcopy(module)
        backend, mode = modes[v]
        step, result[v] = life(lambda: _make_step(compiled(own, backend, mode), inputs, False))
        keep.append(step)   # (as gpu_modes: every variant's step lives on, to be timed)
        r = result[v]
        print(v, f"peak {r['peak_mib']:.1f} events {r['events_peak_mib']:.1f} held {r['held_mib']:.1f}", flush=True)
        for g in r["at_peak"][:8]:
            print("   peak", g, flush=True)
        for g in r["held"][:6]:
            print("   held", g, flush=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
