"""Session 55: MKL's sgemm_ (exported by libtorch_cpu) called directly, timed in C, at the quick transformers' product
sizes. Build first: g++ -O2 -shared -fPIC s55_sgemm_direct.cpp -o /tmp/sg/sg.so -L<torch/lib> -ltorch_cpu
-Wl,-rpath,<torch/lib>; compare with s55_mm_micro.py (torch.mm's time per call)."""
import torch, ctypes
lib = ctypes.CDLL("/tmp/sg/sg.so"); lib.bench.restype = ctypes.c_double
lib.bench.argtypes = [ctypes.c_void_p]*3 + [ctypes.c_int]*5
for th in (2, 1):
    torch.set_num_threads(th)
    for M,K,N in ((32,64,64),(32,64,128),(32,128,64),(32,64,256),(32,256,64),(128,256,512)):
        x=torch.randn(M,K); w=torch.randn(N,K); o=torch.empty(M,N)
        lib.bench(x.data_ptr(), w.data_ptr(), o.data_ptr(), M,K,N, 1000, 1)
        assert torch.allclose(o, x@w.t(), atol=1e-4)
        t = min(lib.bench(x.data_ptr(), w.data_ptr(), o.data_ptr(), M,K,N, 3000, 1) for _ in range(5))
        print(th, M, K, N, "direct sgemm_ nt %.2f us" % t)
