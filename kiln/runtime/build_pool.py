"""Worker processes that build the Triton kernels of a graph just generated, and kiln's Triton matmul (issue 23).

On threads, kernels build largely one after another: Triton's front end (a kernel's AST to its first IR) and
its Python glue hold the GIL. So the kernels of a graph kiln has just generated are built by worker processes
(`build_worker.py`, started with `subprocess`, not `multiprocessing`, which would run the user's main module again
in each), into Triton's on-disk cache; the JIT of this process then finds each binary there and only loads it.

The JIT is joined where it compiles: while a graph's kernels are built ahead (`triton_launch.build_ahead`), each
generated kernel's JITFunction calls `InWorkers` instead of `triton.compile`. It sends the ASTSource's fields, the
target, the options and the cache key's environment to an idle worker, waits for its answer, then calls
`triton.compile` as the JIT would have. A worker builds only under the environment the key was computed from. A
kernel a worker does not build (or a worker that died) is built by that call, here, as before: nothing depends on
the workers but time. A graph loaded from the graph cache does not use them: its kernels were built when it was
stored. KILN_BUILD_WORKERS=0 turns them off.
"""
import functools
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
# runs the worker by path without putting its folder (kiln/runtime, which holds a profile.py) or the current one
# on sys.path (python -P would, from 3.11 on)
RUN_WORKER = ("import runpy, sys; del sys.path[0]; sys.argv = sys.argv[1:]; "
              "runpy.run_path(sys.argv[0], run_name='__main__')")
MAX_WORKERS = 32
# the files workers run: the kernel modules kiln generated (`triton_launch.load_module`), and its matmul's tile
GENERATED_FILES = set()


class Worker:
    def __init__(self, env, target=None):
        self.process = subprocess.Popen([sys.executable, "-c", RUN_WORKER, WORKER] +
                                        ([json.dumps(target)] if target else []),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=env)

    def ask(self, data):
        """The worker's answer to a pickled job: None where it built the kernel, else the error's text. Raises
        OSError or EOFError where the worker is gone."""
        self.process.stdin.write(struct.pack("<Q", len(data)) + data)
        self.process.stdin.flush()
        head = self.process.stdout.read(8)
        if len(head) < 8:
            raise EOFError(f"build worker {self.process.pid} exited ({self.process.poll()})")
        return pickle.loads(self.process.stdout.read(struct.unpack("<Q", head)[0]))

    def close_pipes(self):
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    def stop(self, wait=0.0):
        """Closes its pipes (a worker returns at the end of its input); kills it where it has not exited
        within wait seconds."""
        self.close_pipes()
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class BuildPool:
    """count workers, started together by `start` (which returns at once: each takes the time of
    `import triton`), and handed out one job at a time. A worker that dies is replaced, up to count times in
    all; past that, its place in the pool is empty, and a job that draws an empty place raises at once."""

    def __init__(self, count):
        self.count = count
        self.idle = queue.SimpleQueue()   # idle workers, and None for each empty place
        self.lock = threading.Lock()
        self.workers = []
        self.env = self.target = None
        self.deaths = 0

    def start(self, target=None):
        """Starts the workers, each warming up for target (GPUTarget's fields) where one is given."""
        with self.lock:
            if self.env is not None:
                return
            import triton
            env = dict(os.environ)
            cache = getattr(getattr(getattr(triton, "knobs", None), "cache", None), "dir", None)
            if cache:   # (set in this process, perhaps not through the environment)
                env["TRITON_CACHE_DIR"] = cache
            self.env, self.target = env, target
            for _ in range(self.count):
                self.idle.put(self.spawn())

    def spawn(self):
        """A new worker, or None where one cannot be started (its place stays empty)."""
        try:
            worker = Worker(self.env, self.target)
        except OSError as e:
            log.debug("kiln: a build worker did not start: %s", e)
            return None
        self.workers.append(worker)
        return worker

    def build(self, job):
        """Builds job on an idle worker (waiting for one). Raises RuntimeError with the worker's error where it
        did not build it, OSError or EOFError where the worker is gone, RuntimeError at an empty place."""
        data = pickle.dumps(job)   # (before a worker is taken: a job that cannot be sent is not its fault)
        self.start()
        worker = self.idle.get()
        if worker is None:
            self.idle.put(None)   # (for the next one waiting)
            raise RuntimeError("no build worker in this place")
        try:
            answer = worker.ask(data)
        except BaseException as e:   # gone (EOFError, OSError), or interrupted mid-answer: not used again
            worker.stop()
            with self.lock:
                self.deaths += isinstance(e, (EOFError, OSError))
                self.idle.put(self.spawn() if self.deaths < self.count else None)
            raise
        self.idle.put(worker)
        if answer is not None:
            raise RuntimeError(answer)

    def stop(self):
        for w in self.workers:
            w.stop(wait=1.0)


