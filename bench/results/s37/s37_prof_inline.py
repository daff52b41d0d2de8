# session 37: cProfile of kiln's cold compile of a training step with every build thread run inline in the main
# thread (workers still build), so that the profile attributes all Python time. usage: MODEL OUT.prof [--train]
import concurrent.futures, cProfile, pstats, sys, time
import kiln.runtime.triton_launch as tl
class Inline(concurrent.futures.Executor):
    def submit(self, fn, *a, **k):
        f = concurrent.futures.Future()
        try:
            f.set_result(fn(*a, **k))
        except BaseException as e:
            f.set_exception(e)
        return f
tl.compile_pool = lambda: Inline()
tl.background_thread = lambda: Inline()
import torch
exec(open(".devrun/s37_prof.py").read().split("import torch\n", 1)[1])
