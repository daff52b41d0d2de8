# session 79 (from s78's): random frozen linears and convolutions (1x1, 1x1 with a stride, 3x3 padded) through the
# packed paths (the bounds lowered to 256 elements), biases dense, strided, expanded, from the input; inputs strided;
# followed by a tanh, a ReLU, a GELU, a tanh GELU, a SiLU or a hardswish (the packed call applies the last four), or a
# GELU beside another reader of the product; a
# fifth of the inputs hold a NaN or an infinity; half the trials write the weights in place (the refresh); each
# result against eager:  PYTHONPATH=. python3 bench/results/s79/packed_stress.py SEED TRIALS
import copy, random, torch, kiln, sys
import torch.nn.functional as F
from kiln.lowering import conv_products
conv_products.PACKED_WEIGHT_FROM = conv_products.PACKED_ACTIVATED_WEIGHT_FROM = 256
from kiln.runtime import prepacked
made = {}   # (class, activation) -> how many packed calls lowering made (tried or not)
for cls in (prepacked.PackedLinear, prepacked.PackedConvolution):
    def counting(self, *args, _init=cls.__init__, _name=cls.__name__, **kwargs):
        _init(self, *args, **kwargs)
        made[_name, self.activation.attr] = made.get((_name, self.activation.attr), 0) + 1
    cls.__init__ = counting
rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
bad = 0
for trial in range(int(sys.argv[2]) if len(sys.argv) > 2 else 40):
    torch.manual_seed(trial)
    k, n, rows = rng.choice([8, 16, 33, 64]), rng.choice([16, 40, 64, 100]), rng.choice([0, 1, 3, 8, 17])
    bias_kind = rng.choice(["none", "param", "column", "expanded", "input", "sliced_weight"])
    if rows == 0 and bias_kind == "input":
        bias_kind = "none"
    conv = rng.random() < 0.4
    window, stride = rng.choice([(1, 1), (1, 1), (1, 2), (3, 1)])
    activation = rng.choice(["tanh", "gelu", "gelu", "gelu_shared", "gelu_tanh", "silu", "hardswish", "relu"])

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(2 * n, k, window, window) / k ** 0.5)
            self.b = torch.nn.Parameter(torch.randn(n, 3))
            self.s = torch.nn.Parameter(torch.randn(1))

        def forward(self, x):
            w = self.w[n:] if bias_kind == "sliced_weight" else self.w[:n]
            bias = {"none": lambda: None, "param": lambda: self.b[:, 0].contiguous(), "column": lambda: self.b[:, 1],
                    "expanded": lambda: self.s.expand(n), "input": lambda: x.flatten()[:1].expand(n),
                    "sliced_weight": lambda: self.b[:, 2]}[bias_kind]()
            if conv:
                y = F.conv2d(torch.relu(x), w, bias, stride=stride, padding=window // 2)
            else:
                y = F.linear(torch.relu(x), w[:, :, 0, 0], bias)
            return {"tanh": lambda: torch.tanh(y) + 1, "gelu": lambda: F.gelu(y),
                    "gelu_shared": lambda: F.gelu(y) * y, "gelu_tanh": lambda: F.gelu(y, approximate="tanh"),
                    "silu": lambda: F.silu(y), "hardswish": lambda: F.hardswish(y), "relu": lambda: F.relu(y)}[activation]()

    x = torch.randn(rows, k, 2, 3).contiguous(memory_format=rng.choice([torch.contiguous_format, torch.channels_last])) \
        if conv else torch.randn(rows, k)
    if rng.random() < 0.3 and not conv:
        x = torch.randn(k, rows).t()
    if rng.random() < 0.2 and x.numel():
        x[tuple(rng.randrange(s) for s in x.shape)] = rng.choice([float("nan"), float("inf"), -float("inf")])
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
    # (eager's GELU of +inf is NaN in its vectorized loop and +inf in its scalar one, which a channels-last tensor's
    # GELU may take; torch's decomposition, which kiln's own GELU kernel computes, as Inductor's does, gives +inf,
    # and oneDNN's GELU post-op NaN: a NaN against an infinity is equal here)
    gelu = activation.startswith("gelu")
    same = lambda a, b: torch.allclose(torch.where((b.isnan() & a.isinf() | a.isnan() & b.isinf()) & gelu, b, a), b,
                                       atol=1e-4, rtol=1e-4, equal_nan=True)
    ok = all(same(a, b) for a, b in ((got, exp), (got2, exp), (got3, exp3)))
    if not ok or got.shape != exp.shape:
        bad += 1
        print("MISMATCH", trial, dict(k=k, n=n, rows=rows, bias=bias_kind, conv=conv, window=window, stride=stride,
                                      activation=activation),
              float((got - exp).abs().max()) if got.numel() else 0, float((got3 - exp3).abs().max()) if got3.numel() else 0)
print("done, mismatches:", bad, "packed calls made:", made)
