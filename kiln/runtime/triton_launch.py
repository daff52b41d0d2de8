"""Loads a graph's generated Triton module from the on-disk cache, and builds its kernels ahead of the first call.

@triton.jit reads its function's source from a file, so the module is written to the cache
(atomically, named by the hash of its text) and run from there, after checking that the file still
holds that text. Triton caches the compiled binaries across processes itself (TRITON_CACHE_DIR).
"""
import collections
import concurrent.futures
import contextlib
import functools
import hashlib
import logging
import operator
import os
import threading
import time
import types
import weakref

import torch

from kiln.runtime.build_pool import GENERATED_FILES
from kiln.runtime.graph_cache import write_whole
from kiln.runtime.triton_binaries import COUNTS


def load_module(source, cache_dir):
    key = hashlib.sha256(source.encode()).hexdigest()[:24]
    folder = os.path.join(cache_dir, "triton")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"kiln_{key}.py")
    if not holds(path, source):   # missing, or cut short or edited since: write it again, whole
        write_whole(path, source)
    # run from the text just checked, not through import: that would trust a bytecode cache (__pycache__)
    # that nothing checks. @triton.jit reads each function's source back from path.
    module = types.ModuleType(f"kiln_{key}")
    module.__file__ = path
    exec(compile(source, path, "exec"), module.__dict__)
    GENERATED_FILES.add(path)
    return module


# the kernels of this process's graphs by their text: a kernel that another graph already defined (identical
# layers in a forward and a backward, in graphs split by a break) is launched by the same Launcher, built once
LAUNCHERS = weakref.WeakValueDictionary()


def launcher(module, function, text, num_warps, debug, binaries=None, num_stages=None):
    """The Launcher of kernel `function` of a kernel module (or of a function returning it, run only where the
    kernel must go through the JIT). binaries: where its binaries are stored (triton_binaries.BinaryStore)."""
    key = (function, text, num_warps, num_stages, debug)
    found = LAUNCHERS.get(key)
    if found is None:
        get = module if callable(module) else lambda: module
        found = LAUNCHERS[key] = Launcher(None, num_warps, debug, num_stages, binaries=binaries,
                                          get_fn=lambda: getattr(get(), function), dependent=waits_for_prior(text))
    elif found.binaries is None:
        found.binaries = binaries
    return found


def build_ahead(warmups, in_workers=False, launcher_built=None, on_loaded=None):
    """Builds the kernels of a graph before its first call, on a pool of threads: Triton's AsyncCompileMode runs
    each warmup's build on the pool; each kernel's binary is loaded into its device's context on the pool too, as
    soon as that kernel is built (`loaded`).
    warmups: (Launcher, CUDA device index, arguments as Triton's warmup takes them). A kernel in Triton's cache
    is loaded instead. in_workers: each thread has the kernel built by a worker process (`build_pool`),
    then loads it from Triton's cache, for the kernels of a graph just generated: Triton's front end holds the
    GIL, so on threads alone they would build largely one after another. launcher_built: the future of kiln's C
    launcher's load, where it is still loading. on_loaded(Launcher): called as each of its warmups is loaded (or
    fails to load: the kernel then builds at its launch), on the pool's thread. This is only ahead of time: where
    it fails, each kernel builds at its first launch."""
    joined = {}   # JITFunction -> its own compile, while its builds go through the workers
    try:
        import triton
        from kiln.runtime.build_pool import join, joins
        pool = compile_pool()
        built = []
        with triton.AsyncCompileMode(pool):
            for launch, device, args in warmups:
                with torch.cuda.device(device):
                    fn = launch.fn
                    if in_workers and (fn in joined or joins(fn)):
                        join(fn, triton.runtime.driver.active.get_current_device(), joined)
                    built.append((device, fn.warmup(*args, grid=(1,), **launch.options)))
            # each kernel's handles are loaded once it is built, while others still build (a load waits only on a
            # build submitted before it, never on a task queued behind it)
            loads = [pool.submit(load_handles, b, launcher_built) for b in built]
            for (launch, _, _), handles in zip(warmups, loads) if on_loaded else ():
                handles.add_done_callback(lambda _, launch=launch: on_loaded(launch))
            # every load ends before one's failure is raised: leaving AsyncCompileMode on that failure, Triton 3.6
            # finishes no other build, and the graph's kernels still building would be released to build again
            concurrent.futures.wait(loads)
            for handles in loads:
                handles.result()
    except Exception as e:
        logging.getLogger("kiln.codegen").info("kiln: building kernels ahead failed (%s: %s); each builds at its "
                                               "first launch", type(e).__name__, e)
    finally:
        for fn, compile in joined.items():
            fn.compile = compile


