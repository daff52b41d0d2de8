"""Session 54: each runtime convolution_as_matmul call of ResNet's quick training step, timed whole and in parts (the
window copy, the product), before conv_products replaced the runtime module (run at e33a087).
    PYTHONPATH=. python3 bench/results/s54/s54_conv_parts.py"""
import time, torch, kiln
import kiln.runtime.conv_as_matmul as cm
from kiln.tools.bench import _make_step
from kiln.tools.workloads import workload
calls = []
f0, b0 = cm.convolution_as_matmul, cm.convolution_backward_as_matmul
def f(*a):
    calls.append(("f", a)); return f0(*a)
def b(*a):
    calls.append(("b", a)); return b0(*a)
import kiln.lowering.externs as ex
ex.convolution_as_matmul = f; ex.convolution_backward_as_matmul = b
w = workload("resnet")
m, x = w.make_module("cpu", torch.float32, "quick", True), w.make_inputs("cpu", torch.float32, "quick")
step = _make_step(kiln.compile(m), x, True)
step(); calls.clear(); step()
def bench(fn, *a, n=300):
    for _ in range(20): fn(*a)
    t = time.perf_counter()
    for _ in range(n): fn(*a)
    return (time.perf_counter() - t) / n * 1e6
torch.profiler
for kind, a in calls:
    if kind == "f":
        xx, wt, bias, st, pd, dl = a
        tot = bench(f0, *a)
        wins, hw = cm._windows(cm._nhwc(xx), wt.shape[2:], st, dl, cm._both_sides(pd))
        tw = bench(lambda: cm._windows(cm._nhwc(xx), wt.shape[2:], st, dl, cm._both_sides(pd)))
        mat = cm._weight_rows(wt).t()
        tm = bench(lambda: torch.mm(wins, mat))
        print(f"fwd x{tuple(xx.shape)} w{tuple(wt.shape)} s{st} p{pd}: total {tot:.1f} us, windows {tw:.1f}, mm {tm:.1f}  win {tuple(wins.shape)}")
    else:
        g, xx, wt, st, pd, dl, mask = a
        tot = bench(b0, *a)
        print(f"bwd g{tuple(g.shape)} x{tuple(xx.shape)} w{tuple(wt.shape)} s{st} p{pd} mask{mask}: total {tot:.1f} us")
