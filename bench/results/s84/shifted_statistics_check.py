import torch, kiln, torch.nn.functional as F, sys
torch.manual_seed(0)
fns = {
 "var": lambda x: torch.var(x.sin() * 1.5, dim=-1),
 "std_mean": lambda x: torch.std_mean(x.exp(), dim=(1, 2))[0],
 "group_norm": lambda x: F.group_norm(x.tanh() * 2, 3),
 "batch_norm": lambda x: F.batch_norm(x.sin(), None, None, training=True),
 "layer_norm": lambda x: F.layer_norm(x.sin() * 1.5, [6, 10]),
}
bad = []
for dtype in (torch.bfloat16, torch.float16):
    for name, fn in fns.items():
        for grad in (False, True):
            x = torch.randn(3, 6, 10).to(dtype)
            torch._dynamo.reset()
            c = kiln.compile(fn, options={"strict": True})
            outs = [c(x.clone().requires_grad_(grad)).float() for _ in range(2)]
            ref = fn(x.double())
            err = max((o - ref).abs().max().item() for o in outs)
            scale = ref.abs().max().item() + 1
            status = "ok" if err < 0.05 * scale else "BAD"
            print(dtype, name, grad, f"{err:.3g}", status)