def build_behind(warmups, cache_dir, in_workers):
    """Builds a graph's kernels in the background (build_ahead), with kiln's C launcher (which its first launches
    need): its compile returns while they build, and each of its Launchers waits at its first launch for its own
    kernel's build (`Launcher.building`), not the graph's: the first call runs its first kernels, and its library
    calls (a convolution's first planning), while later kernels build. So a training step's backward is lowered
    while its forward's kernels build (`capture.compile_backward_ahead`). Graphs build one after another, in the
    order they were loaded."""
    waiting = collections.Counter(id(launch) for launch, _, _ in warmups)   # each Launcher's warmups not loaded
    ready = {key: concurrent.futures.Future() for key in waiting}
    lock = threading.Lock()

    def loaded(launch):
        with lock:
            waiting[id(launch)] -= 1
            # (None where the build already ended and released every Launcher: a load's callback can run after
            # the wait on it returned)
            future = ready.pop(id(launch), None) if waiting[id(launch)] == 0 else None
        if future is not None:
            future.set_result(None)

    def build():
        try:
            launcher_built = compile_pool().submit(load_c_launcher, cache_dir)
            build_ahead(warmups, in_workers, launcher_built, loaded)
            launcher_built.result()
        finally:   # (where building ahead failed, each kernel builds at its first launch)
            with lock:
                rest = list(ready.values())
                ready.clear()
            for future in rest:
                future.set_result(None)
    for launch in {id(w[0]): w[0] for w in warmups}.values():
        launch.building.append(ready[id(launch)])
    background_thread().submit(build)


@functools.cache
def background_thread():
    return concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kiln-build-behind")


def wait_for(build):
    """Waits for a build in the background; the seconds a first call waited show in kiln.stats()."""
    if not build.done():
        started = time.perf_counter()
        concurrent.futures.wait([build])
        COUNTS["seconds_waiting_for_builds"] += time.perf_counter() - started


def finished(build):
    """The compiled kernel Triton's JIT returned: a build under AsyncCompileMode (a FutureKernel, on the pool or
    found in the JIT's cache) awaited."""
    return build.result() if hasattr(build, "result") else build


def load_handles(built, launcher_built=None):
    """Loads a kernel built ahead: its binary, for kiln's C launcher; and Triton's launcher too (`run`, a C extension
    built per signature), where kiln's cannot launch it. The build is awaited first: a build under AsyncCompileMode
    is a FutureKernel, which Triton 3.6 puts in its JITFunction's cache only once its result is asked for, and
    whose only attribute there is that result (reading its metadata failed the load, and the kernel's first launch,
    released by that failure, found nothing in the cache and compiled it again on the main thread: the first kernel
    of each graph, 0.73 s of BERT's cold first call on an H100, bench/NOTES.md 120)."""
    device, kernel = built[0], finished(built[1])
    if launcher_built is not None:
        launcher_built.result()
    if launch_variant is not None and launchable(kernel.metadata):
        return loaded(kernel, device)
    with torch.cuda.device(device):
        return kernel.run


@functools.cache
def compile_pool():
    """Threads for building kernels, one per core unless KILN_COMPILE_THREADS says otherwise (started once,
    kept for the process's later graphs)."""
    threads = os.environ.get("KILN_COMPILE_THREADS", "")
    threads = int(threads) if threads.isdigit() else os.cpu_count() or 1
    return concurrent.futures.ThreadPoolExecutor(max(1, threads), thread_name_prefix="kiln-build")


