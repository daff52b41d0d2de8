"""Random as_strided reads around a view (slices, a transpose, a step) of a computed value (a product, sin, a
matmul), static or dynamic, against eager: `PYTHONPATH=. python3 bench/results/s97/as_strided_around_random.py SEED N`.
Prints each wrong or raising case and, at the end, how many graphs ran eagerly (bench/NOTES.md 127)."""
import random, torch, kiln, sys
torch._dynamo.config.cache_size_limit = 1000
rng = random.Random(int(sys.argv[1]))
bad = 0; fell = 0; n = int(sys.argv[2])
import logging
class H(logging.Handler):
    def emit(self, r):
        global fell
        if "lowering failed" in r.getMessage(): fell += 1
logging.getLogger("kiln").addHandler(H())
for case in range(n):
    rows, cols = rng.randint(2, 6), rng.randint(2, 6)
    views = []
    for _ in range(rng.randint(1, 3)):
        views.append(rng.choice(["t", "slice0", "slice1", "step1", "cl"]))
    numel = rows * cols
    size = [rng.randint(1, 3), rng.randint(1, 3)]
    stride = [rng.randint(0, cols), rng.randint(0, 2)]
    reach = (size[0] - 1) * stride[0] + (size[1] - 1) * stride[1]
    if reach >= numel: continue
    off = rng.randint(0, numel - 1 - reach)
    op = rng.choice(["mul", "sin", "mm"])
    def f(w, m, views=views, size=size, stride=stride, off=off, op=op):
        y = (w * 2 if op == "mul" else w.sin() if op == "sin" else w @ m)
        extra = y.sum()
        for v in views:
            if v == "t": y = y.t()
            elif v == "slice0" and y.shape[0] > 1: y = y[1:]
            elif v == "slice1" and y.shape[1] > 1: y = y[:, 1:]
            elif v == "step1": y = y[:, ::2]
        return y.as_strided(size, stride, off) * 1.5, extra
    w, m = torch.randn(rows, cols), torch.eye(cols) + torch.randn(cols, cols) * 0.1
    dyn = rng.random() < 0.3
    torch._dynamo.reset()
    try:
        got = kiln.compile(f, dynamic=dyn)(w, m)
        ref = f(w, m)
        err = max((a - b).abs().max().item() for a, b in zip(got, ref))
        live = lambda t: [st for n, st in zip(t.shape, t.stride()) if n > 1]
        if err > 1e-4 or live(got[0]) != live(ref[0]):
            bad += 1; print("BAD", case, views, size, stride, off, op, dyn, err)
    except Exception as e:
        bad += 1; print("RAISED", case, views, size, stride, off, op, dyn, type(e).__name__, str(e)[:200])
print("done", n, "bad", bad, "graphs run eagerly", fell)
