"""Builds a graph's Triton kernels before its first call, in parallel.

Triton builds a kernel on its first launch, in the launching thread: the Python front end, MLIR and LLVM passes,
ptxas, and a C extension for its launcher (the system compiler, once per signature). kiln instead asks Triton's
JIT, before the first call, for the specialization each launch will have (the jit_cache_hook sees it without
compiling) and sends it to worker processes (kiln/runtime/triton_worker.py) that build the kernels into Triton's
cache, all at once; then each kernel is loaded from that cache and its binary put on the GPU, on a pool of
threads. Workers start with the first CUDA graph, while it is lowered. Where they cannot run (they failed to
start or crashed, or a Triton whose JIT does not work this way), the pool of threads builds the kernels instead
(Triton's AsyncCompileMode), less in parallel: Triton's Python front end holds the GIL.
"""
import concurrent.futures
import functools
import logging
import os
import pickle
import queue
import struct
import subprocess
import sys

import torch

log = logging.getLogger("kiln.codegen")


def build_ahead(warmups):
    """warmups: (Launcher, the launch's arguments as Triton's warmup takes them). A kernel already in Triton's
    cache is loaded; a launch whose arguments another specialization fits is built at its first call."""
    import triton
    pool = compile_pool()
    if workers() is not None:
        try:
            build_in_workers(warmups)
        except Exception as e:   # the threads below build what the workers did not
            log.info("kiln: building kernels in worker processes failed (%s: %s); building them on threads",
                     type(e).__name__, e)
    with triton.AsyncCompileMode(pool):
        built = [launch.fn.warmup(*args, grid=(1,), **launch.options) for launch, args in warmups]
    device = torch.cuda.current_device()
    list(pool.map(functools.partial(load_handles, device), [k.result() if hasattr(k, "result") else k for k in built]))


def load_handles(device, kernel):
    torch.cuda.set_device(device)   # (this thread's current device: the binary is loaded in its context)
    return kernel.run   # a property that builds the launcher (or finds it in the cache) and loads the binary, once


def build_in_workers(warmups):
    from triton import knobs
    from triton.runtime import driver
    target = driver.active.get_current_target()
    requests = []

    def capture(*, fn, compile, **_):
        requests.append((fn.jit_function.fn.__code__.co_filename, fn.jit_function.fn.__name__,
                         compile["specialization_data"], (target.backend, target.arch, target.warp_size)))
        return True   # not compiled here
    previous, knobs.runtime.jit_cache_hook = knobs.runtime.jit_cache_hook, capture
    try:
        for launch, args in warmups:
            launch.fn.warmup(*args, grid=(1,), **launch.options)
    finally:
        knobs.runtime.jit_cache_hook = previous
    idle = workers()
    errors = list(compile_pool().map(functools.partial(ask, idle), requests))
    failed = [e for e in errors if e is not None]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(requests)} kernels: {failed[0]}")


def ask(idle, request):
    worker = idle.get()
    try:
        data = pickle.dumps(request)
        worker.stdin.write(struct.pack("<I", len(data)) + data)
        worker.stdin.flush()
        header = worker.stdout.read(4)
        if len(header) < 4:
            workers.cache_clear()   # a worker died: later graphs start new ones
            raise RuntimeError("a kernel build worker exited")
        return pickle.loads(worker.stdout.read(struct.unpack("<I", header)[0]))
    finally:
        idle.put(worker)


def start_workers():
    """Starts the worker processes (at the first CUDA graph, so that they are ready when its kernels are)."""
    workers()


@functools.cache
def workers():
    """A queue of idle worker processes, one per compile thread; None where KILN_COMPILE_WORKERS=0."""
    if os.environ.get("KILN_COMPILE_WORKERS") == "0":
        return None
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "triton_worker.py")
    idle = queue.Queue()
    for _ in range(compile_pool()._max_workers):
        idle.put(subprocess.Popen([sys.executable, script], stdin=subprocess.PIPE, stdout=subprocess.PIPE))
    return idle


@functools.cache
def compile_pool():
    """Threads that feed the workers and load kernels, one per core unless KILN_COMPILE_THREADS says otherwise
    (started once, kept for the process's later graphs)."""
    threads = int(os.environ.get("KILN_COMPILE_THREADS") or os.cpu_count() or 1)
    return concurrent.futures.ThreadPoolExecutor(max(1, threads), thread_name_prefix="kiln-build")
