"""Builds a graph's C++ translation unit into a shared library, cached on disk.

The cache key hashes the source, the compiler, its flags, the CPU and the versions, and every
write goes to a temporary file first and is renamed into place, so parallel processes can share it.
A file is never rewritten in place or unlinked: another process may have it mapped (a library
truncated under a process that runs it crashes that process). Beside each library lies the sha256
of its bytes, written after it; a library is loaded only if it matches, and rebuilt otherwise.
"""
import _ctypes
import ctypes
import ctypes.util
import functools
import hashlib
import logging
import os
import platform
import subprocess
import tempfile
import weakref

import torch

from kiln import ir

log = logging.getLogger("kiln.cache")

CXX = os.environ.get("CXX", "g++")
FLAGS = ["-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", "-std=c++17",
         # value-preserving: lets sqrt and friends vectorize without changing results
         "-fno-math-errno", "-fno-trapping-math",
         # signed integers wrap, as eager's do: overflow is otherwise undefined, and g++ folded x + c > x to
         # true and (x * c) / c to x
         "-fwrapv",
         # no complete unrolling of constant-trip loops: it took half of a typical -O3 build (7x faster
         # builds), and the vectorized loops it would unroll are the same
         "--param=max-completely-peeled-insns=0",
         "-fno-builtin-sin", "-fno-builtin-sinf", "-fno-builtin-cos", "-fno-builtin-cosf"]
if ctypes.util.find_library("mvec"):   # glibc's vector math (exp, erf, tanh, ... on whole vectors)
    FLAGS += ["-DKILN_LIBMVEC", "-lmvec"]


@functools.lru_cache(None)
def toolchain_id():
    version = subprocess.run([CXX, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    cpu = ""
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            cpu = next((line for line in f if line.startswith("model name")), "")
    return f"{version}|{' '.join(FLAGS)}|{platform.machine()}|{cpu}|torch {torch.__version__}|kiln 1"


def build(source, cache_dir, extra_flags=(), rebuild=False):
    """Path of the compiled library for source, compiling it unless the cache has it intact (or rebuild)."""
    key = hashlib.sha256((toolchain_id() + " ".join(extra_flags) + "\n" + source).encode()).hexdigest()[:24]
    folder = os.path.join(cache_dir, "cpp", key[:2])
    path = os.path.join(folder, f"kiln_{key}.so")
    if not rebuild and intact(path):
        log.info("kiln cache hit: %s", path)
        return path
    if not rebuild and os.path.exists(path):
        log.info("kiln cache: rebuilding %s: its bytes do not match their recorded hash", path)
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        with open(os.path.join(tmp, "kernels.cpp"), "w") as f:
            f.write(source)
        # relative names, run in tmp: the library's bytes do not depend on the temporary folder's name
        result = subprocess.run([CXX, *FLAGS, "kernels.cpp", *extra_flags, "-o", "kernels.so"], cwd=tmp,
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"C++ compile failed:\n{result.stderr[-4000:]}")
        out = os.path.join(tmp, "kernels.so")
        digest = sha256_of(out)
        os.replace(out, path)
        with open(os.path.join(tmp, "sha256"), "w") as f:
            f.write(digest)
        os.replace(os.path.join(tmp, "sha256"), path + ".sha256")
    log.info("kiln cache miss: compiled %s", path)
    return path


def intact(path):
    """Whether the library at path has the bytes its build recorded (a crash or a full disk can cut it short)."""
    try:
        with open(path + ".sha256") as f:
            expected = f.read().strip()
        return sha256_of(path) == expected
    except OSError:
        return False


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def special_library(source, cache_dir):
    """The special-function library (built once per cache and toolchain): flags that link a kernel library to it."""
    path = build(source, cache_dir, ["-I" + os.path.join(os.path.dirname(torch.__file__), "include")])
    return [path, "-Wl,-rpath," + os.path.dirname(path)]


def load(source, cache_dir, signatures, extra_flags=()):
    """ctypes functions for every kernel: {name: fn}, with argument types set for fast calls.

    A library that fails to load is rebuilt once (the cache may hold a file from another toolchain or a
    broken disk); a second failure raises. The library stays loaded while any of its functions lives
    (each keeps the CDLL object), and is closed when the last is collected, so that a compiled graph
    dropped by Dynamo (torch._dynamo.reset()) frees its code. dlopen counts its own references, so
    graphs sharing one library each hold one."""
    for rebuild in (False, True):
        path = build(source, cache_dir, extra_flags, rebuild)
        lib = None
        try:
            lib = ctypes.CDLL(path)
            fns = {}
            for name, (buffers, symbols) in signatures.items():
                fn = getattr(lib, name)
                fn.argtypes = [ctypes.c_void_p] * len(buffers) + [
                    ctypes.c_double if ir.is_float_scalar(s) else ctypes.c_int64 for s in symbols]
                fn.restype = None
                fns[name] = fn
        except (OSError, AttributeError) as e:
            if lib is not None:   # else dlopen would hand back this same library for the rebuilt file
                _ctypes.dlclose(lib._handle)
            if rebuild:
                raise
            log.info("kiln cache: %s failed to load (%s); rebuilding it", path, e)
            continue
        weakref.finalize(lib, _ctypes.dlclose, lib._handle).atexit = False   # at exit the process unmaps all
        return fns
