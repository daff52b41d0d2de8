# session 98 (issue 19): the suite's models whose layers are frames of their own (Whisper, BART), a training step
# in reduce-overhead on the CPU through tests/test_modes.py's stand-in recorder (CUDA graphs' replay semantics on
# CPU tensors): recordings and replays per step, each step's loss and gradients against eager's.
#   PYTHONPATH=. python3 bench/results/s98/frames_models_cpu.py [whisper,bart] [steps]
import os, sys, copy, torch
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests"))
import kiln
from kiln.runtime import cuda_graphs
from kiln.tools import workloads as W
from test_modes import ReplayingRecorder
cuda_graphs.RECORDERS["cpu"] = ReplayingRecorder
ReplayingRecorder.pool = (torch.empty(1 << 28, dtype=torch.uint8), 0)
names = (sys.argv[1] if len(sys.argv) > 1 else "whisper,bart").split(",")
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
for name in names:
    torch._dynamo.reset()
    w = W.workload(name)
    torch.manual_seed(0)
    m = w.make_module("cpu", torch.float32, "tiny", train=True)
    ref = copy.deepcopy(m)
    xs = w.make_inputs("cpu", torch.float32, "tiny")
    step = kiln.compile(m, mode="reduce-overhead", options={"graph_cache": False})
    worst = 0.0
    for i in range(steps):
        for p in [*m.parameters(), *ref.parameters()]:
            p.grad = None
        before = (ReplayingRecorder.recordings, kiln.stats().get("cuda_graph_replays", 0))
        out = step(*xs)
        loss = (out if isinstance(out, torch.Tensor) else out[0]).float().sum()
        loss.backward()
        eout = ref(*xs)
        eloss = (eout if isinstance(eout, torch.Tensor) else eout[0]).float().sum()
        eloss.backward()
        torch.testing.assert_close(loss, eloss, rtol=1e-4, atol=1e-4)
        for p, q in zip(m.parameters(), ref.parameters()):
            if q.grad is not None:
                torch.testing.assert_close(p.grad, q.grad, rtol=1e-3, atol=1e-4)
        print(f"{name} step {i}: recordings +{ReplayingRecorder.recordings - before[0]}, replays "
              f"+{kiln.stats().get('cuda_graph_replays', 0) - before[1]}, loss and gradients match eager", flush=True)
