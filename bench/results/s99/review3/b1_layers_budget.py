# A plain training step over N frame layers (common_layers.M: a graph break per layer, as HF Whisper/BART), 8 steps;
# per window of 4 steps: calls, recordings and replays per step (common_layers.train), and the graphs that log
# "runs without a CUDA graph".   usage: b1_layers_budget.py N
import sys, logging, torch
from harness import *
from common_layers import M, train
setup()
warned = []
class H(logging.Handler):
    def emit(self, r):
        if "without a CUDA graph" in r.getMessage(): warned.append(r.getMessage().split(" runs")[0].split(": ")[-1])
logging.getLogger("kiln.cudagraphs").addHandler(H())
torch.manual_seed(0)
n = int(sys.argv[1])
train(M(n), 8, window=4)
print(f"N={n}: graphs without a CUDA graph: {warned}", stats())
