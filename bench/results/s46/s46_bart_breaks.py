"""What Dynamo makes of the suite's BART on this machine: graph breaks, recompiles and graphs per backend
(aot_eager), in a training step; run with TORCH_LOGS=graph_breaks,recompiles."""
import sys

import torch
import transformers

from kiln.tools import workloads as W

print("transformers", transformers.__version__, "torch", torch.__version__)
name = sys.argv[1] if len(sys.argv) > 1 else "bart"
w = W.workload(name)
m = w.make_module("cuda", torch.float32, "gpu", train=True)
xs = w.make_inputs("cuda", torch.float32, "gpu")
graphs = []


def counting(gm, example_inputs):
    graphs.append(len(gm.graph.nodes))
    return gm.forward


f = torch.compile(m, backend=counting)
for _ in range(2):
    f(*xs).sum().backward()
torch.cuda.synchronize()
print(f"{name}: {len(graphs)} Dynamo graphs, nodes {graphs}")
print(torch._dynamo.utils.counters["stats"], dict(torch._dynamo.utils.counters["graph_break"]))
