import torch, time, torch.nn.functional as F
torch.manual_seed(0)
def t(f, n=200):
    for _ in range(10): f()
    ts=[]
    for _ in range(5):
        t0=time.perf_counter()
        for _ in range(n): f()
        ts.append((time.perf_counter()-t0)/n*1e6)
    return sorted(ts)[2]
def mm_cl(x, w):   # (N,C,H,W) -> mm over channels, channels-last result
    N,C,H,W = x.shape
    y = x.permute(0,2,3,1).reshape(N*H*W, C) @ w.view(w.shape[0], C).t()
    return y.view(N,H,W,-1).permute(0,3,1,2)
def bmm_nchw(x, w):
    N,C,H,W = x.shape
    return (w.view(w.shape[0], C) @ x.view(N, C, H*W)).view(N, -1, H, W)
for (N,C,H,W,K) in [(2,64,32,32,64),(4,128,16,16,128),(2,256,14,14,512),(8,64,28,28,128),(1,320,7,7,1280),(2,960,4,4,160)]:
    for cl in (False, True):
        x = torch.randn(N,C,H,W); w = torch.randn(K,C,1,1)
        if cl: x = x.contiguous(memory_format=torch.channels_last)
        r = {}
        for name, f in (("conv", lambda x,w: F.conv2d(x,w)), ("mm_cl", mm_cl), ("bmm", bmm_nchw)):
            xr = x.clone().requires_grad_(); wr = w.clone().requires_grad_()
            y = f(xr, wr); g = torch.randn_like(y)
            n = 100 if N*C*H*W < 1e5 else 20
            fw = t(lambda: f(x, w), n)
            def fb():
                xr.grad = wr.grad = None
                f(xr, wr).backward(g)
            r[name] = (fw, t(fb, n))
        print((N,C,H,W,K), "CL" if cl else "NC", "  ".join(f"{k} {a:7.1f}/{b:7.1f}" for k,(a,b) in r.items()))
