"""timm repvgg_a0 training step: per-parameter-grad RMSE to fp64, kiln vs eager vs inductor (session 80)."""
import copy, sys
import torch, timm, kiln
sys.path.insert(0, "bench/results/s79/zoo")
import zoo_check as z

backend = sys.argv[1] if len(sys.argv) > 1 else "kiln"
module = z.build("timm_repvgg", True)
inputs = z.make_inputs("timm_repvgg", z.SPECS["timm_repvgg"]["base"], 1)
fp64, eager = z.references(module, inputs, True)
compiled = z.compiler(backend, {"strict": True})(copy.deepcopy(module))
result = z.step(compiled, inputs, True)
names = ["loss"] + [n for n, _ in module.named_parameters()]
rows = []
for n, r, e, f in zip(names, result, eager, fp64):
    rr = (r.double() - f).pow(2).mean().sqrt().item()
    re = (e.double() - f).pow(2).mean().sqrt().item()
    scale = f.pow(2).mean().sqrt().item()
    rows.append((rr / max(re, 1e-30), n, rr, re, scale))
for row in sorted(rows, reverse=True)[:15]:
    print("%6.2f  %-55s kiln %.3g eager %.3g |ref| %.3g" % row)
