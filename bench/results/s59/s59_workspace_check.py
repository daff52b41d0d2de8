"""Where kiln's recordings' cuBLAS workspaces live, and whether a graph destroyed lets another's workspace go to other
tensors (pytorch#193402: torch frees a stream's workspaces when a graph recorded on it is destroyed). After a review
of c7b7d0e (a fresh reader's repro, extended). Run: PYTHONPATH=. python3 s59_workspace_check.py OUT.json"""
import json
import sys

import torch

from kiln.runtime.cuda_graphs import CudaRecorder

dev = torch.device("cuda:0")
rec = CudaRecorder(dev)
torch.manual_seed(0)
a = torch.randn(16, 65536, device=dev, dtype=torch.bfloat16)    # small M, large K: split-K, workspace-using
b = torch.randn(65536, 256, device=dev, dtype=torch.bfloat16)
bias = torch.randn(256, device=dev, dtype=torch.bfloat16)


def call(args):
    x, y = args
    return [x @ y, torch.addmm(bias, x, y)]


def large_blocks():
    """blocks of 1 MiB or more: size in MiB, allocated or not, in kiln's pool or not"""
    out = []
    for seg in torch.cuda.memory._snapshot()["segments"]:
        for blk in seg["blocks"]:
            if blk["size"] >= 2 ** 20:
                out.append((round(blk["size"] / 2 ** 20, 2), blk["state"], tuple(seg.get("segment_pool_id", ())) ==
                            tuple(rec.pool().id), seg["stream"] == rec.stream.cuda_stream))
    return sorted(out)


result = {"torch": torch.__version__, "device": torch.cuda.get_device_name()}
rec.warm_up(call, [a, b])
torch.cuda.synchronize()
result["after_warm_up"] = large_blocks()
replay_a, outs_a = rec.record(call, [a, b])
replay_b, outs_b = rec.record(call, [a, b])
torch.cuda.synchronize()
result["after_two_recordings"] = large_blocks()
before = torch.cuda.memory_allocated()
del replay_a
torch.cuda.synchronize()
result["freed_by_destroying_a"] = before - torch.cuda.memory_allocated()
with torch.cuda.stream(rec.stream):            # what a later warm-up allocates on the same stream
    fill = torch.full((8 * 2 ** 20,), 7.0, device=dev)
torch.cuda.synchronize()
ref = a.float() @ b.float()
for _ in range(20):
    replay_b()
torch.cuda.synchronize()
result["side_stream_tensor_intact"] = bool((fill == 7).all())
result["graph_b_right"] = torch.allclose(outs_b[0].float(), ref, rtol=3e-2, atol=3)
del fill
torch.cuda.empty_cache()
for _ in range(20):
    replay_b()
torch.cuda.synchronize()
result["replay_after_empty_cache"] = torch.allclose(outs_b[0].float(), ref, rtol=3e-2, atol=3)
print(json.dumps(result))
with open(sys.argv[1], "w") as f:
    json.dump(result, f, indent=1)
