# session 33: why kiln's broadcast-fill kernel of DeBERTa's logits gradient ran at ~370 GB/s
import torch, triton, triton.language as tl, json, os
@triton.jit
def fill(in_ptr0, out_ptr1, N, R, LD: tl.constexpr, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    rblocks = tl.cdiv(R, RBLOCK)
    pid = tl.program_id(0)
    x0 = ((pid // rblocks) * XBLOCK + tl.arange(0, XBLOCK))[:, None]
    r0 = ((pid % rblocks) * RBLOCK + tl.arange(0, RBLOCK))[None, :]
    xmask = x0 < N
    rmask = r0 < R
    tmp1 = tl.load(in_ptr0 + (0) + tl.zeros_like(x0), mask=xmask, other=0)
    tmp2 = tmp1.to(tl.float32).to(tl.bfloat16).to(tl.float32)
    tl.store(out_ptr1 + (r0 + LD*x0), tmp2.to(tl.float32).to(tl.bfloat16), mask=xmask & rmask)
res = {}
for (N, R, LD) in [(4096, 128100, 128104), (128100, 4096, 4096), (4096, 50257, 50264)]:
    out = torch.empty(N * LD, device="cuda", dtype=torch.bfloat16); t = torch.ones((), device="cuda")
    for xb, rb, w in [(1, 2048, 4), (1, 2048, 8), (1, 1024, 4), (2, 1024, 4), (4, 512, 4), (1, 4096, 8), (8, 256, 4)]:
        grid = (triton.cdiv(N, xb) * triton.cdiv(R, rb),)
        f = lambda: fill[grid](t, out, N, R, LD, xb, rb, num_warps=w)
        ms = triton.testing.do_bench(f, warmup=5, rep=50)
        gbs = N * R * 2 / ms / 1e6
        res[f"{N}x{R} ld{LD} X{xb} R{rb} w{w}"] = (round(ms * 1000, 1), round(gbs))
        print(N, R, LD, xb, rb, w, round(ms * 1000, 1), "us", round(gbs), "GB/s", flush=True)
    ms = triton.testing.do_bench(lambda: out.view(N, LD)[:, :R].copy_(t.expand(N, R)), warmup=5, rep=50)
    print(N, R, "torch copy_", round(ms * 1000, 1), "us")
json.dump(res, open(os.path.join(os.environ.get("OUT", "."), "fill.json"), "w"), indent=1)
