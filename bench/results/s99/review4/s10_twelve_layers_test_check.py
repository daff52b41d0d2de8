# tests/test_modes.py's test_twelve_frame_layers_all_replay, re-run with counts: recordings per step and graphs
# that log "without a CUDA graph". Run against the commit and against the commit with the budget fix reverted
# (/tmp/rev99b/commit_nobudget): does the test tell them apart?   usage: s10_twelve_layers_test_check.py [steps]
import sys, logging, torch
from harness import *
class FrameLayer(torch.nn.Module):   # (tests/test_modes.py's)
    def __init__(self, width):
        super().__init__()
        self.linear = torch.nn.Linear(width, width)
    def forward(self, x):
        y = torch.tanh(self.linear(x)) + x
        torch._dynamo.graph_break()
        return y * 0.5
def frame_layers(width=64, layers=4):
    torch.manual_seed(0)
    return torch.nn.Sequential(*[FrameLayer(width) for _ in range(layers)])
def _through(model, x, *rest):
    for layer in model:
        x = layer(x, *rest)
    return x
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 6
setup(1 << 23)
warned = []
class H(logging.Handler):
    def emit(self, r):
        if "without a CUDA graph" in r.getMessage(): warned.append(r.getMessage().split(" runs")[0].split(": ")[-1])
logging.getLogger("kiln.cudagraphs").addHandler(H())
model, reference = frame_layers(layers=12), frame_layers(layers=12)
step, kept, per = compiled(lambda *inputs: _through(model, *inputs)), [], []
for s in range(steps):
    for p in [*model.parameters(), *reference.parameters()]: p.grad = None
    inputs = (torch.randn(8, 64),); kept.append(inputs)
    step(*inputs).sum().backward(); _through(reference, *inputs).sum().backward()
    for p, q in zip(model.parameters(), reference.parameters()): close(p.grad, q.grad)
    per.append(R.recordings)
print(f"steps {steps}: recordings after each step {per}; without a CUDA graph: {warned}")
