# Frame layers (a graph break per layer), plain training step whose input is a slice with gaps of a fresh batch
# (x = batch[:, :16], as inputs = ids[:, :-1]). An input with gaps is read in place and recorded again where it moves:
# the first graph's new recording is then the pool's newest, every later layer's position is older than the
# activations it now finds held, and is recorded again too -- at every step, for every layer. Counts real replays
# (a recording replayed after the call that recorded it) and calls per step.   usage: r2_gap_input_cascade.py
# [steps (40)] [nogaps]
import sys, torch
from harness import *
from common_layers import M, train
setup()
torch.manual_seed(0)
gaps = "nogaps" not in sys.argv
steps = next((int(a) for a in sys.argv[1:] if a.isdigit()), 40)


def batch_slice():
    x = torch.randn(8, 32)[:, :16]
    return x if gaps else x.clone()


train(M(4), steps, batch_slice, window=10)
print("ok", stats())