def holds(path, source):
    try:
        with open(path) as f:
            return f.read() == source
    except (OSError, UnicodeDecodeError):
        return False


def jit_options(num_warps, debug=False, num_stages=None, dependent=False):
    """The options a Launcher passes Triton's JIT (Triton resolves the rest from its knobs)."""
    return {"num_warps": num_warps, **({"debug": True} if debug else {}),
            **({"num_stages": num_stages} if num_stages is not None else {}),
            **({"launch_pdl": True} if dependent else {})}


# a kernel's first statement where it launches as a programmatic dependent (Hopper's PDL: it is launched ahead, and
# its programs start as the kernel before it in the stream finishes). It lets its own dependent start only as its
# programs exit, not by an early gdc_launch_dependents: programs started early hold their SMs while they wait, and
# with them a layer norm's backward took 14.0 us a call where 11.2 without (H200, bench/NOTES.md 94). The codegen
# writes it (codegen/triton.py) where dependent_launch_supported says the device takes it.
GRID_DEPENDENCY = ("    gdc_wait()",)


def waits_for_prior(text):
    """Whether a kernel's text waits for the kernel before it in the stream, as one launched as a programmatic
    dependent must, before it reads or writes anything: only such a kernel is launched as one."""
    return "\n".join(GRID_DEPENDENCY) in text


@functools.cache
def dependent_launch_supported(device):
    """Whether kernels on this CUDA device (its index) may launch as programmatic dependents: a Hopper or later GPU,
    and a Triton with grid dependency control."""
    if interpreting() or not torch.cuda.is_available():
        return False
    try:
        from triton.language.extra.cuda import gdc_wait  # noqa: F401
    except ImportError:
        return False
    return torch.cuda.get_device_capability(device) >= (9, 0)


