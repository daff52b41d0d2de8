"""The processes that build Triton kernels for a graph just generated (kiln/runtime/build_pool.py). Triton
compiles for an explicit GPU target without a GPU, so the workers run here as they do on a GPU machine."""
import collections
import textwrap

import pytest

triton = pytest.importorskip("triton")
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402
from triton.runtime.jit import get_cache_invalidating_env_vars  # noqa: E402

from kiln.runtime.build_pool import BuildPool, InWorkers, join, joins  # noqa: E402
from kiln.runtime.triton_launch import load_module  # noqa: E402

pytestmark = pytest.mark.skipif("nvidia" not in getattr(triton.backends, "backends", {}),
                                reason="Triton without its NVIDIA backend")
TARGET = GPUTarget("cuda", 90, 32)
SOURCE = textwrap.dedent("""
    import triton
    import triton.language as tl


    @triton.jit
    def kernel_exp(in_ptr, out_ptr, N, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + i, tl.exp(tl.load(in_ptr + i, mask=i < N)), mask=i < N)


    @triton.jit
    def kernel_broken(in_ptr, BLOCK: tl.constexpr):
        tl.store(in_ptr + tl.arange(0, 3), 1.0)   # (a range of 3: not a power of two, a compile error)
    """)


@pytest.fixture
def module(tmp_path, monkeypatch):
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)   # (real JITFunctions, as on a GPU machine)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton_cache"))
    return load_module(SOURCE, str(tmp_path))


@pytest.fixture
def pool(module):   # (after module: the workers take its TRITON_CACHE_DIR)
    pool = BuildPool(2)
    pool.start([TARGET.backend, TARGET.arch, TARGET.warp_size])   # (each worker warms up for it first)
    yield pool
    pool.stop()


def exp_source(module):
    signature = {"in_ptr": "*fp32", "out_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"}
    return ASTSource(module.kernel_exp, signature, {(3,): 1024})


def job(module, src):
    fields = {k: v for k, v in vars(src).items() if k != "fn"}
    return module.__file__, src.name, fields, TARGET, None, {"_env_vars": get_cache_invalidating_env_vars()}


def compile_from_cache_only(src, **kwargs):
    """triton.compile where it may only load from Triton's cache: building raises."""
    make_ir = ASTSource.make_ir

    def refuse(*args, **kwargs):
        raise AssertionError("built in this process")
    ASTSource.make_ir = refuse
    try:
        return triton.compile(src, target=TARGET, **kwargs)
    finally:
        ASTSource.make_ir = make_ir


def test_a_worker_builds_into_tritons_cache(module, pool):
    src = exp_source(module)
    with pytest.raises(AssertionError, match="built in this process"):
        compile_from_cache_only(src)   # (nothing in the cache yet)
    pool.build(job(module, src))
    kernel = compile_from_cache_only(exp_source(module))
    assert kernel.asm["cubin"]


def test_in_workers_stands_in_for_the_jits_compile(module, pool):
    """The JIT's compile, through InWorkers, finds the kernel built; a kernel no worker can build is built by
    the JIT's own compile, and the worker goes on to the next job."""
    calls = []

    def own_compile(src, **kwargs):
        calls.append(src.name)
        return compile_from_cache_only(src)
    in_workers = InWorkers(module.kernel_exp, own_compile)
    in_workers.pool = pool
    in_workers(exp_source(module), target=TARGET, options={}, _env_vars=get_cache_invalidating_env_vars())
    broken = ASTSource(module.kernel_broken, {"in_ptr": "*fp32", "BLOCK": "constexpr"}, {(1,): 4})
    in_workers = InWorkers(module.kernel_broken, own_compile)
    in_workers.pool = pool
    with pytest.raises(AssertionError, match="built in this process"):   # (the worker failed: built here)
        in_workers(broken, target=TARGET, options={}, _env_vars=get_cache_invalidating_env_vars())
    assert calls == ["kernel_exp", "kernel_broken"]
    assert len(pool.workers) == 2 and all(w.process.poll() is None for w in pool.workers)


def test_a_worker_builds_only_under_the_keys_environment(module, pool, monkeypatch):
    """A setting of Triton's cache key changed in this process after the workers started: a worker's binary
    would be stored under the new key though built under the old setting, so the worker refuses the job."""
    monkeypatch.setenv("DISABLE_LLVM_OPT", "1")
    env_vars = get_cache_invalidating_env_vars()
    assert "DISABLE_LLVM_OPT" in env_vars
    with pytest.raises(RuntimeError, match="environment differs"):
        pool.build(job(module, exp_source(module))[:5] + ({"_env_vars": env_vars},))
    with pytest.raises(AssertionError, match="built in this process"):
        compile_from_cache_only(exp_source(module), _env_vars=env_vars)


def test_a_dead_worker_is_replaced_until_the_pool_is_spent(module):
    work = job(module, exp_source(module))
    pool, alone = BuildPool(2), BuildPool(1)
    try:
        pool.start()
        pool.workers[0].process.kill()
        with pytest.raises((EOFError, OSError)):
            pool.build(work)
        pool.build(work)   # (the other worker)
        pool.build(work)   # (the dead one's replacement)
        assert len(pool.workers) == 3 and pool.workers[2].process.poll() is None
        assert pool.workers[0].process.returncode is not None   # (waited for: no zombie)
        alone.start()
        alone.workers[0].process.kill()
        with pytest.raises((EOFError, OSError)):
            alone.build(work)
        with pytest.raises(RuntimeError, match="no build worker"):   # (as many deaths as places: none replaced)
            alone.build(work)
    finally:
        pool.stop()
        alone.stop()


def test_joined_kernels_get_their_own_compile_back(module):
    """join() on a second device, whose first use makes a binder that sets compile anew, still records the
    JIT's own compile, which the caller restores."""
    fn = module.kernel_exp
    own = [object(), object()]
    made = iter(own)

    def make_binder():
        fn.compile = next(made)
        return ()
    fn.device_caches = collections.defaultdict(make_binder)
    joined = {}
    join(fn, 0, joined)
    assert isinstance(fn.compile, InWorkers) and fn.compile.compile is own[0]
    join(fn, 1, joined)
    assert isinstance(fn.compile, InWorkers) and joined == {fn: own[0]}


def test_only_generated_top_level_kernels_join(module):
    @triton.jit
    def nested(in_ptr):
        pass
    assert joins(module.kernel_exp)
    assert not joins(nested)   # (a worker runs a generated module's file and takes its kernels by name)
