"""kiln's C launcher (kiln/runtime/cuda_launch.c), run against a stand-in for the CUDA driver that records each
launch: the arguments reach the kernel as its parameters, in the types Triton compiled it for, with constants
left out and scratch pointers after; and a launch whose arguments do not fit the variant (dtype, alignment,
divisibility, a constant, the int's width, the device's context) launches nothing and says so, so that the
caller takes the path that builds the variant that fits. A launch with wrong parameters would write to the wrong
memory on a GPU, so every check is tested here, where CI has none."""
import contextlib
import ctypes
import logging
import pickle
import struct
import subprocess
import threading
import time

import pytest
import torch

from kiln.runtime import triton_launch

DRIVER = r'''
#include <stdint.h>
#include <string.h>
static void *context = (void *)0x1000;
extern "C" {
int expected_params;
uint64_t params_seen[32];
unsigned long long launches, grid_seen, threads_seen, shared_seen;
void *function_seen, *stream_seen;
int cuCtxGetCurrent(void **c) { *c = context; return 0; }
void set_context(void *c) { context = c; }
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra) {
  launches++;
  grid_seen = gx * gy * gz;
  threads_seen = bx * by * bz;
  shared_seen = shared;
  function_seen = f;
  stream_seen = stream;
  for (int i = 0; i < expected_params; i++) memcpy(&params_seen[i], params[i], 8);
  return 0;
}
}
'''