class Launcher:
    """Launches one generated kernel. The first call with a specialization goes through Triton's JIT (which
    compiles, or loads from Triton's cache); later calls with it launch the compiled binary directly: through
    kiln's C launcher (cuda_launch.c), which checks that the arguments fit the variant of the last launch and
    calls the driver, else through Triton's binary launcher, skipping the JIT's per-call argument binding. A
    kernel defined once for many launches (a model's repeated layers, graphs of other sizes, dtypes and
    devices) sees several specializations: each is kept, keyed by all that Triton compiles a variant for. Each
    variant's binary is stored (triton_binaries), and a graph loaded from the graph cache launches those first,
    where the arguments fit, without the JIT."""

    def __init__(self, fn, num_warps, debug=False, num_stages=None, binaries=None, get_fn=None, dependent=False):
        # fn: the JITFunction; or get_fn, a function returning it (a warm start runs the kernel module only for the
        # JIT). dependent: launched as a programmatic dependent (its text waits_for_prior)
        self.get_fn = get_fn or (lambda: fn)
        self.options = jit_options(num_warps, debug, num_stages, dependent)
        self.compiled = {}   # specialization -> compiled kernel
        self.variants = {}   # specialization -> its variant in kiln's C launcher, where it has one
        self.fast = None   # (variant, device) of the last launch
        self.direct = not interpreting()
        self.pointers = self.ints = self.exact = None
        self.binaries = binaries   # where this kernel's binaries are stored (triton_binaries), or None
        self.stored = []   # (variant, device) of each binary loaded from there
        self.stored_devices = set()
        self.building = []   # the futures of the builds in the background (build_behind) that build it

    @functools.cached_property
    def fn(self):
        return self.get_fn()

    def load_stored(self, device):
        """Loads this kernel's stored binaries built for `device` (once), as variants of kiln's C launcher;
        returns how many this Launcher holds for it."""
        if device not in self.stored_devices and self.binaries is not None and launch_variant is not None and \
                self.direct and not load_hooked():
            self.stored_devices.add(device)
            for record in self.binaries.records(device):
                try:
                    threads, shared, scratch, specs, dependent = record["launch"]
                    with torch.cuda.device(device):
                        handles = load_binary(record["name"], record["binary"], shared, device)
                        if len(handles) > 4 and threads > handles[4]:
                            continue
                        self.stored.append((make_variant(handles[1], threads, shared, scratch, specs, dependent,
                                                         record["name"]), device))
                    COUNTS["kernel_binaries_loaded"] += 1
                except Exception as e:   # (the JIT builds it)
                    logging.getLogger("kiln.codegen").debug("kiln: stored binary of %s not loaded: %s: %s",
                                                            record.get("name"), type(e).__name__, e)
        return sum(d == device for _, d in self.stored)

    def specialization(self, args):
        """The device; each pointer's dtype and 16-byte alignment; whether each int is 1, divisible by 16, and
        within 32 bits (Triton compiles a larger one as int64: a variant built for int32 would truncate it); and
        each constexpr's value (the block sizes: the same kernel text launches with others at other sizes)."""
        pointers = self.pick_pointers(args)   # (itemgetters and list comprehensions: this runs at every launch)
        return (pointers[0].get_device() if pointers else 0,
                tuple([(p.dtype, p.data_ptr() % 16 == 0) for p in pointers]),
                tuple([(i == 1, i % 16 == 0, -INT32 <= i < INT32) for i in self.pick_ints(args)]),
                self.pick_exact(args))

    def __call__(self, grid, *args):
        fast = self.fast   # the variant of the last launch, in kiln's C launcher: it checks the arguments fit
        if fast is not None and launch_variant(fast[0], grid, get_raw_stream(fast[1]), args):
            return
        for stored in self.stored:   # binaries stored by an earlier process: launched where the arguments fit
            if launch_variant(stored[0], grid, get_raw_stream(stored[1]), args):
                self.fast = stored
                return
        key = self.specialization(args) if self.pointers is not None else None
        compiled = self.compiled.get(key)
        if compiled is None:
            while self.building:   # built in the background: wait for that, rather than build it here too
                wait_for(self.building.pop(0))
            if not self.direct:   # (Triton's interpreter; or Triton's launcher refused the direct call below)
                self.fn[(grid,)](*args, **self.options)
                return
            key, compiled = self.compile(grid, args)
        fast = self.variants.get(key)
        if fast is not None and launch_variant(fast[0], grid, get_raw_stream(fast[1]), args):
            self.fast = fast
            return
        try:   # Triton's launcher (built now, where this variant needs it)
            compiled.run(grid, 1, 1, get_raw_stream(key[0]), compiled.function, compiled.packed_metadata,
                         None, None, None, *args)
        except TypeError as e:   # a Triton whose launcher takes other arguments: use the JIT path
            logging.getLogger("kiln.codegen").warning("kiln: direct Triton launch unavailable (%s); "
                                                      "launching through the JIT", e)
            self.direct, self.compiled, self.variants, self.fast = False, {}, {}, None
            self.fn[(grid,)](*args, **self.options)

    def compile(self, grid, args):
        """The specialization of args, and its kernel, built or found by Triton's JIT without launching it (a launch
        there would build Triton's launcher for it too), made a variant of kiln's C launcher where it can be and
        stored (triton_binaries)."""
        compiled = finished(self.fn.warmup(*args, grid=(grid,), **self.options))
        if self.pointers is None:
            # constexprs are matched by value; where Triton does not say which they are, every int is
            constexprs = getattr(self.fn, "constexprs", None)
            ints = [i for i, a in enumerate(args) if isinstance(a, int)]
            self.exact = ints if constexprs is None else [i for i in ints if i in constexprs]
            self.ints = [i for i in ints if i not in self.exact]
            self.pointers = [i for i, a in enumerate(args) if hasattr(a, "data_ptr")]
            self.pick_pointers, self.pick_ints, self.pick_exact = map(picker, (self.pointers, self.ints, self.exact))
        key = self.specialization(args)
        self.compiled[key] = compiled
        device = torch.cuda.current_device()   # (the variant's context, whose stream it launches on)
        launch = launch_spec(compiled, args)
        fast = variant(compiled, launch, device)
        if fast is not None:
            self.variants[key] = (fast, device)
            if self.binaries is not None:
                self.binaries.put(compiled, launch, device)
        return key, compiled


