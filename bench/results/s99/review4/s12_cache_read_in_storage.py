# The graph cache and the Dynamo-level warm start carry Artifact.read_in_storage: run twice with one cache
# directory (KILN_CACHE_DIR); the second process loads the graphs. An input read before its first element at a new
# place each call, inference and training. Compared with eager.
import torch, kiln
from harness import *
Q = torch.nn.Parameter(torch.randn(4, 4))
cases = {"inference": (lambda x: x.as_strided((4, 4), (4, 1), 0) + 1, False),
         "training": (lambda x: (x.as_strided((4, 4), (4, 1), 0) @ Q).tanh(), True)}
for name, (f, train) in cases.items():
    setup(); bad = 0; kept = []
    g = kiln.compile(f, mode="reduce-overhead", options={"graph_cache": True})
    for t in range(6):
        x = torch.randn(10, 4)[2:]; kept.append(x)
        o = g(x); r = f(x)
        ok = torch.allclose(o, r, atol=1e-5)
        if train:
            Q.grad = None; o.sum().backward(); g1 = Q.grad.clone(); Q.grad = None; r.sum().backward()
            ok &= torch.allclose(g1, Q.grad, atol=1e-5)
        bad += not ok
    print(f"{name}: wrong {bad}/6", stats(), "from cache:", kiln.stats().get("graphs_from_cache"))
