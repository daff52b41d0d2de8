"""Session 83: where the first call of one suite model goes, sampled (issue 23). cProfile under Python 3.12 loses
the frames that Dynamo's frame hook runs (kiln's backend showed no callers on the GPU host), so a thread samples
the main thread's stack every 2-5 ms instead, each sample weighted by the time since the last. Same process as scripts/gpu_compile_time.py's child: fresh cache dirs
(set by the caller), a tiny module compiled first (with and without grad), then the model's first call sampled.
Writes OUT.json: per stage (the innermost marker frame of each sample), inclusive samples of the hottest functions,
and the folded stacks (OUT.folded, for a flame graph).
PYTHONPATH=. python3 bench/results/s83/sample_gpu_compile.py MODEL BACKEND OUT [--train] [--cpu]"""
import collections
import gc
import json
import sys
import threading
import time

import torch

import kiln
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload

model, backend, out = sys.argv[1:4]
train = "--train" in sys.argv
device = "cpu" if "--cpu" in sys.argv else "cuda"
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).to(device)
_compile(tiny, backend)(torch.ones(2, 3, device=device))
torch._dynamo.reset()
with torch.no_grad():
    _compile(tiny, backend)(torch.ones(2, 3, device=device))
torch._dynamo.reset()
dtype = torch.float32 if train or device == "cpu" else torch.bfloat16
w = workload(model)
size = "gpu" if device == "cuda" else "quick"
module, inputs = w.make_module(device, dtype, size, train), w.make_inputs(device, dtype, size)
_make_step(module, inputs, train)()
kiln.reset_stats()
step = _make_step(_compile(module, backend), inputs, train)
slow_nodes = []   # lowering's nodes that took over 10 ms: (seconds, op, node)
from kiln.lowering.graph import GraphLowering  # noqa: E402
run_node = GraphLowering.run_node


def timed_run_node(self, node):
    started = time.perf_counter()
    try:
        return run_node(self, node)
    finally:
        if time.perf_counter() - started > 0.01:
            slow_nodes.append((round(time.perf_counter() - started, 3), str(node.target), node.name))


GraphLowering.run_node = timed_run_node

# (marker, stage): a sample's stage is that of the innermost marker on its stack
MARKERS = [("convert_frame.py:_compile_inner", "dynamo"), ("aot_autograd.py:aot_module_simplified", "aot_trace"),
           ("kiln/decompositions.py:", "aot_trace:kiln_decompositions"),
           ("kiln/capture.py:eager_output_strides", "kiln:eager_output_strides"),
           ("kiln/capture.py:trace_before_decomposition", "kiln:trace_before_decomposition"),
           ("kiln/capture.py:compile_graph", "kiln:compile_graph_other"),
           ("kiln/lowering/graph.py:run", "kiln:lowering"), ("kiln/scheduler.py:schedule", "kiln:scheduling"),
           ("kiln/codegen/", "kiln:codegen"), ("kiln/runtime/module.py:load", "kiln:load"),
           ("kiln/runtime/graph_cache.py", "kiln:cache"), ("kiln/runtime/warm_start.py", "kiln:warm_start"),
           ("_dynamo/guards.py", "dynamo:guards"), ("kiln/runtime/build_pool.py:join", "kiln:waiting_for_builds"),
           ("kiln/runtime/wrapper.py:extern", "run:extern"), ("triton/runtime/jit.py", "triton_jit"),
           ("kiln/runtime/triton_launch.py", "kiln:triton_launch")]
main = threading.main_thread().ident
stacks = collections.Counter()
# samples more than 20 ms after the last: (seconds, the last sample's innermost frames, this one's, the other
# threads' innermost frames then)
gaps = []
running = True


def tail(frame, n=4):
    names = []
    while frame is not None and len(names) < n:
        names.append(f"{frame.f_code.co_filename.split('site-packages/')[-1]}:{frame.f_code.co_name}")
        frame = frame.f_back
    return names


def sampler():
    last, previous = time.perf_counter(), ()
    while running:
        now = time.perf_counter()
        frames = sys._current_frames()
        frame = frames.get(main)
        names = []
        while frame is not None:
            code = frame.f_code
            names.append(f"{code.co_filename.split('site-packages/')[-1].replace('/work/main/', '')}:{code.co_name}")
            frame = frame.f_back
        # weighted by the time since the last sample: where the main thread holds the GIL, this thread samples
        # once a switch interval (5 ms); where it waits outside the GIL (a subprocess, a lock), every 2 ms
        stack = tuple(reversed(names))
        stacks[stack] += now - last
        if now - last > 0.02:
            others = {t.name: tail(frames.get(t.ident)) for t in threading.enumerate()
                      if t.ident not in (main, threading.get_ident())}
            gaps.append((round(now - last, 3), previous[-6:], stack[-6:], others))
        last, previous = now, stack
        time.sleep(0.002)


pauses = []   # the garbage collector's passes in the call: (generation, seconds, objects collected)
gc_started = {}


def on_gc(phase, info):
    if phase == "start":
        gc_started["t"] = time.perf_counter()
    elif "t" in gc_started:
        pauses.append((info["generation"], time.perf_counter() - gc_started.pop("t"), info["collected"]))


gc.collect()
gc.callbacks.append(on_gc)
thread = threading.Thread(target=sampler, daemon=True)
thread.start()
start = time.perf_counter()
step()
if device == "cuda":
    torch.cuda.synchronize()
first = time.perf_counter() - start
running = False
gc.callbacks.remove(on_gc)
thread.join()
total = sum(stacks.values())
stage, inclusive, lowering = collections.Counter(), collections.Counter(), collections.Counter()
for names, n in stacks.items():
    if any("kiln/lowering/graph.py:run" in name for name in names):   # lowering's own breakdown
        for name in set(names):
            lowering[name] += n
    where = "outside"
    for name in names:
        for marker, s in MARKERS:
            if marker in name:
                where = s
    stage[where] += n
    for name in set(names):
        inclusive[name] += n
with open(out + ".folded", "w") as f:
    for names, n in stacks.most_common():
        f.write(";".join(names) + f" {round(n * 1000)}\n")
result = {"model": model, "backend": backend, "train": train, "first_s": first, "samples": total,
          "stage_s": {k: round(first * v / total, 3) for k, v in stage.most_common()},
          "inclusive_s": {k: round(first * v / total, 3) for k, v in inclusive.most_common(300)},
          "lowering_inclusive_s": {k: round(first * v / total, 3) for k, v in lowering.most_common(200)},
          "gc": {f"gen{g}": [sum(1 for p in pauses if p[0] == g), round(sum(p[1] for p in pauses if p[0] == g), 3),
                             round(max([p[1] for p in pauses if p[0] == g] or [0]), 3)] for g in range(3)},
          "gaps": sorted(gaps, reverse=True)[:40], "slow_nodes": slow_nodes, "stats": kiln.stats() if backend == "kiln" else None}
with open(out + ".json", "w") as f:
    json.dump(result, f, indent=1)
print(json.dumps({k: result[k] for k in ("model", "backend", "first_s", "gc", "stage_s", "slow_nodes")}))
