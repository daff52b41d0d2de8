"""Column sums on the GPU (session 48): kiln's split of interleaved rows (reductions.SPLITS[("cuda", True)]: the
rows wanted in all, hence the programs) against Inductor, for a bias gradient summed in its producer's kernel
(gelu_backward feeding a product and a column sum, Swin's MLP shapes) and for a plain column sum (a bias gradient
of an extern's output). Every variant is checked against eager.
    PYTHONPATH=. python3 s48_column_sums.py OUT.json
"""
import json, sys, torch, torch._dynamo
import kiln
from kiln.lowering import reductions

def bench(fn, *args, reps=20):
    for _ in range(3): fn(*args)
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(5):
        s.record()
        for _ in range(reps): fn(*args)
        e.record(); torch.cuda.synchronize(); times.append(s.elapsed_time(e) / reps * 1e3)
    return min(times)

def gelu_grad_sums(x, g, w):
    y = torch.ops.aten.gelu_backward(g, x)
    return y @ w, y.sum(0)

def product_sums(a, w):
    y = a @ w
    return y, y.sum(0)

CASES = [("gelu_bwd_sum", gelu_grad_sums, [(100352, 384), (100352, 384), (384, 96)]),
         ("gelu_bwd_sum", gelu_grad_sums, [(25088, 768), (25088, 768), (768, 192)]),
         ("gelu_bwd_sum", gelu_grad_sums, [(6272, 1536), (6272, 1536), (1536, 384)]),
         ("gelu_bwd_sum", gelu_grad_sums, [(4096, 3072), (4096, 3072), (3072, 768)]),
         ("mm_sum", product_sums, [(100352, 96), (96, 384)]),
         ("mm_sum", product_sums, [(4096, 768), (768, 768)]),
         ("mm_sum", product_sums, [(6304, 768), (768, 3072)])]
WANTS = (32768, 65536, 131072, 262144)
base = reductions.SPLITS[("cuda", True)]
rows = []
for name, fn, shapes in CASES:
  try:
    args = [torch.randn(s, device="cuda") for s in shapes]
    ref = fn(*[a.double() for a in args])
    r = {"case": name, "shapes": shapes, "eager_us": round(bench(fn, *args), 1)}
    torch._dynamo.reset()
    r["inductor_us"] = round(bench(torch.compile(fn), *args), 1)
    for want in WANTS:
        reductions.SPLITS[("cuda", True)] = (want,) + base[1:]
        torch._dynamo.reset()
        f = kiln.compile(fn, options={"graph_cache": False})
        out = f(*args)
        ok = all(torch.allclose(o.double(), rf, rtol=1e-3, atol=1e-3 * rf.abs().max().item()) for o, rf in zip(out, ref))
        r[f"kiln_{want}_us"] = round(bench(f, *args), 1)
        r[f"kiln_{want}_ok"] = ok
    reductions.SPLITS[("cuda", True)] = base
    print(json.dumps(r), flush=True)
    rows.append(r)
  except Exception as e:
    reductions.SPLITS[("cuda", True)] = base
    print("failed", name, shapes, type(e).__name__, e, flush=True)
json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, open(sys.argv[1], "w"), indent=1)
