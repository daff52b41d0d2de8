# The default mode's generated code for graphs with as_strided (at explicit offsets, on inputs, in gaps, before,
# after; and unfold/diagonal, static and dynamic=True): a digest of each graph's wrapper and kernel source, to
# compare between the commit and the parent (lowering only adds a record of read_in_storage).
import hashlib, torch, kiln
from kiln import capture
digests = []
_gen = capture.generate
def generate(*a, **k):
    art, prof = _gen(*a, **k)
    digests.append(hashlib.sha256((art.wrapper_source + art.kernel_source).encode()).hexdigest()[:10])
    return art, prof
capture.generate = generate
cases = [(lambda x: x.as_strided((8, 8), (8, 1), 0) * 2, lambda: torch.randn(8, 8)[:, :4]),
         (lambda x: x.as_strided((4, 4), (4, 1), 0) + 1, lambda: torch.randn(10, 4)[2:]),
         (lambda x: x.as_strided((10, 4), (4, 1), 0) + 1, lambda: torch.randn(10, 4)[:8]),
         (lambda x: x.unfold(1, 3, 2) * 2, lambda: torch.randn(6, 12)[:, 2:10]),
         (lambda x: x.diagonal(1) + 1, lambda: torch.randn(8, 6).t())]
for dyn in (False, True):
    for f, mk in cases:
        torch._dynamo.reset()
        g = kiln.compile(f, options={"graph_cache": False}, dynamic=dyn)
        for _ in range(2):
            x = mk(); torch.testing.assert_close(g(x), f(x))
print(digests)
