"""A process that builds Triton kernels into Triton's on-disk cache, for `build_pool` (run by path, so that it
imports neither kiln nor torch: it starts in the time `import triton` takes).

Started with a target ([backend, arch, warp size] as JSON), it first warms up for it. It reads jobs from stdin
and answers each on stdout, as 8-byte lengths and pickles. A job names a kernel module's file (one kiln
generated, or its matmul's tile), a kernel in it, and what the JIT of the parent process passed to
`triton.compile` for it (the ASTSource's fields, the target, the options, the environment the cache key was
computed from); the answer is None, or the error's text. The worker never touches a GPU: the target is given,
and nothing is loaded or launched.
"""
import json
import os
import pickle
import struct
import sys
import types
import warnings

os.environ.pop("TRITON_INTERPRET", None)   # (the parent may interpret; a worker compiles)
warnings.simplefilter("ignore")
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

MODULES_KEPT = 16   # kernel modules run and kept, for the next jobs of the same graph


@triton.jit
def warm_up_kernel(in_ptr, out_ptr, N, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + i, mask=i < N, other=0.0)
    tl.store(out_ptr + i, tl.math.div_rn(tl.exp(x), tl.sum(x, 0)), mask=i < N)


def warm_up(target):
    """Compiles a small kernel for target, before the first job: a process's first compile also loads what every
    later one uses (about a second), here while the parent still lowers its graph. Compiled even where Triton's
    cache holds it (a hit would load nothing of the compiler), over the same cache entry each time."""
    from triton.backends.compiler import GPUTarget
    before = os.environ.get("TRITON_ALWAYS_COMPILE")
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    try:
        signature = {"in_ptr": "*fp32", "out_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"}
        triton.compile(ASTSource(warm_up_kernel, signature, {(3,): 128}), target=GPUTarget(*target))
    except Exception:   # (only time is at stake)
        pass
    finally:
        if before is None:
            os.environ.pop("TRITON_ALWAYS_COMPILE", None)
        else:
            os.environ["TRITON_ALWAYS_COMPILE"] = before


def build(job, modules):
    path, function, fields, target, options, kwargs = job
    # The parent's cache key holds the cache-invalidating settings of its environment; a binary built under
    # others would be stored under that key and loaded as if built under it (here and by later processes).
    env_vars = getattr(triton.runtime.jit, "get_cache_invalidating_env_vars", None)
    if "_env_vars" not in kwargs or env_vars is None or kwargs["_env_vars"] != env_vars():
        raise RuntimeError("the parent's cache-invalidating environment differs from this worker's")
    if path not in modules:
        if len(modules) >= MODULES_KEPT:
            modules.clear()
        modules[path] = load(path)
    source = ASTSource.__new__(ASTSource)
    source.__dict__.update(fields, fn=getattr(modules[path], function))
    triton.compile(source, target=target, options=options, **kwargs)


def load(path):
    """The kernel module at path, run from its text (as the parent runs it: @triton.jit reads each function's
    source back from the file)."""
    with open(path) as f:
        source = f.read()
    module = types.ModuleType(os.path.splitext(os.path.basename(path))[0])
    module.__file__ = path
    exec(compile(source, path, "exec"), module.__dict__)
    return module


def main():
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)   # whatever prints to stdout goes to stderr, not into the answers
    if len(sys.argv) > 1:
        warm_up(json.loads(sys.argv[1]))
    modules = {}
    jobs = sys.stdin.buffer
    while True:
        head = jobs.read(8)
        if len(head) < 8:   # the parent closed the pipe, or exited
            return
        try:
            build(pickle.loads(jobs.read(struct.unpack("<Q", head)[0])), modules)
            answer = None
        except BaseException as e:   # (answered, not fatal: the parent builds this kernel itself)
            answer = f"{type(e).__name__}: {e}"
        data = pickle.dumps(answer)
        answers.write(struct.pack("<Q", len(data)) + data)
        answers.flush()


if __name__ == "__main__":
    main()
