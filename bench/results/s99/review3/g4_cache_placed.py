# The Dynamo-level warm start (graph_cache.dynamo_key) and `placed`: f(x, w) compiled with w an nn.Parameter in one
# process and a plain tensor (requires_grad, as the Parameter) in another; the warm start loads the first process's
# artifacts, `placed` included. usage: KILN_CACHE_DIR=dir g4_cache_placed.py param|plain
import sys, torch
from harness import *
import kiln
from kiln.runtime import cuda_graphs
setup()
torch.manual_seed(0)
def f(x, w):
    return torch.tanh(x @ w) + 1
g = kiln.compile(f, mode="reduce-overhead")   # graph cache on (KILN_CACHE_DIR)
with torch.no_grad():
    for t in range(40):
        w = torch.randn(16, 16)
        w = torch.nn.Parameter(w) if sys.argv[1] == "param" else w.requires_grad_()
        x = torch.randn(8, 16)
        close(g(x, w), f(x, w))
import kiln.capture
print(sys.argv[1], "dynamo graphs from cache", kiln.capture.STATS["dynamo_graphs_from_cache"], stats())
