"""Issue 19's 50-tiny-op graph (scripts/gpu_modes.py's tiny_ops, 64x64 fp32): kiln's reduce-overhead replay with the
warps of its small kernels (at most 4096 elements a program) set to 1, 2, 4 or 8, against kiln's default mode and
Inductor's reduce-overhead, in alternating rounds in one process; and each variant's kernels' GPU times in a
replay (torch.profiler). Usage: s56_tiny_warps.py OUT.json"""
import json
import sys

import torch

import kiln
from kiln.codegen.triton_tiles import Tiles
from kiln.tools.bench import _interleaved_times
sys.path.insert(0, "scripts")
from gpu_modes import tiny_ops  # noqa: E402

HEURISTIC = Tiles.config
WARPS = None


def config(self):
    xblock, rblock, persistent, warps = HEURISTIC(self)
    if WARPS is not None and xblock * rblock <= 4096:
        warps = WARPS
    return xblock, rblock, persistent, warps


Tiles.config = config


def main(out):
    global WARPS
    x = torch.randn(64, 64, device="cuda")
    steps, fns = {}, {}
    variants = [("eager", None, None), ("kiln", None, None), ("inductor_ro", "inductor", None)] + \
        [(f"kiln_ro_w{w or 'h'}", "reduce-overhead", w) for w in (None, 1, 2, 4, 8)]
    for name, mode, warps in variants:
        torch._dynamo.reset()
        WARPS = warps
        if name == "eager":
            fn = tiny_ops
        elif name == "inductor_ro":
            fn = torch.compile(tiny_ops, mode="reduce-overhead", dynamic=False)
        else:
            fn = kiln.compile(tiny_ops, mode=mode, dynamic=False, options={"graph_cache": False})
        for _ in range(3):
            y = fn(x)
        torch.testing.assert_close(y, tiny_ops(x), rtol=1e-4, atol=1e-4)
        fns[name] = fn
        steps[name] = (lambda fn: lambda: fn(x))(fn)
    WARPS = None
    times = _interleaved_times(steps, "cuda")
    row = {name: t["median_ms"] * 1e3 for name, t in times.items()}
    for name in list(row):
        if name.startswith("kiln_ro"):
            row[name + "_over_kiln"] = row[name] / row["kiln"]
    kernels = {}
    for name, fn in fns.items():
        if not name.startswith("kiln_ro"):
            continue
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                fn(x)
            torch.cuda.synchronize()
        events = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        kernels[name] = {"kernels_per_call": len(events) / 20,
                         "gpu_us_per_call": sum(e.device_time for e in events) / 20}
    result = {"us_per_call": row, "replay_kernels": kernels}
    print(json.dumps(result, indent=1))
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
