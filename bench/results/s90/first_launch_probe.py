"""Why the first kernel of each graph is compiled again in the main process at its first launch (session 90, issue
23): BERT's embedding kernel, DistilBERT's and the warm-up model's first kernels, timm RegNet's stem, each built
ahead by the workers and loaded, then compiled a second time at the graph's first call (0.73 s of BERT's, on the
main thread: `s90/c1`). Logs every JIT compile of this process: the kernel, the thread, whether a warmup, and
Triton's cache key (its specialization and options), so the two keys of such a kernel can be compared; and each
Launcher.compile's arguments as the JIT sees them (dtype, data_ptr % 16, ints).
    PYTHONPATH=. python3 bench/results/s90/first_launch_probe.py OUT.json -- --child --model bert --backend kiln \
        --device cuda
"""
import json
import sys
import threading

sys.path.insert(0, "scripts")
import gpu_compile_time  # noqa: E402
import torch  # noqa: E402
import triton.runtime.jit as jit  # noqa: E402

import kiln.runtime.triton_launch as triton_launch  # noqa: E402

records = []
do_compile = jit.JITFunction._do_compile


def logged_compile(self, key, *rest):   # (signature, device, constexprs, options, attrs, warmup in Triton 3.6)
    records.append({"event": "jit_compile", "kernel": self.fn.__name__, "thread": threading.current_thread().name,
                    "key": str(key), "rest": [repr(r)[:2000] for r in rest]})
    return do_compile(self, key, *rest)


jit.JITFunction._do_compile = logged_compile
run = jit.JITFunction.run


def logged_run(self, *args, grid, warmup, **kwargs):   # the keys this kernel's JIT cache holds before each call
    device = jit.driver.active.get_current_device()
    caches = self.device_caches.get(device) if hasattr(self.device_caches, "get") else None
    records.append({"event": "jit_run", "kernel": self.fn.__name__, "thread": threading.current_thread().name,
                    "warmup": warmup, "device": repr(device), "kwargs": repr(kwargs),
                    "cached_keys": [str(k) for k in caches[0]] if caches else None})
    return run(self, *args, grid=grid, warmup=warmup, **kwargs)


jit.JITFunction.run = logged_run
launcher_compile = triton_launch.Launcher.compile


def logged_launcher_compile(self, grid, args):
    records.append({"event": "launcher_compile", "kernel": self.fn.fn.__name__,
                    "args": [[str(a.dtype), a.data_ptr() % 16, a.device.type] if isinstance(a, torch.Tensor) else
                             repr(a) for a in args], "options": repr(self.options)})
    return launcher_compile(self, grid, args)


triton_launch.Launcher.compile = logged_launcher_compile
out, sys.argv = sys.argv[1], [sys.argv[0]] + sys.argv[sys.argv.index("--") + 1:]
try:
    gpu_compile_time.main()
finally:
    with open(out, "w") as f:
        json.dump(records, f, indent=1)
