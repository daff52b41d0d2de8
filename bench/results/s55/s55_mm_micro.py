import torch, time
def t(f, n=3000):
    for _ in range(200): f()
    best=1e9
    for r in range(5):
        s=time.perf_counter()
        for _ in range(n): f()
        best=min(best,(time.perf_counter()-s)/n*1e6)
    return best
v=torch._C._dynamo.guards._reinterpret_tensor
with torch.no_grad():
  for th in (2,1):
    torch.set_num_threads(th)
    for M,K,N in ((32,64,64),(32,64,128),(32,128,64),(32,64,256),(64,32,64),(32,256,64),(128,256,512)):
        x=torch.randn(M,K); w=torch.randn(N,K)
        print(th, M,K,N, "nt %.2f" % t(lambda: torch.mm(x, v(w,(K,N),(1,K),0))), "nn %.2f" % t(lambda: torch.mm(x, v(w,(K,N),(N,1),0))))
  torch.set_num_threads(2)
  print("set_num_threads", t(lambda: torch.set_num_threads(2)))
