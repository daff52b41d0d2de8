"""Worker processes that build the Triton kernels of a graph just generated (issue 23).

On threads, kernels build largely one after another: Triton's front end (a kernel's AST to its first IR) and
its Python glue hold the GIL. So the kernels of a graph kiln has just generated are built by worker processes
(`build_worker.py`, started with `subprocess`, not `multiprocessing`, which would run the user's main module again
in each), into Triton's on-disk cache; the JIT of this process then finds each binary there and only loads it.

The JIT is joined where it compiles: while a graph's kernels are built ahead (`triton_launch.build_ahead`), each
kernel's JITFunction calls `InWorkers` instead of `triton.compile`. It sends the ASTSource's fields, the target and
the options to an idle worker, waits for its answer, then calls `triton.compile` as the JIT would have. A kernel a
worker fails to build (or a worker that died) is built by that call, here, as before; nothing depends on the
workers but time. A graph loaded from the graph cache does not use them: its kernels were built when it was stored.
"""
import functools
import inspect
import json
import logging
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading

log = logging.getLogger("kiln.codegen")
WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_worker.py")


class Worker:
    def __init__(self, env, target=None):
        # -P: the script's folder (kiln/runtime, which holds a profile.py) is not put on sys.path
        self.process = subprocess.Popen([sys.executable, "-P", WORKER] + ([json.dumps(target)] if target else []),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=env)

    def ask(self, job):
        """The worker's answer to job: None where it built the kernel, else the error's text. Raises OSError or
        EOFError where the worker is gone."""
        data = pickle.dumps(job)
        self.process.stdin.write(struct.pack("<Q", len(data)) + data)
        self.process.stdin.flush()
        head = self.process.stdout.read(8)
        if len(head) < 8:
            raise EOFError(f"build worker {self.process.pid} exited ({self.process.poll()})")
        return pickle.loads(self.process.stdout.read(struct.unpack("<Q", head)[0]))

    def stop(self):
        try:
            self.process.stdin.close()   # (the worker returns at the end of its input)
        except OSError:
            pass


class BuildPool:
    """count workers, started together by `start` (which returns at once: each takes the time of
    `import triton`), and handed out one job at a time. A worker that dies is replaced, up to count times; then
    the pool is spent, and each job raises at once."""

    def __init__(self, count):
        self.count, self.idle, self.lock, self.workers, self.env, self.deaths = \
            count, queue.SimpleQueue(), threading.Lock(), [], None, 0
        self.target = None

    def start(self, target=None):
        """Starts the workers, each warming up for target (GPUTarget's fields) where one is given."""
        with self.lock:
            if self.env is not None:
                return
            import triton
            self.env, self.target = dict(os.environ), target
            cache = getattr(getattr(getattr(triton, "knobs", None), "cache", None), "dir", None)
            if cache:   # (set in this process, perhaps not through the environment)
                self.env["TRITON_CACHE_DIR"] = cache
            for _ in range(self.count):
                self.idle.put(self.spawn())

    def spawn(self):
        worker = Worker(self.env, self.target)
        self.workers.append(worker)
        return worker

    def build(self, job):
        """Builds job on an idle worker (waiting for one). Raises RuntimeError with the worker's error where it
        failed, OSError or EOFError where the worker is gone, RuntimeError where the pool is spent."""
        self.start()
        worker = self.idle.get()
        if worker is None:
            self.idle.put(None)   # (for the next one waiting)
            raise RuntimeError("the build workers are spent")
        try:
            answer = worker.ask(job)
        except BaseException:
            with self.lock:
                self.deaths += 1
                self.idle.put(self.spawn() if self.deaths < self.count else None)
            raise
        self.idle.put(worker)
        if answer is not None:
            raise RuntimeError(answer)

    def stop(self):
        for w in self.workers:
            w.stop()


@functools.cache
def build_pool():
    """The process's pool: one worker per core, shared among the processes a launcher started on this machine
    (LOCAL_WORLD_SIZE), unless KILN_COMPILE_THREADS says how many; stopped at exit."""
    threads, local = os.environ.get("KILN_COMPILE_THREADS", ""), os.environ.get("LOCAL_WORLD_SIZE", "1")
    count = int(threads) if threads.isdigit() else (os.cpu_count() or 1) // (int(local) if local.isdigit() else 1)
    pool = BuildPool(max(1, count))
    import atexit
    atexit.register(pool.stop)
    return pool


class InWorkers:
    """Stands in for a JITFunction's `compile` while its kernels are built ahead: the kernel is built by a worker,
    then `triton.compile` (the JIT's own) finds it in Triton's cache. Where the worker fails, that call builds it."""

    def __init__(self, jit_function, pool):
        self.compile, self.pool = jit_function.compile, pool
        self.path, self.function = inspect.getfile(jit_function.fn), jit_function.fn.__name__

    def __call__(self, src, target=None, options=None, **kwargs):
        fields = {k: v for k, v in vars(src).items() if k != "fn"}
        try:
            self.pool.build((self.path, self.function, fields, target, options, kwargs))
        except Exception as e:
            log.debug("kiln: a build worker did not build %s (%s: %s); building it here", self.function,
                      type(e).__name__, e)
        return self.compile(src, target=target, options=options, **kwargs)


def current_target():
    """The current device's Triton target as [backend, arch, warp size] (what the workers warm up for), or None."""
    try:
        import triton
        target = triton.runtime.driver.active.get_current_target()
        return [target.backend, target.arch, target.warp_size]
    except Exception:
        return None
