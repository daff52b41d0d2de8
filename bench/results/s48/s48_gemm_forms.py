"""fp32 GEMM forms on the GPU (session 48): for the products of the suite's fp32 training steps, the time of the
library call as the graph spells it, against the same product computed transposed ((B^T A^T)^T: cuBLAS sees the
other layout and picks another kernel), each with cuBLAS and with cuBLASLt as torch's preferred library.
    python3 s48_gemm_forms.py OUT.json
"""
import json, sys, torch

def bench(fn, reps=20):
    for _ in range(3): fn()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(5):
        s.record()
        for _ in range(reps): fn()
        e.record(); torch.cuda.synchronize(); times.append(s.elapsed_time(e) / reps * 1e3)
    return min(times)

# (model, M, K, N): tokens x in -> out for a Linear; each gives its forward, grad_input, grad_weight products
LINEARS = [("bert", 4096, 768, 768), ("bert", 4096, 768, 3072), ("bert", 4096, 3072, 768),
           ("vit", 6304, 768, 768), ("vit", 6304, 768, 3072), ("vit", 6304, 3072, 768), ("vit", 6304, 768, 2304),
           ("t5", 4096, 512, 512), ("t5", 4096, 512, 2048), ("t5", 4096, 2048, 512),
           ("gpt2", 4096, 768, 2304), ("whisper", 12000, 384, 384), ("whisper", 12000, 384, 1536),
           ("swin", 100352, 128, 128), ("swin", 100352, 128, 512), ("swin", 100352, 512, 128),
           ("deit", 6304, 192, 192), ("deit", 6304, 192, 768)]
rows = []
torch.backends.cuda.matmul.allow_tf32 = False
for model, M, K, N in LINEARS:
    x = torch.randn(M, K, device="cuda"); w = torch.randn(N, K, device="cuda"); g = torch.randn(M, N, device="cuda")
    b = torch.randn(N, device="cuda")
    products = {"fwd x@w.t (addmm)": (lambda: torch.addmm(b, x, w.t()), lambda: torch.addmm(b[:, None], w, x.t()).t(), M, K, N),
                "grad_x g@w": (lambda: g @ w, lambda: (w.t() @ g.t()).t(), M, N, K),
                "grad_w g.t@x": (lambda: g.t() @ x, lambda: (x.t() @ g).t(), N, M, K)}
    for name, (direct, transposed, m, k, n) in products.items():
        flops = 2 * m * k * n
        r = {"model": model, "linear": [M, K, N], "product": name}
        for lib in ("cublas", "cublaslt"):
            torch.backends.cuda.preferred_blas_library(lib)
            for form, fn in (("direct", direct), ("transposed", transposed)):
                us = bench(fn)
                r[f"{lib}_{form}_us"] = round(us, 1)
                r[f"{lib}_{form}_tflops"] = round(flops / us / 1e6, 1)
        torch.backends.cuda.preferred_blas_library("cublas")
        best = min((v, k) for k, v in r.items() if k.endswith("_us"))
        r["best"] = best[1]; r["gain_vs_cublas_direct"] = round(r["cublas_direct_us"] / best[0], 3)
        print(json.dumps(r), flush=True)
        rows.append(r)
json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, open(sys.argv[1], "w"), indent=1)
