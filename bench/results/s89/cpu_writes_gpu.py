"""Issue 19 on a real GPU: a compiled GPU function that writes into CPU tensors it is given (a step count kept on
the CPU, and a GPU value copied into a CPU tensor), compiled by kiln in strict mode (a graph that would run
eagerly raises) and checked against eager over three calls: outputs, and the CPU tensors after each call.
    PYTHONPATH=. python3 bench/results/s89/cpu_writes_gpu.py OUT.json"""
import json
import sys

import torch

import kiln  # noqa: F401 (registers the backend)


def counted_steps(x, steps, seen):
    before = steps * 1
    steps.add_(1)
    seen.copy_(x.sum())
    return x * 2, before


rows = []
compiled = torch.compile(counted_steps, backend="kiln", options={"strict": True})
state = {"eager": (torch.zeros(()), torch.zeros(())), "kiln": (torch.zeros(()), torch.zeros(()))}
for call in range(3):
    x = torch.randn(64, 64, device="cuda")
    want = counted_steps(x, *state["eager"])
    got = compiled(x, *state["kiln"])
    rows.append({"call": call, "output_error": float((want[0] - got[0]).abs().max()),
                 "before": [float(want[1]), float(got[1]), str(got[1].device)],
                 "steps": [float(state["eager"][0]), float(state["kiln"][0]), str(state["kiln"][0].device)],
                 "seen_error": float((state["eager"][1] - state["kiln"][1]).abs()),
                 "graphs_fallback": kiln.stats().get("graphs_fallback", 0)})
    print(json.dumps(rows[-1]), flush=True)
json.dump(rows, open(sys.argv[1], "w"), indent=1)
