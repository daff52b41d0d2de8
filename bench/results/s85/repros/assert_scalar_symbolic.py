"""kiln: torch._check on a symbolic int input under dynamic=True -> the wrapper calls aten._assert_scalar with the
sympy relational (s >= 0) instead of its value. From HF Reformer (zoo s85, dynamic mode: the graph resumed after
`position_ids.max().item()` with torch._check(max_position_id >= 0)). aot_eager passes.
Failed before b2741a8 (the sweep's tree); passes since b2741a8 (the wrapper computes the truth value).

    RuntimeError: aten::_assert_scalar() Expected a value of type 'number' for argument 'self' but instead found
    type 'GreaterThan'. ... Value: s2 >= 0
"""
import torch

import kiln


def f(w, n):
    torch._check(n >= 0)
    torch._check(n < 16)
    return w[:, :(n + 4) // 4] * 2


w = torch.randn(3, 4)
for backend in ("aot_eager", "kiln"):
    torch._dynamo.reset()
    g = kiln.compile(f, dynamic=True, options={"strict": True}) if backend == "kiln" else \
        torch.compile(f, backend="aot_eager", dynamic=True)
    try:
        for n in (5, 9):
            torch.testing.assert_close(g(w, n), f(w, n))
        print(backend, "ok")
    except Exception as e:  # noqa: BLE001
        print(backend, "FAIL", type(e).__name__, str(e).splitlines()[0])
