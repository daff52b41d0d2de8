# session 35: cProfile of kiln's compile of a training step (cold or warm by the cache dirs given), with the kernel
# build threads run inline so that the profile sees them. usage: s35_prof.py MODEL OUT.prof [--train]
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
import torch
from kiln.tools.bench import _compile, _make_step
from kiln.tools.workloads import workload
model, out, train = sys.argv[1], sys.argv[2], "--train" in sys.argv
tiny = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU()).cuda()
_compile(tiny, "kiln")(torch.ones(2, 3, device="cuda"))
torch._dynamo.reset()
w = workload(model)
dtype = torch.float32 if train else torch.bfloat16
module, inputs = w.make_module("cuda", dtype, "gpu", train), w.make_inputs("cuda", dtype, "gpu")
step = _make_step(_compile(module, "kiln"), inputs, train)
torch.cuda.synchronize()
pr = cProfile.Profile()
t = time.perf_counter()
pr.enable(); step(); torch.cuda.synchronize(); pr.disable()
print(model, "first step", time.perf_counter() - t)
pr.dump_stats(out)
st = pstats.Stats(out); st.sort_stats("cumulative").print_stats(60)
st.sort_stats("tottime").print_stats(40)
