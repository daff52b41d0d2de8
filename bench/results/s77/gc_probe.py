# session 77 (issue 23): the child of scripts/gpu_compile_time.py with the collector's passes over the timed first
# call recorded (start offsets and durations of the full ones), or, with GC_OFF=1, the collector off during that call
import sys, json, runpy, time, gc, os
sys.argv = ["gpu_compile_time.py", "--child", "--model", sys.argv[1], "--backend", sys.argv[2], "--device", "cpu"]
out = os.environ["PROBE_OUT"]
import kiln.tools.bench as b
orig = b._compile_time
gcs, t0 = [], [0.0]
def cb(phase, info):
    if phase == "start":
        gcs.append([info["generation"], time.perf_counter() - t0[0], time.perf_counter()])
    else:
        gcs[-1][2] = time.perf_counter() - gcs[-1][2]
def wrapped(step, device):
    calls = []
    def timed():
        calls.append(1)
        if len(calls) > 1:
            return step()
        gc.callbacks.append(cb)
        if os.environ.get("GC_OFF"):
            gc.disable()
        t0[0] = time.perf_counter()
        try:
            return step()
        finally:
            gc.enable()
            gc.callbacks.remove(cb)
    r = orig(timed, device)
    with open(out, "w") as f:
        json.dump({"seconds": r[1], "full": [(round(s, 2), round(d, 2)) for g, s, d in gcs if g == 2],
                   "gc_s": sum(d for _, _, d in gcs), "passes": [sum(1 for x in gcs if x[0] == k) for k in range(3)]}, f)
    return r
b._compile_time = wrapped
runpy.run_path("scripts/gpu_compile_time.py", run_name="__main__")
