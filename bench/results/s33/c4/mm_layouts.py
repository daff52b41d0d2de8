# session 33: which cuBLAS kernel and time for the LM head's gradient products, by operand layout
import torch, json, os, sys
from torch.profiler import profile, ProfilerActivity
dev, dt = "cuda", torch.bfloat16
def run(name, f, reps=10):
    f(); torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(reps): f()
        torch.cuda.synchronize()
    ks = {}
    for e in p.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            ks.setdefault(e.name[:90], [0, 0]); ks[e.name[:90]][0] += e.device_time_total / reps; ks[e.name[:90]][1] += 1
    out = {k: round(v[0], 1) for k, v in ks.items()}
    print(name, json.dumps(out)); return out
res = {}
for V, H in [(128100, 1536), (50257, 768)]:
    M = 4096; Vp = -(-V // 8) * 8
    W = torch.randn(V, H, device=dev, dtype=dt)
    X = torch.randn(M, H, device=dev, dtype=dt)
    padded = torch.randn(M, Vp, device=dev, dtype=dt)
    A_pad = padded[:, :V]                     # rows padded to 16 bytes (ld Vp), K = V
    A_cm = torch.randn(V, M, device=dev, dtype=dt).t()   # column-major [M, V]
    A_dense = torch.randn(M, V, device=dev, dtype=dt)
    Wp = torch.zeros(Vp, H, device=dev, dtype=dt); Wp[:V] = W
    padded[:, V:] = 0
    r = {}
    r["dX padded ld, K=V"] = run(f"{V} dX padded-ld", lambda: A_pad @ W)
    r["dX padded K=Vp zeros"] = run(f"{V} dX K-padded", lambda: padded @ Wp)
    r["W zero-row copy"] = run(f"{V} W pad copy", lambda: torch.nn.functional.pad(W, (0, 0, 0, Vp - V)))
    r["dX col-major A"] = run(f"{V} dX col-major", lambda: A_cm @ W)
    r["dX dense A"] = run(f"{V} dX dense", lambda: A_dense @ W)
    r["dW from padded ld"] = run(f"{V} dW padded-ld", lambda: A_pad.t() @ X)
    r["dW from col-major A"] = run(f"{V} dW col-major", lambda: A_cm.t() @ X)
    r["dW from dense A"] = run(f"{V} dW dense", lambda: A_dense.t() @ X)
    res[V] = r
json.dump(res, open(os.path.join(os.environ.get("OUT", "."), "mm_layouts.json"), "w"), indent=1)