# cuLaunchKernelEx, declared by the CUDA driver's own header (Triton's copy): its config and attribute structs are
# cuda.h's, which kiln's launcher spells out itself
DRIVER_EX = r'''
#include <string.h>
#include <cuda.h>
extern "C" {
extern int expected_params;
extern uint64_t params_seen[32];
extern unsigned long long grid_seen, threads_seen, shared_seen;
extern void *function_seen, *stream_seen;
unsigned long long ex_launches;
int attributes_seen, attribute_id_seen, attribute_value_seen;
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params, void **extra) {
  ex_launches++;
  grid_seen = config->gridDimX * config->gridDimY * config->gridDimZ;
  threads_seen = config->blockDimX * config->blockDimY * config->blockDimZ;
  shared_seen = config->sharedMemBytes;
  function_seen = (void *)f;
  stream_seen = (void *)config->hStream;
  attributes_seen = config->numAttrs;
  attribute_id_seen = config->numAttrs ? (int)config->attrs[0].id : -1;
  attribute_value_seen = config->numAttrs ? config->attrs[0].value.programmaticStreamSerializationAllowed : -1;
  for (int i = 0; i < expected_params; i++) memcpy(&params_seen[i], params[i], 8);
  return CUDA_SUCCESS;
}
}
'''


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    import os

    import triton
    folder = tmp_path_factory.mktemp("driver")
    (folder / "driver.cpp").write_text(DRIVER)
    (folder / "driver_ex.cpp").write_text(DRIVER_EX)
    headers = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "include")
    subprocess.run(["g++", "-shared", "-fPIC", "-I" + headers, "driver.cpp", "driver_ex.cpp", "-o", "libdriver.so"],
                   cwd=folder, check=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("KILN_CUDA_DRIVER", str(folder / "libdriver.so"))   # read at the first variant, once a process
    mp.setattr(triton_launch, "make_variant", None)
    mp.setattr(triton_launch, "launch_variant", None)
    triton_launch.load_c_launcher(str(tmp_path_factory.mktemp("cache")))
    assert triton_launch.launch_variant is not None, "the C launcher did not build"
    yield ctypes.CDLL(str(folder / "libdriver.so"))   # (the same library the launcher opened: its globals)
    mp.undo()


class OnDevice:
    """A CPU tensor's dtype and address, as a CUDA tensor shows them (the launcher reads no more)."""
    is_cuda = True

    def __init__(self, t):
        self.dtype, self.address = t.dtype, t.data_ptr()

    def data_ptr(self):
        return self.address

    def get_device(self):
        return 0


def test_arguments_reach_the_kernel_in_its_parameter_types(driver):
    t = OnDevice(torch.zeros(64))
    assert t.data_ptr() % 16 == 0
    specs = (("p", True, torch.float32, 0), ("i", False, None, 0), ("l", False, None, 0), ("c", 0, None, 128),
             ("f", 0, None, 0), ("d", 0, None, 0))
    variant = triton_launch.make_variant(0xABC, 128, 1024, 2, specs, False, None)
    ctypes.c_int.in_dll(driver, "expected_params").value = 7
    before = ctypes.c_ulonglong.in_dll(driver, "launches").value
    assert triton_launch.launch_variant(variant, 5, 0x77, (t, -7, 2 ** 40 + 3, 128, 0.5, 0.25)) is True
    assert ctypes.c_ulonglong.in_dll(driver, "launches").value == before + 1
    seen = list((ctypes.c_uint64 * 7).in_dll(driver, "params_seen"))
    assert seen[0] == t.data_ptr()
    assert struct.unpack("<i", struct.pack("<Q", seen[1])[:4])[0] == -7   # 32 bits
    assert seen[2] == 2 ** 40 + 3
    assert struct.unpack("<f", struct.pack("<Q", seen[3])[:4])[0] == 0.5   # the constant 128 is not passed
    assert struct.unpack("<d", struct.pack("<Q", seen[4]))[0] == 0.25
    assert seen[5:] == [0, 0]   # Triton's scratch pointers, unused
    assert [ctypes.c_ulonglong.in_dll(driver, n).value for n in ("grid_seen", "threads_seen", "shared_seen")] == \
        [5, 128, 1024]
    assert ctypes.c_void_p.in_dll(driver, "function_seen").value == 0xABC
    assert ctypes.c_void_p.in_dll(driver, "stream_seen").value == 0x77


def test_a_dependent_variant_launches_as_a_programmatic_dependent(driver):
    """A variant of a kernel that waits for the kernel before it (dependent) launches through cuLaunchKernelEx, with
    the one attribute that lets it start while that kernel finishes, and the same grid, block, shared memory,
    stream and parameters as a plain launch; a plain variant still launches through cuLaunchKernel."""
    t = OnDevice(torch.zeros(64))
    specs = (("p", True, torch.float32, 0), ("i", False, None, 0), ("c", 0, None, 128))
    counts = lambda: [ctypes.c_ulonglong.in_dll(driver, n).value for n in ("launches", "ex_launches")]  # noqa: E731
    ctypes.c_int.in_dll(driver, "expected_params").value = 2
    for dependent in (True, False):
        variant = triton_launch.make_variant(0xD0, 256, 4096, 2, specs, dependent, None)
        before = counts()
        ctypes.c_int.in_dll(driver, "attributes_seen").value = -1
        assert triton_launch.launch_variant(variant, 7, 0x99, (t, -3, 128)) is True
        assert counts() == ([before[0], before[1] + 1] if dependent else [before[0] + 1, before[1]])
        assert [ctypes.c_ulonglong.in_dll(driver, n).value for n in ("grid_seen", "threads_seen", "shared_seen")] == \
            [7, 256, 4096]
        assert ctypes.c_void_p.in_dll(driver, "function_seen").value == 0xD0
        assert ctypes.c_void_p.in_dll(driver, "stream_seen").value == 0x99
        assert list((ctypes.c_uint64 * 2).in_dll(driver, "params_seen"))[0] == t.data_ptr()
        if dependent:   # (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, allowed)
            assert [ctypes.c_int.in_dll(driver, n).value for n in
                    ("attributes_seen", "attribute_id_seen", "attribute_value_seen")] == [1, 6, 1]


def test_arguments_that_do_not_fit_the_variant_launch_nothing(driver):
    cpu = torch.zeros(64)
    t = OnDevice(cpu)
    specs = (("p", True, torch.float32, 0), ("i", False, None, 0), ("l", False, None, 0), ("c", 0, None, 128),
             ("f", 0, None, 0))
    variant = triton_launch.make_variant(0xABC, 128, 0, 0, specs, False, None)
    ctypes.c_int.in_dll(driver, "expected_params").value = 4
    launches = lambda: ctypes.c_ulonglong.in_dll(driver, "launches").value   # noqa: E731
    fits = (t, 7, 2 ** 40 + 3, 128, 0.5)
    before = launches()
    assert triton_launch.launch_variant(variant, 3, 0, fits) is True
    assert launches() == before + 1
    unfit = {"another dtype": (OnDevice(cpu.double()), 7, 2 ** 40 + 3, 128, 0.5),
             "misaligned": (OnDevice(cpu[1:]), 7, 2 ** 40 + 3, 128, 0.5),
             "a CPU tensor": (cpu, 7, 2 ** 40 + 3, 128, 0.5),
             "divisible by 16": (t, 16, 2 ** 40 + 3, 128, 0.5),
             "1 (a constant to Triton)": (t, 1, 2 ** 40 + 3, 128, 0.5),
             "past 32 bits": (t, 2 ** 31, 2 ** 40 + 3, 128, 0.5),
             "past 32 bits, below": (t, -2 ** 31 - 1, 2 ** 40 + 3, 128, 0.5),
             "within 32 bits (an int32 to Triton)": (t, 7, 5, 128, 0.5),
             "past 64 bits": (t, 7, 2 ** 64 + 3, 128, 0.5),
             "a bool for an int": (t, True, 2 ** 40 + 3, 128, 0.5),
             "another constant": (t, 7, 2 ** 40 + 3, 64, 0.5),
             "a float for an int": (t, 7.0, 2 ** 40 + 3, 128, 0.5),
             "an int for a float": (t, 7, 2 ** 40 + 3, 128, 3),
             "a tensor for an int": (t, t, 2 ** 40 + 3, 128, 0.5),
             "one argument fewer": (t, 7, 2 ** 40 + 3, 128)}
    for why, args in unfit.items():
        assert triton_launch.launch_variant(variant, 3, 0, args) is False, why
    assert triton_launch.launch_variant(variant, 2 ** 31, 0, fits) is False   # more programs than a grid's x holds
    assert triton_launch.launch_variant(variant, 2 ** 32 + 3, 0, fits) is False
    for edge in (2 ** 31 - 1, -2 ** 31 + 3):   # int32's edges (neither divisible by 16)
        assert triton_launch.launch_variant(variant, 3, 0, (t, edge, 2 ** 40 + 3, 128, 0.5)) is True
    assert launches() == before + 3
    before = launches()
    driver.set_context.argtypes = [ctypes.c_void_p]
    driver.set_context(0x2000)   # another device current: its context does not hold the function
    try:
        assert triton_launch.launch_variant(variant, 3, 0, fits) is False
    finally:
        driver.set_context(0x1000)
    assert triton_launch.launch_variant(variant, 0, 0, fits) is True   # an empty grid: nothing to launch
    assert launches() == before


KERNELS = '''
import triton
import triton.language as tl

@triton.jit
def scale_shift(x, y, n, m, s, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(y + i, tl.load(x + i, mask=i < n) * s + m, mask=i < n)

@triton.jit
def with_default(x, n, s=0.5, B: tl.constexpr = 128):
    i = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(x + i, tl.load(x + i, mask=i < n) * s, mask=i < n)
'''


def compile_as_the_jit(fn, args):
    """fn compiled for an H100 (no GPU needed) as Triton's JIT compiles it for args."""
    triton = pytest.importorskip("triton")
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    try:
        from triton.backends.nvidia.compiler import CUDABackend
        from triton.runtime.jit import create_function_from_signature
    except ImportError:
        pytest.skip("this Triton binds a launch's arguments otherwise")
    target = GPUTarget("cuda", 90, 32)
    backend = CUDABackend(target)
    bound, specialization, options = create_function_from_signature(fn.signature, fn.params, backend)(*args)
    options, signature, constexprs, attrs = fn._pack_args(backend, {}, bound, specialization, options)
    return triton.compile(ASTSource(fn, signature, constexprs, attrs), target=target, options=options.__dict__)


def test_a_variant_passes_the_parameters_the_compiled_kernel_takes(tmp_path, monkeypatch):
    """variant() reads a compiled kernel's signature and constants to say what the C launcher passes. Kernels
    specialized as Triton's JIT specializes them (an int of 1 becomes a constant, one past 32 bits an int64, a
    float an fp32; constexprs are not passed) and compiled for a GPU (no GPU needed here): the parameters passed
    are the PTX entry's, in order and width, then Triton's two scratch pointers. A launch that leaves a default
    to Triton gets no variant (the C launcher would not pass it)."""
    import re
    module = triton_launch.load_module(KERNELS, str(tmp_path))
    made = []
    monkeypatch.setattr(triton_launch, "launch_variant", object())   # (as if loaded)
    monkeypatch.setattr(triton_launch, "make_variant", lambda *a: made.append(a) or a)
    # (no GPU: the binary is not loaded; its function is 0x1234)
    monkeypatch.setattr(triton_launch, "load_binary", lambda *a: (1, 0x1234, 0, 0, 1024))
    monkeypatch.setattr(triton_launch, "max_shared_memory", lambda device: 227 * 1024)
    monkeypatch.setattr(torch.cuda, "device", lambda device: contextlib.nullcontext())
    width = {"p": "u64", "i": "u32", "l": "u64", "f": "f32", "d": "f64"}
    x = torch.zeros(64)
    for args in [(x, x, 7, 3, 0.5, 128), (x, x, 16, 2 ** 40, 2.0, 64), (x, x[1:], 1, -2 ** 31, 1.0, 32),
                 (x, x, 2 ** 31, 1, 0.5, 16)]:
        compiled = compile_as_the_jit(module.scale_shift, args)
        found = triton_launch.variant(compiled, triton_launch.launch_spec(compiled, args), 0)
        assert found is not None, args
        function, threads, shared, scratch, specs, dependent, owner = found
        entry = re.search(r"\.entry[^{]*", compiled.asm["ptx"], re.S).group(0)
        assert [width[k] for k, *_ in specs if k != "c"] + ["u64"] * scratch == re.findall(r"\.param\s+\.(\w+)", entry)
        assert scratch == 2 and threads == 32 * compiled.metadata.num_warps and owner is compiled and \
            function == 0x1234 and dependent is False
        assert compiled._run is None   # (Triton's launcher for it is not built)
        assert [v for k, _, _, v in specs if k == "c"] == [a for i, a in enumerate(args)   # B, and ints of 1
                                                           if i == 5 or (type(a) is int and a == 1)]
    compiled = compile_as_the_jit(module.with_default, (x, 7))
    assert triton_launch.launch_spec(compiled, (x, 7)) is None


def test_kilns_matmul_launches_through_kilns_launcher(driver):
    """kiln's Triton matmul (max-autotune's, and the stand-in for the library where a head's rows are misaligned)
    takes bools as constexprs (BIAS, WIDE, EVEN_K): its variant of kiln's C launcher passes the PTX entry's
    parameters without them, and launches only where each is the same bool again. Such a kernel went through
    Triton's launcher, built with the system compiler at the first call (0.31 s of BERT's cold first call on an
    H100, bench/NOTES.md 120)."""
    import re
    from kiln.runtime import matmul
    a, b = torch.zeros(64, 128, dtype=torch.bfloat16), torch.zeros(128, 48, dtype=torch.bfloat16)
    _, args = matmul.launch_args(a, b, None, matmul.empty_result(a, b), matmul.CONFIGS[-1])
    compiled = compile_as_the_jit(matmul.kernel(), args)
    spec = triton_launch.launch_spec(compiled, args)
    assert spec is not None
    threads, shared, scratch, specs, dependent = spec
    assert [(k, v) for k, _, _, v in specs if k == "b"] == [("b", 0), ("b", 0), ("b", 1)]   # BIAS, WIDE, EVEN_K
    width = {"p": "u64", "i": "u32", "l": "u64"}
    entry = re.search(r"\.entry[^{]*", compiled.asm["ptx"], re.S).group(0)
    passed = [width[k] for k, *_ in specs if k not in "cb"]
    assert passed + ["u64"] * scratch == re.findall(r"\.param\s+\.(\w+)", entry)
    variant = triton_launch.make_variant(0xB1A5, threads, shared, scratch, specs, dependent, None)
    on_device = tuple(OnDevice(x) if isinstance(x, torch.Tensor) else x for x in args)
    ctypes.c_int.in_dll(driver, "expected_params").value = len(passed)
    before = ctypes.c_ulonglong.in_dll(driver, "launches").value
    assert triton_launch.launch_variant(variant, 1, 0, on_device) is True
    seen = list((ctypes.c_uint64 * len(passed)).in_dll(driver, "params_seen"))
    assert seen[:4] == [x.data_ptr() for x in on_device[:4]]
    bias = on_device.index(False)
    for other in (True, 0, None):   # another bool is another build; an int or None is no bool
        unfit = on_device[:bias] + (other,) + on_device[bias + 1:]
        assert triton_launch.launch_variant(variant, 1, 0, unfit) is False, other
    assert ctypes.c_ulonglong.in_dll(driver, "launches").value == before + 1


class JitReached(Exception):
    pass


def test_a_first_launch_builds_no_triton_launcher(driver, tmp_path, monkeypatch):
    """A kernel's first launch takes its compiled kernel from Triton's JIT without launching it there, loads the
    binary itself and launches it through kiln's C launcher, which later launches reuse: Triton's own launcher for
    it, a C extension built with the system compiler per signature (35 of them in HF ResNet-18's cold training
    step), is never built."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    module = triton_launch.load_module(KERNELS, str(tmp_path))
    x = torch.zeros(64)
    compiled = compile_as_the_jit(module.scale_shift, (x, x, 7, 3, 0.5, 128))
    warmups = []

    class Jit:   # Triton's JITFunction as the Launcher uses it, holding the kernel compiled above
        def warmup(self, *args, grid, **options):
            warmups.append((grid, options))
            return compiled

        def __getitem__(self, grid):
            raise JitReached
    monkeypatch.setattr(torch.cuda, "device", lambda device: contextlib.nullcontext())
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(triton_launch, "get_raw_stream", lambda device: 0x55)
    monkeypatch.setattr(triton_launch, "max_shared_memory", lambda device: 227 * 1024)
    monkeypatch.setattr(triton_launch, "load_binary", lambda *a: (1, 0xF00D, 0, 0, 1024))
    spec = triton_launch.launch_spec   # (read from CPU tensors: it takes only tensors for pointers)
    monkeypatch.setattr(triton_launch, "launch_spec", lambda compiled, args: spec(compiled, (x, x, *args[2:])))
    launch = triton_launch.Launcher(Jit(), 4)
    t = OnDevice(x)
    ctypes.c_int.in_dll(driver, "expected_params").value = 4
    before = ctypes.c_ulonglong.in_dll(driver, "launches").value
    for _ in range(2):
        launch(3, t, t, 7, 3, 0.5, 128)
    assert ctypes.c_ulonglong.in_dll(driver, "launches").value == before + 2
    assert ctypes.c_void_p.in_dll(driver, "function_seen").value == 0xF00D
    assert warmups == [((3,), {"num_warps": 4})] and compiled._run is None


def test_a_kernel_built_ahead_gets_tritons_launcher_only_where_kilns_cannot_launch_it(monkeypatch):
    """A kernel built ahead has its binary loaded for kiln's C launcher; Triton's launcher (its `run`, a C extension
    built per signature) is built ahead instead, on the pool, where kiln's cannot launch the kernel (scratch memory
    here; or kiln's launcher not loaded), so that its first launch does not build it. A build still running (Triton
    3.6's FutureKernel, which has no metadata to read) is awaited first, and so put in the JIT's cache, where the
    kernel's first launch finds it rather than compiling it again."""
    import types
    monkeypatch.setattr(torch.cuda, "device", lambda device: contextlib.nullcontext())
    monkeypatch.setattr(triton_launch, "loaded", lambda kernel, device: ("handles", kernel.name))
    runs = []

    class Kernel:
        def __init__(self, name, **metadata):
            self.name, self.metadata = name, types.SimpleNamespace(num_ctas=1, **metadata)

        @property
        def run(self):
            runs.append(self.name)
            return "triton's launcher"
    class Building:   # a build under AsyncCompileMode, as Triton 3.6's FutureKernel: result() and no attribute
        def __init__(self, kernel):   # of the kernel's; result() puts the kernel in its JITFunction's cache
            self.kernel, self.in_jit_cache = kernel, False

        def result(self):
            self.in_jit_cache = True
            return self.kernel
    plain, scratch = Kernel("plain", global_scratch_size=0), Kernel("scratch", global_scratch_size=64)
    monkeypatch.setattr(triton_launch, "launch_variant", object())   # (kiln's launcher loaded)
    assert triton_launch.load_handles((0, plain)) == ("handles", "plain") and runs == []
    building = Building(plain)
    assert triton_launch.load_handles((0, building)) == ("handles", "plain") and building.in_jit_cache
    assert triton_launch.load_handles((0, scratch)) == "triton's launcher" and runs == ["scratch"]
    monkeypatch.setattr(triton_launch, "launch_variant", None)   # (not loaded: Triton's launches every kernel)
    assert triton_launch.load_handles((0, plain)) == "triton's launcher" and runs == ["scratch", "plain"]


def test_a_first_launch_waits_for_its_graphs_build_in_the_background():
    """A graph just generated returns while its kernels build in the background (build_behind); a kernel's first
    launch waits for that build, rather than have the JIT build it in this process too."""
    release = threading.Event()
    building = triton_launch.background_thread().submit(release.wait)
    seen = []

    def jit():
        seen.append(building.done())
        raise JitReached
    launch = triton_launch.Launcher(None, 4, get_fn=jit)
    launch.building.append(building)
    threading.Timer(0.2, release.set).start()
    with pytest.raises(JitReached):
        launch(1, torch.zeros(4))
    assert seen == [True] and launch.building == []


def test_a_first_launch_waits_for_its_own_kernels_build_not_its_graphs(monkeypatch):
    """Each kernel of a graph building in the background is launched as soon as its own build is loaded: the first
    call runs its first kernels (and library calls) while later kernels still build. A kernel launched with two
    specializations waits for both; where building ahead fails, every kernel is released to build at its launch."""
    release, loaded, launched = threading.Event(), [], []

    class Fn:   # a kernel's JITFunction: built on the build thread; its first launch, on this one, stops the test
        def __init__(self, name):
            self.name = name

        def warmup(self, *args, grid, **options):
            if threading.current_thread() is threading.main_thread():
                self[grid]()
            if self.name == "failing":
                raise RuntimeError("no build ahead")
            return self.name

        def __getitem__(self, grid):
            def launch(*args, **options):
                launched.append((self.name, list(loaded)))
                raise JitReached
            return launch

    def load_handles(built, launcher_built=None):
        if built[1] == "slow":
            release.wait(10)   # (past which, unreleased, it still loads: the first launch must not have waited)
        loaded.append(built[1])
    monkeypatch.setattr(triton_launch, "load_handles", load_handles)
    monkeypatch.setattr(triton_launch, "load_c_launcher", lambda cache_dir: None)
    monkeypatch.setattr(torch.cuda, "device", lambda device: contextlib.nullcontext())
    first, slow, last = (triton_launch.Launcher(None, 4, get_fn=lambda fn=Fn(n): fn) for n in ("first", "slow", "last"))
    triton_launch.build_behind([(first, 0, (1,)), (slow, 0, (1,)), (last, 0, (1,)), (first, 0, (2,))], "", False)
    with pytest.raises(JitReached):
        first(1, torch.zeros(4))   # both its builds loaded, the slow one not
    assert len(launched) == 1 and launched[0][0] == "first" and first.building == []
    assert launched[0][1].count("first") == 2 and "slow" not in launched[0][1]
    release.set()
    with pytest.raises(JitReached):
        last(1, torch.zeros(4))
    assert launched[-1][0] == "last" and "last" in launched[-1][1]
    failing = triton_launch.Launcher(None, 4, get_fn=lambda: Fn("failing"))   # (its build ahead raises)
    triton_launch.build_behind([(failing, 0, (1,))], "", False)
    with pytest.raises(JitReached):
        failing(1, torch.zeros(4))
    assert launched[-1][0] == "failing" and failing.building == []


def test_a_binary_is_loaded_once_when_two_threads_ask_for_it(monkeypatch):
    """A kernel's binary is loaded into a device once, when two threads ask at once (two warmups sharing a build, or
    a first launch beside a load of the pool's): the driver's load releases the GIL, and both threads loaded it,
    one module leaked."""
    import types
    loads = []

    def load_binary(name, binary, shared, device):
        loads.append(name)
        time.sleep(0.05)   # (the driver's load, the GIL released)
        return (1, 0xF00D, 0, 0, 1024)
    monkeypatch.setattr(triton_launch, "load_binary", load_binary)
    monkeypatch.setattr(torch.cuda, "device", lambda device: contextlib.nullcontext())
    class Kernel:   # (a compiled kernel: LOADED holds it weakly)
        name, kernel, metadata = "k", b"", types.SimpleNamespace(shared=0)
    kernel = Kernel()
    threads = [threading.Thread(target=triton_launch.loaded, args=(kernel, 0)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert loads == ["k"] and triton_launch.loaded(kernel, 0)[1] == 0xF00D


def test_a_failed_load_ends_its_graphs_build_only_after_the_other_loads(monkeypatch, caplog):
    """A kernel whose load fails releases its own Launcher at once; the graph's build ahead still waits for its
    other loads before it ends (leaving Triton's AsyncCompileMode on the failure, Triton 3.6 finishes no other
    build, and those kernels, released by the build's end, would build again at their first launches), and no
    Launcher is released twice (a load's callback running after the build ended raised KeyError in the pool)."""
    late = threading.Event()

    class Fn:
        def warmup(self, *args, grid, **options):
            return self

    def load_handles(built, launcher_built=None):
        if built[1] is bad_fn:
            raise RuntimeError("no binary")
        late.wait(10)
    monkeypatch.setattr(triton_launch, "load_handles", load_handles)
    monkeypatch.setattr(triton_launch, "load_c_launcher", lambda cache_dir: None)
    monkeypatch.setattr(torch.cuda, "device", lambda device: contextlib.nullcontext())
    bad_fn, slow_fn = Fn(), Fn()
    bad, slow = (triton_launch.Launcher(None, 4, get_fn=lambda fn=fn: fn) for fn in (bad_fn, slow_fn))
    with caplog.at_level(logging.ERROR, logger="concurrent.futures"):
        triton_launch.build_behind([(bad, 0, (1,)), (slow, 0, (1,))], "", False)
        released = slow.building[0]
        bad.building[0].result(10)   # released by its failed load
        time.sleep(0.2)
        assert not released.done()   # the slow load still running holds its Launcher
        late.set()
        released.result(10)
        triton_launch.background_thread().submit(lambda: None).result(10)   # (the build ended)
        triton_launch.compile_pool().submit(lambda: None).result(10)
        time.sleep(0.1)
    assert not [r for r in caplog.records if "callback" in r.getMessage()], caplog.text


def test_a_warm_start_launches_the_stored_binary_without_the_jit(driver, tmp_path, monkeypatch):
    """A kernel's first launch through the JIT stores its binary and launch (triton_binaries). A Launcher of a
    later process (a fresh one here) loads that binary and launches it through the C launcher, with the stored
    launch's parameters, without running the kernel module or the JIT. Arguments the stored variant does not fit
    go through the JIT. A store for another module text, other options or another compute capability holds
    nothing; nor one whose binary Triton's JIT would now compile otherwise (a knob changed since: FP contraction
    off gave other bits). A record that does not unpickle to one is passed over."""
    from triton.backends.compiler import GPUTarget

    from kiln.runtime import triton_binaries
    from kiln.runtime.triton_binaries import BinaryStore
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_DEFAULT_FP_FUSION", raising=False)
    monkeypatch.setattr(triton_binaries, "current_target", lambda device: GPUTarget("cuda", 90, 32))
    module = triton_launch.load_module(KERNELS, str(tmp_path))
    x = torch.zeros(64)
    args = (x, x, 7, 3, 0.5, 128)
    compiled = compile_as_the_jit(module.scale_shift, args)
    capability = [(9, 0)]
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: capability[0])
    monkeypatch.setattr(torch.cuda, "device", lambda device: contextlib.nullcontext())
    monkeypatch.setattr(triton_launch, "get_raw_stream", lambda device: 0x55)
    store = lambda key="module", warps=4: BinaryStore(str(tmp_path), key, "scale_shift",   # noqa: E731
                                                      triton_launch.jit_options(warps))
    store().put(compiled, triton_launch.launch_spec(compiled, args), 0)
    with open(f"{store().folder}/junk.pkl", "wb") as f:   # (unpickles, but to no record)
        pickle.dump([1], f)
    loaded = []
    monkeypatch.setattr(triton_launch, "load_binary", lambda *a: loaded.append(a) or (1, 0xBEEF, 0, 0, 1024))

    def jit():
        raise JitReached
    fresh = triton_launch.Launcher(None, 4, binaries=store(), get_fn=jit)
    assert fresh.load_stored(0) == 1 and fresh.load_stored(0) == 1   # (once)
    assert loaded == [(compiled.name, compiled.kernel, compiled.metadata.shared, 0)]
    t = OnDevice(x)
    ctypes.c_int.in_dll(driver, "expected_params").value = 4
    before = ctypes.c_ulonglong.in_dll(driver, "launches").value
    fresh(3, t, t, 7, 3, 0.5, 128)
    assert ctypes.c_ulonglong.in_dll(driver, "launches").value == before + 1
    assert ctypes.c_void_p.in_dll(driver, "function_seen").value == 0xBEEF
    assert ctypes.c_void_p.in_dll(driver, "stream_seen").value == 0x55
    assert list((ctypes.c_uint64 * 4).in_dll(driver, "params_seen")) == [t.data_ptr(), t.data_ptr(), 7, 3]
    with pytest.raises(JitReached):   # another dtype: the JIT builds the variant that fits
        fresh(3, OnDevice(x.double()), t, 7, 3, 0.5, 128)
    with pytest.raises(JitReached):   # another constant
        fresh(3, t, t, 7, 3, 0.5, 64)
    assert store("another module").records(0) == [] and store(warps=8).records(0) == []
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "0")   # (triton.knobs.language.default_fp_fusion = False)
    assert store().records(0) == []
    monkeypatch.delenv("TRITON_DEFAULT_FP_FUSION")
    assert len(store().records(0)) == 1
    capability[0] = (8, 0)
    assert store().records(0) == []