def variant(compiled, launch, device):
    """compiled's variant in kiln's C launcher for its launch_spec, in device's context (None where there is none)."""
    if launch is None:
        return None
    try:
        handles = loaded(compiled, device)
        if len(handles) > 4 and launch[0] > handles[4] or launch[1] > max_shared_memory(device):
            return None   # (Triton's launch says which resource it lacks)
        return make_variant(handles[1], *launch, compiled)
    except Exception as e:   # Triton's launcher launches it
        logging.getLogger("kiln.codegen").debug("kiln: no C launch for %s: %s: %s", getattr(compiled, "name", "?"),
                                                type(e).__name__, e)
        return None


LOADED = weakref.WeakKeyDictionary()   # a compiled kernel -> {device: its load_binary handles there}
LOADING = threading.Lock()   # (the driver's load releases the GIL: two threads would load one binary twice)


def loaded(compiled, device):
    """compiled's binary loaded into device's context (once): load_binary's handles. Loaded by kiln, not through
    Triton's `run`, which would also build Triton's launcher for it, a C extension compiled with the system
    compiler per signature (35 of them for HF ResNet-18's cold training step), that kiln's launches do not need."""
    on_devices = LOADED.get(compiled, {})
    if device not in on_devices:
        with LOADING:
            on_devices = LOADED.setdefault(compiled, {})
            if device not in on_devices:
                with torch.cuda.device(device):
                    on_devices[device] = load_binary(compiled.name, compiled.kernel, compiled.metadata.shared,
                                                     device)
    return on_devices[device]


@functools.cache
def max_shared_memory(device):
    from triton.runtime.driver import driver
    return driver.active.utils.get_device_properties(device)["max_shared_mem"]


def launch_spec(compiled, args):
    """What kiln's C launcher needs to launch compiled for arguments like args: (threads, shared memory, scratch
    pointers, each argument's spec, whether it launches as a programmatic dependent). None where that launcher is
    not loaded, or the launch needs what only Triton's does: several CTAs, cooperative grids, scratch memory, launch
    hooks, tensor descriptors, instrumentation, or arguments of other types."""
    if launch_variant is None:
        return None
    try:
        meta = compiled.metadata
        if not launchable(meta):
            return None
        # Triton's kernels take a pointer for each scratch space its metadata sizes (none here), after the arguments
        scratch = sum(hasattr(meta, size) for size in SCRATCH)
        src = compiled.src
        if len(args) != len(src.fn.arg_names):   # (Triton fills in defaults, which the C launcher would not pass)
            return None
        position = lambda k: src.fn.arg_names.index(k) if isinstance(k, str) else k[0] if isinstance(k, tuple) else k
        types = {position(k): t for k, t in src.signature.items()}
        constants = {position(k) for k in getattr(src, "constants", {})}
        specs = []
        for i, a in enumerate(args):
            kind = types.get(i)
            if kind == "constexpr" or i in constants:
                if type(a) not in (int, bool):
                    return None
                specs.append(("b" if type(a) is bool else "c", 0, None, int(a)))
            elif kind.startswith("*") and isinstance(a, torch.Tensor):
                specs.append(("p", a.data_ptr() % 16 == 0, a.dtype, 0))
            elif kind in ("i32", "i64") and type(a) is int:
                specs.append(("i" if kind == "i32" else "l", a % 16 == 0, None, 0))
            elif kind in ("fp32", "fp64") and type(a) is float:
                specs.append(("f" if kind == "fp32" else "d", 0, None, 0))
            else:
                return None
        return 32 * meta.num_warps, meta.shared, scratch, tuple(specs), bool(getattr(meta, "launch_pdl", False))
    except Exception as e:   # Triton's launcher launches it
        logging.getLogger("kiln.codegen").debug("kiln: no C launch for %s: %s: %s", getattr(compiled, "name", "?"),
                                                type(e).__name__, e)
        return None