@functools.cache
def build_pool():
    """The process's pool, or None where KILN_BUILD_WORKERS=0. One worker per core this process may run on, at
    most 32, shared among the processes a launcher started on this machine (LOCAL_WORLD_SIZE), unless
    KILN_BUILD_WORKERS says how many. Stopped at exit."""
    chosen, local = os.environ.get("KILN_BUILD_WORKERS", ""), os.environ.get("LOCAL_WORLD_SIZE", "1")
    if chosen.isdigit():
        count = int(chosen)
        if count == 0:
            return None
    else:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        count = max(1, min(MAX_WORKERS, cores // (int(local) if local.isdigit() and int(local) > 0 else 1)))
    pool = BuildPool(count)
    import atexit
    atexit.register(pool.stop)
    return pool


def forget_in_child():
    """A forked child (a DataLoader's worker) does not share its parent's workers: it closes its copies of their
    pipes (so that they still end with the parent) and would start its own."""
    if build_pool.cache_info().currsize:
        pool = build_pool()
        for w in pool.workers if pool is not None else ():
            w.close_pipes()
        build_pool.cache_clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=forget_in_child)


def start_workers(target):
    """Starts the process's workers (for target: what they warm up for), where they are on."""
    pool = build_pool()
    if pool is not None:
        pool.start(target)


def current_target():
    """The current device's Triton target as [backend, arch, warp size] (what the workers warm up for), or None."""
    try:
        import triton
        target = triton.runtime.driver.active.get_current_target()
        return [target.backend, target.arch, target.warp_size]
    except Exception:
        return None


def joins(jit_function):
    """Whether a kernel is built by the workers: one of kiln's generated modules or its matmul's tile file (both
    import only Triton), defined at its top level (a worker runs that file and takes the kernel by name), while
    workers are on and Triton does not build every kernel anew anyway (TRITON_ALWAYS_COMPILE)."""
    import triton
    fn = jit_function.fn
    always = getattr(getattr(getattr(triton, "knobs", None), "compilation", None), "always_compile", False)
    return fn.__code__.co_filename in GENERATED_FILES and fn.__globals__.get(fn.__name__) is jit_function and \
        not always and build_pool() is not None


def join(jit_function, device, joined):
    """jit_function's builds go through the workers (InWorkers) until the caller restores joined[jit_function],
    its own compile. Its binder for device is made first: a device's first use makes one, which sets
    jit_function.compile anew."""
    jit_function.device_caches[device]
    own = jit_function.compile
    own = own.compile if isinstance(own, InWorkers) else own
    jit_function.compile = InWorkers(jit_function, joined.setdefault(jit_function, own))


class InWorkers:
    """Stands in for a JITFunction's `compile` while its kernels are built ahead: the kernel is built by a worker,
    then compile (the JIT's own) finds it in Triton's cache. Where the worker does not build it, compile does."""

    def __init__(self, jit_function, compile):
        self.compile, self.pool = compile, build_pool()
        self.path, self.function = jit_function.fn.__code__.co_filename, jit_function.fn.__name__

    def __call__(self, src, target=None, options=None, **kwargs):
        fields = {k: v for k, v in vars(src).items() if k != "fn"}
        try:
            self.pool.build((self.path, self.function, fields, target, options, kwargs))
        except Exception as e:
            log.debug("kiln: a build worker did not build %s (%s: %s); building it here", self.function,
                      type(e).__name__, e)
        return self.compile(src, target=target, options=options, **kwargs)
