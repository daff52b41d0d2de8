# session 37: cProfile (main thread) of kiln's cold compile of a training step; the kernels build in the
# background as they would. usage: s37_prof.py MODEL OUT.prof [--train]
import cProfile, pstats, sys, time
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
import kiln
kiln.reset_stats()
pr = cProfile.Profile()
t = time.perf_counter()
pr.enable(); step(); torch.cuda.synchronize(); pr.disable()
print(model, "first step", time.perf_counter() - t, kiln.stats())
pr.dump_stats(out)
st = pstats.Stats(out); st.sort_stats("cumulative").print_stats(90)
st.sort_stats("tottime").print_stats(40)
