"""kiln's C++ module fails to build when a linear layer's addmm and a convolution that kiln lowers as a product of
its windows (kiln.lowering.conv_products) become the same BLAS call (timm maxvit_rmlp_pico_rw_256 with freezing=True; this small case fails without freezing too):
cpp_products.write_call names the function by a hash of its body (blas_addmm_<hash>) but its text starts with a
comment naming step.origins, and kiln/runtime/module.py deduplicates the products by that whole text -> two
definitions of one name -> "error: redefinition of 'void blas_addmm_...'"."""
import torch
import kiln
from torch import nn


class M(nn.Module):   # a 1x1 convolution and a linear layer of the same shapes over the same number of positions
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 32, 1)
        self.fc = nn.Linear(16, 32)

    def forward(self, t):                                  # t: (1, 16, 16) tokens, channels last
        image = t.reshape(1, 4, 4, 16).permute(0, 3, 1, 2)  # (1, 16, 4, 4), channels-last in memory
        a = self.conv(image).flatten(2).transpose(1, 2)    # (1, 16, 32)
        b = self.fc(t * 2)                                 # (1, 16, 32)
        return a.relu() + b.sigmoid()


torch.manual_seed(0)
m, x = M().eval(), torch.randn(1, 16, 16)
for opts in ({}, {"freezing": True}):
    torch._dynamo.reset()
    try:
        with torch.no_grad():
            err = (kiln.compile(m, options={"strict": True, **opts})(x) - m(x)).abs().max().item()
        print(f"{opts}: max error vs eager {err}")
    except Exception as e:
        msg = str(getattr(e, "inner_exception", e))
        print(f"{opts}: FAILED {type(e).__name__}: {[l for l in msg.splitlines() if 'error' in l][:1] or msg[:300]}")
