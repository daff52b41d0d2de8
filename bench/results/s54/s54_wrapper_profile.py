"""Session 54: cProfile of 200 quick CPU training steps of Mistral through kiln (where the wrappers' Python goes).
    PYTHONPATH=. python3 bench/results/s54/s54_wrapper_profile.py"""
import cProfile, pstats, torch, kiln, io
from kiln.tools.bench import _make_step
from kiln.tools.workloads import workload
w = workload("mistral")
m, x = w.make_module("cpu", torch.float32, "quick", True), w.make_inputs("cpu", torch.float32, "quick")
step = _make_step(kiln.compile(m), x, True)
for _ in range(20): step()
pr = cProfile.Profile(); pr.enable()
for _ in range(200): step()
pr.disable()
s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(28); print(s.getvalue()[:6000])
