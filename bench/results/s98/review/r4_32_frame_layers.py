# A plain training step over N frame layers (a graph break per layer). With N = 32 (MAX_POSITIONS; Whisper large's
# decoder has 32 layers) the positions' warm-up spends the shape's 2 * MAX_POSITIONS recordings (each layer is
# recorded about twice in the first two steps), and most calls run without a CUDA graph from then on (34 of 128
# replayed at N = 32, 33 of 124 at N = 31). N <= 30: all replayed.   usage: r4_32_frame_layers.py N
import sys, torch
from harness import *
from common_layers import M, train
setup()
torch.manual_seed(0)
train(M(int(sys.argv[1]) if len(sys.argv) > 1 else 32), 12, window=4)
print("ok")
