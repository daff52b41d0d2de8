# The Dynamo-level warm start and `placed`: f(x, w) with w marked static (torch._dynamo.mark_static_address: one
# tensor, an AOTAutograd static input) in one process, a fresh plain w at each call in the next (same cache dir).
# usage: KILN_CACHE_DIR=dir g4b_cache_static.py static|plain
import sys, torch
from harness import *
import kiln, kiln.capture
setup(); torch.manual_seed(0)
def f(x, w):
    return torch.tanh(x @ w) + 1
g = kiln.compile(f, mode="reduce-overhead")   # graph cache on (KILN_CACHE_DIR)
fixed = torch.randn(16, 16)
if sys.argv[1] == "static":
    torch._dynamo.mark_static_address(fixed)
with torch.no_grad():
    for t in range(40):
        w = fixed if sys.argv[1] == "static" else torch.randn(16, 16)
        x = torch.randn(8, 16)
        close(g(x, w), f(x, w))
print(sys.argv[1], "dynamo graphs from cache", kiln.capture.STATS["dynamo_graphs_from_cache"], stats())
