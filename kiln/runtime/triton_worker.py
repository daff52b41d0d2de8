"""A process that builds Triton kernels for kiln, into Triton's cache (TRITON_CACHE_DIR), so that the main process
then only loads them. Started by kiln.runtime.triton_launch as a script: it imports Triton, not torch or kiln,
and never touches the GPU (the target comes with each request).

Requests and replies are pickles, each after its length (4 bytes), on stdin and on the process's original
stdout (anything printed goes to stderr). A request is (module path, function name, Triton's specialization data,
GPU target); the reply is None, or the error's text.
"""
import json
import os
import pickle
import struct
import sys


def serve():
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    modules = {}
    while True:
        header = requests.read(4)
        if len(header) < 4:
            return
        request = pickle.loads(requests.read(struct.unpack("<I", header)[0]))
        try:
            build(modules, *request)
            reply = None
        except Exception as e:
            reply = f"{type(e).__name__}: {e}"
        data = pickle.dumps(reply)
        replies.write(struct.pack("<I", len(data)) + data)
        replies.flush()


def build(modules, path, name, specialization, target):
    """Compiles one kernel as Triton's JIT would for this specialization (the data its preload takes), and its
    launcher's C extension."""
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource, make_backend
    if path not in modules:
        scope = {"__file__": path, "__name__": os.path.basename(path)[:-3]}
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), scope)
        modules[path] = scope
    data = json.loads(specialization)
    constexprs = {tuple(k): tl.dtype(v) if tl.dtype.is_dtype(v) else
                  tl.constexpr(v["constexpr"]) if isinstance(v, dict) and "constexpr" in v else v
                  for k, v in zip(data["constant_keys"], data["constant_vals"])}
    attrs = dict(zip(map(tuple, data["attrs_keys"]), data["attrs_vals"]))
    signature = {k: tuple(v) if isinstance(v, list) else v for k, v in data["signature"].items()}
    target = GPUTarget(*target)
    options = make_backend(target).parse_options(
        {k: tuple(v) if isinstance(v, list) else v for k, v in data["options"].items()})
    kernel = triton.compile(ASTSource(modules[path][name], signature, constexprs, attrs), target=target,
                            options=options.__dict__)
    if target.backend == "cuda":
        try:   # the launcher's C extension, into Triton's cache (Tritons that build one per signature)
            from triton.backends.nvidia.driver import CudaLauncher
            CudaLauncher(kernel.src, kernel.metadata)
        except Exception:   # the main process builds or finds its launcher when it loads the kernel
            pass


if __name__ == "__main__":
    serve()