SCRATCH = ("global_scratch_size", "profile_scratch_size")


def launchable(meta):
    """Whether kiln's C launcher can launch a kernel of this Triton metadata, as far as the metadata says: one CTA,
    no cooperative grid, scratch memory, tensor descriptors, tensor memory or instrumentation, and no launch or
    load hook of Triton's set (Triton's launcher and loader run those)."""
    from triton import knobs
    return getattr(meta, "num_ctas", 1) == 1 and not getattr(meta, "launch_cooperative_grid", False) and \
        not getattr(meta, "tensordesc_meta", None) and \
        not getattr(meta, "instrumentation_mode", "") and not getattr(meta, "tmem_size", None) and \
        not any(getattr(meta, size, 0) for size in SCRATCH) and not load_hooked() and \
        not any(hooked(getattr(knobs.runtime, h, None)) for h in ("launch_enter_hook", "launch_exit_hook"))


def hooked(hook):
    """Whether a launch hook of Triton's is set (a HookChain is one even when empty: its calls say)."""
    return hook is not None and bool(getattr(hook, "calls", True))


def load_binary(name, binary, shared, device):
    """Triton's driver loads a binary into the device's context: (module, function, registers, spills, most
    threads a block may have)."""
    from triton.runtime.driver import driver
    return driver.active.utils.load_binary(name, binary, shared, device)


def load_hooked():
    """Whether a hook of Triton's runs where its kernels' binaries are loaded (those kiln stored are not loaded
    through Triton)."""
    from triton import knobs
    return any(hooked(getattr(knobs.runtime, h, None)) for h in ("kernel_load_start_hook", "kernel_load_end_hook"))


# kiln's C launcher (cuda_launch.c), once loaded: make_variant(function, threads, shared, scratch, args, dependent,
# owner) and
# launch_variant(variant, programs, stream, args) -> whether it launched
make_variant = launch_variant = None


@functools.cache   # (tried once a cache folder: where the build fails, later graphs do not run g++ again)
def load_c_launcher(cache_dir):
    """Builds (or finds in the kernel cache) and imports kiln's C launcher, once a process; KILN_TRITON_LAUNCHER=1
    keeps Triton's. Where it cannot be built or loaded, Triton's launcher launches every kernel."""
    global make_variant, launch_variant
    if launch_variant is not None or os.environ.get("KILN_TRITON_LAUNCHER") == "1":
        return
    import importlib.util
    import sysconfig

    from kiln.runtime import cpp_build
    try:
        with open(os.path.join(os.path.dirname(__file__), "cuda_launch.c")) as f:
            source = f.read()
        path = cpp_build.build(source, cache_dir, ["-I" + sysconfig.get_paths()["include"], "-ldl"])
        spec = importlib.util.spec_from_file_location("kiln_cuda_launch", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        make_variant, launch_variant = module.variant, module.launch
    except Exception as e:
        logging.getLogger("kiln.codegen").info("kiln: the C launcher is not available (%s: %s); Triton's launches "
                                               "every kernel", type(e).__name__, e)


def picker(indices):
    """A function returning the arguments at these indices, as a tuple."""
    if len(indices) == 1:
        return lambda args, i=indices[0]: (args[i],)
    return operator.itemgetter(*indices) if indices else lambda args: ()


INT32 = 2 ** 31
WIDE_FROM = INT32   # offsets (in elements) from which kiln's hand-written kernels compute them in 64 bits


def on_device(t):
    """The context that makes t's device current (its stream the one a kernel launches on)."""
    return torch.cuda.device(t.device) if t.is_cuda else contextlib.nullcontext()


def get_raw_stream(device):
    return torch._C._cuda_getCurrentRawStream(device)


def interpreting():
    return os.environ.get("TRITON_INTERPRET") == "1"
