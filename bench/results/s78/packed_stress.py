# session 78: random frozen linears and 1x1 convolutions through the packed paths (the bound lowered to 256 elements),
# biases dense, strided, expanded, from the input; inputs strided; half the trials write the weights in place
# (the refresh); each result against eager:  PYTHONPATH=. python3 bench/results/s78/packed_stress.py SEED TRIALS
# random frozen linears and 1x1 convolutions through the packed paths (bound lowered), against eager and fp64
import copy, random, torch, kiln, sys
import torch.nn.functional as F
from kiln.lowering import conv_products
conv_products.PACKED_WEIGHT_FROM = 256
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
bad = 0
for trial in range(int(sys.argv[2]) if len(sys.argv) > 2 else 40):
    torch.manual_seed(trial)
    k, n, rows = rng.choice([8, 16, 33, 64]), rng.choice([16, 40, 64, 100]), rng.choice([0, 1, 3, 8, 17])
    bias_kind = rng.choice(["none", "param", "column", "expanded", "input", "sliced_weight"])
    if rows == 0 and bias_kind == "input":
        bias_kind = "none"
    conv = rng.random() < 0.4

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(2 * n, k) / k ** 0.5)
            self.b = torch.nn.Parameter(torch.randn(n, 3))
            self.s = torch.nn.Parameter(torch.randn(1))

        def forward(self, x):
            w = self.w[n:] if bias_kind == "sliced_weight" else self.w[:n]
            bias = {"none": lambda: None, "param": lambda: self.b[:, 0].contiguous(), "column": lambda: self.b[:, 1],
                    "expanded": lambda: self.s.expand(n), "input": lambda: x.flatten()[:1].expand(n),
                    "sliced_weight": lambda: self.b[:, 2]}[bias_kind]()
            if conv:
                y = F.conv2d(torch.relu(x), w[:, :, None, None], bias)
            else:
                y = F.linear(torch.relu(x), w, bias)
            return torch.tanh(y) + 1

    x = torch.randn(rows, k, 2, 3).contiguous(memory_format=rng.choice([torch.contiguous_format, torch.channels_last])) \
        if conv else torch.randn(rows, k)
    if rng.random() < 0.3 and not conv:
        x = torch.randn(k, rows).t()
    m = M().eval()
    torch._dynamo.reset()
    c = kiln.compile(m, options={"freezing": True, "strict": True})
    with torch.no_grad():
        got, got2, exp = c(x), c(x), m(x)
        ref = copy.deepcopy(m).double()(x.double())
        if rng.random() < 0.5:   # a write in place: the refresh
            m.w.mul_(-0.5); m.b.add_(1)
            exp3, got3 = m(x), c(x)
        else:
            exp3 = got3 = exp
    ok = all(torch.allclose(a, b, atol=1e-4, rtol=1e-4) for a, b in ((got, exp), (got2, exp), (got3, exp3)))
    if not ok or got.shape != exp.shape:
        bad += 1
        print("MISMATCH", trial, dict(k=k, n=n, rows=rows, bias=bias_kind, conv=conv),
              float((got - exp).abs().max()) if got.numel() else 0, float((got3 - exp3).abs().max()) if got3.numel() else 0)
print("done, mismatches:", bad)
