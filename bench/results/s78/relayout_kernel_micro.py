# session 78: kiln's channels-last relayout kernel of a 512 x 512 x 3 x 3 weight (from a compiled timm ResNet-18's module
# in the kernel cache; edit the path) against ATen's copy_ into a preallocated output, weights cold and warm
import ctypes, torch, time, statistics
lib = ctypes.CDLL("/root/.cache/kiln/cpp/dd/kiln_ddf693ccb64241b90563d7cc.so")
fn = lib.kernel_convolution_3b9f76f589
flush = torch.empty(16 << 20)
w = torch.randn(512, 512, 3, 3)
out = torch.empty_strided((512, 512, 3, 3), (4608, 1, 1536, 512))
def timed(f, cold=True, fresh=False):
    r = []
    for _ in range(15):
        if cold: flush.fill_(1.0)
        o = torch.empty_strided((512, 512, 3, 3), (4608, 1, 1536, 512)) if fresh else out
        t = time.perf_counter(); f(o); r.append((time.perf_counter() - t) * 1e6)
    return statistics.median(r)
k = lambda o: fn(ctypes.c_void_p(w.data_ptr()), ctypes.c_void_p(o.data_ptr()))
a = lambda o: o.copy_(w)
for cold in (True, False):
    print("cold" if cold else "warm", "kiln %.0f us, aten copy_ %.0f us" % (timed(k, cold), timed(a, cold)))
k(out); assert torch.equal(out, w)
