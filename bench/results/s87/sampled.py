"""A wall-clock sampling profile of one gpu_compile_time.py child (session 87, issue 23): a thread reads the main
thread's stack every ~2 ms (sys._current_frames) and weighs each sample by the time since the last, so a long call
that holds the GIL is counted in full (cProfile's times under Dynamo's frame evaluation were nonsense: 108 s
"total" for a 46 s process, 31 s inside a guard's id check). Writes OUT.json: the seconds each function was on the
main thread's stack (inclusive, once a sample), the seconds of each stack's innermost frame (self), and collapsed
stacks (outermost first, ";"-joined, a flame graph's input) of every thread but the build threads while the first
compiled call (bench._compile_time) runs: the autograd engine runs a CUDA backward on a thread of its own. And where
the main thread stalls: each of the collector's passes (gc.callbacks: generation, seconds, thread), and each gap of
over 20 ms between samples (the sampler could not run: a thread held the GIL, or a pass ran) with the innermost
frames of every thread just after it. Each stack is weighed twice: by the wall time since the last sample, and
by its thread's own CPU time since then (time.pthread_getcpuclockid): a sampler starved of the GIL puts a long gap's
wall time on the one stack it reads after it, where the CPU weights count only what the thread ran.
    PYTHONPATH=. python3 bench/results/s87/sampled.py OUT.json -- --child --model M --backend B --device cuda --train
"""
import collections
import gc
import json
import sys
import threading
import time

sys.path.insert(0, "scripts")
import gpu_compile_time  # noqa: E402

out = sys.argv[1]
main_id = threading.get_ident()
inclusive, innermost, total = collections.Counter(), collections.Counter(), [0.0]
collapsed = collections.Counter()   # (thread name, stack) -> seconds, while _compile_time is on the main stack
collapsed_cpu = collections.Counter()   # the same, by the thread's CPU seconds
cpu_seen = {}   # thread ident -> its CPU clock at the last sample


def cpu_delta(ident):
    try:
        now = time.clock_gettime(time.pthread_getcpuclockid(ident))
    except (OSError, AttributeError):
        return 0.0
    last, cpu_seen[ident] = cpu_seen.get(ident, now), now
    return now - last
passes, gaps, began = [], [], time.perf_counter()
gc_started = {}


def on_gc(phase, info):
    now, name = time.perf_counter(), threading.current_thread().name
    if phase == "start":
        gc_started[name] = now
    elif name in gc_started:
        started = gc_started.pop(name)
        if now - started > 0.005 or info["generation"] == 2:
            passes.append([round(started - began, 4), round(now - started, 4), info["generation"], info["collected"],
                           name])


gc.callbacks.append(on_gc)
stop = threading.Event()


def where(code):
    f = code.co_filename
    for cut in ("site-packages/", "/work/main/", "/usr/lib/python3.12/"):
        if cut in f:
            f = f.split(cut, 1)[1]
    return f"{f}:{code.co_firstlineno}({code.co_name})"


def sample():
    last = time.perf_counter()
    while not stop.is_set():
        time.sleep(0.002)
        now = time.perf_counter()
        dt, last = now - last, now
        frames = sys._current_frames()
        stacks = {}
        for ident, frame in frames.items():
            stack = []
            while frame is not None:
                stack.append(where(frame.f_code))
                frame = frame.f_back
            stacks[ident] = stack[::-1]
        main = stacks.get(main_id, [])
        if dt > 0.02:
            names = {t.ident: t.name for t in threading.enumerate()}
            gaps.append([round(now - dt - began, 4), round(dt, 4),
                         {names.get(i, "?"): st[-4:] for i, st in stacks.items() if i != threading.get_ident()}])
        for name in set(main):
            inclusive[name] += dt
        innermost[main[-1] if main else None] += dt
        total[0] += dt
        if any("(_compile_time)" in f for f in main):
            names = {t.ident: t.name for t in threading.enumerate()}
            for ident, stack in stacks.items():
                name = names.get(ident, "?")
                if ident != threading.get_ident() and stack:
                    key = (name if not name.startswith("kiln-build-") else "kiln-build", ";".join(stack[-40:]))
                    collapsed[key] += dt
                    collapsed_cpu[key] += cpu_delta(ident)


t = threading.Thread(target=sample, daemon=True)
t.start()
sys.argv = [sys.argv[0]] + sys.argv[sys.argv.index("--") + 1:]
try:
    gpu_compile_time.main()
finally:
    stop.set()
    t.join()
    with open(out, "w") as f:
        json.dump({"total_s": total[0], "inclusive": inclusive.most_common(400),
                   "innermost": innermost.most_common(150),
                   "collapsed": [[t, k, v, collapsed_cpu[(t, k)]] for (t, k), v in collapsed.items() if v >= 0.001],
                   "gc_passes": passes, "gaps": gaps}, f, indent=0)
