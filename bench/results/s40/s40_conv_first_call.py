# session 40: what a conv net's first call costs outside any compiler, by layout: cuDNN's plans for each convolution
# configuration are built at its first call. In fresh processes (one per case), bf16 inference at the suite's gpu
# size: the first call less a steady one, NCHW and channels-last, and channels-last after a warm-up in another thread
# (does a plan built on one thread serve another?).   s40_conv_first_call.py MODEL CASE
import sys, threading, time, json
import torch
from kiln.tools.workloads import workload
model_name, case = sys.argv[1], sys.argv[2]
w = workload(model_name)
model, inputs = w.make_module("cuda", torch.bfloat16, "gpu"), w.make_inputs("cuda", torch.bfloat16, "gpu")
torch.nn.Sequential(torch.nn.Conv2d(3, 3, 1)).cuda()(torch.ones(1, 3, 4, 4, device="cuda"))   # cuDNN's handle, loaded
torch.cuda.synchronize()
if case != "nchw":
    model = model.to(memory_format=torch.channels_last)
    inputs = [x.contiguous(memory_format=torch.channels_last) if x.dim() == 4 else x for x in inputs]


def call():
    torch.cuda.synchronize()
    t = time.perf_counter()
    with torch.no_grad():
        model(*inputs)
    torch.cuda.synchronize()
    return time.perf_counter() - t


row = {"model": model_name, "case": case}
if case == "cl_warmed_in_thread":
    th = threading.Thread(target=lambda: row.update(thread_first_s=call()))
    th.start(); th.join()
row["first_s"] = call()
row["steady_s"] = sorted(call() for _ in range(5))[2]
print("ROW", json.dumps(row))
