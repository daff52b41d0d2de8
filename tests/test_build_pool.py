"""The processes that build Triton kernels for a graph just generated (kiln/runtime/build_pool.py). Triton
compiles for an explicit GPU target without a GPU, so the workers run here as they do on a GPU machine."""
import os
import textwrap

import pytest

triton = pytest.importorskip("triton")
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from kiln.runtime.build_pool import BuildPool, InWorkers  # noqa: E402
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
def pool():
    pool = BuildPool(2)
    pool.start([TARGET.backend, TARGET.arch, TARGET.warp_size])   # (each worker warms up for it first)
    yield pool
    pool.stop()


def source(fn, signature, constexprs):
    return ASTSource(fn, signature, constexprs)


def exp_source(module):
    return source(module.kernel_exp, {"in_ptr": "*fp32", "out_ptr": "*fp32", "N": "i32", "BLOCK": "constexpr"},
                  {(3,): 1024})


def compile_from_cache_only(src):
    """triton.compile where it may only load from Triton's cache: building raises."""
    make_ir = ASTSource.make_ir

    def refuse(*args, **kwargs):
        raise AssertionError("built in this process")
    ASTSource.make_ir = refuse
    try:
        return triton.compile(src, target=TARGET)
    finally:
        ASTSource.make_ir = make_ir


def test_a_worker_builds_into_tritons_cache(module, pool):
    src = exp_source(module)
    with pytest.raises(AssertionError, match="built in this process"):
        compile_from_cache_only(src)   # (nothing in the cache yet)
    pool.build((module.kernel_exp.fn.__code__.co_filename, "kernel_exp",
                {k: v for k, v in vars(src).items() if k != "fn"}, TARGET, None, {}))
    kernel = compile_from_cache_only(exp_source(module))
    assert kernel.asm["cubin"]


def test_in_workers_stands_in_for_the_jits_compile(module, pool):
    """The JIT's compile, through InWorkers, finds the kernel built; a kernel no worker can build is built by
    the JIT's own compile, and the worker goes on to the next job."""
    calls = []
    module.kernel_exp.compile = module.kernel_broken.compile = lambda src, **kw: calls.append(src.name) or \
        compile_from_cache_only(src)
    InWorkers(module.kernel_exp, pool)(exp_source(module), target=TARGET, options={})
    broken = source(module.kernel_broken, {"in_ptr": "*fp32", "BLOCK": "constexpr"}, {(1,): 4})
    with pytest.raises(AssertionError, match="built in this process"):   # (the worker failed: built here)
        InWorkers(module.kernel_broken, pool)(broken, target=TARGET, options={})
    assert calls == ["kernel_exp", "kernel_broken"]
    assert len(pool.workers) == 2   # (an error in a build is an answer, not a dead worker)


def test_a_dead_worker_is_replaced_until_the_pool_is_spent(module):
    src = exp_source(module)
    job = (module.kernel_exp.fn.__code__.co_filename, "kernel_exp",
           {k: v for k, v in vars(src).items() if k != "fn"}, TARGET, None, {})
    pool, alone = BuildPool(2), BuildPool(1)
    try:
        pool.start()
        pool.workers[0].process.kill()
        with pytest.raises((EOFError, OSError)):
            pool.build(job)
        pool.build(job)   # (the other worker)
        pool.build(job)   # (the dead one's replacement)
        assert len(pool.workers) == 3 and pool.workers[2].process.poll() is None
        alone.start()
        alone.workers[0].process.kill()
        with pytest.raises((EOFError, OSError)):
            alone.build(job)
        with pytest.raises(RuntimeError, match="spent"):   # (as many deaths as workers: no more replacements)
            alone.build(job)
    finally:
        pool.stop()
        alone.stop()
