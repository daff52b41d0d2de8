"""Builds a graph's C++ translation unit into a shared library, cached on disk.

The cache key hashes the source, the compiler, its flags, the CPU and the versions, and every
write goes to a temporary file first and is renamed into place, so parallel processes can share it.
"""
import ctypes
import ctypes.util
import functools
import hashlib
import logging
import os
import platform
import subprocess
import tempfile

import torch

from kiln import ir

log = logging.getLogger("kiln.cache")

CXX = os.environ.get("CXX", "g++")
FLAGS = ["-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", "-std=c++17",
         # value-preserving: lets sqrt and friends vectorize without changing results
         "-fno-math-errno", "-fno-trapping-math",
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


def build(source, cache_dir, extra_flags=()):
    """Path of the compiled library for source, compiling it unless the cache has it."""
    key = hashlib.sha256((toolchain_id() + " ".join(extra_flags) + "\n" + source).encode()).hexdigest()[:24]
    folder = os.path.join(cache_dir, "cpp", key[:2])
    path = os.path.join(folder, f"kiln_{key}.so")
    if os.path.exists(path):
        log.info("kiln cache hit: %s", path)
        return path
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        src = os.path.join(tmp, "kernels.cpp")
        with open(src, "w") as f:
            f.write(source)
        out = os.path.join(tmp, "kernels.so")
        result = subprocess.run([CXX, *FLAGS, src, *extra_flags, "-o", out], capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"C++ compile failed:\n{result.stderr[-4000:]}")
        os.replace(out, path)
    log.info("kiln cache miss: compiled %s", path)
    return path


def special_library(source, cache_dir):
    """The special-function library (built once per cache and toolchain): flags that link a kernel library to it."""
    path = build(source, cache_dir, ["-I" + os.path.join(os.path.dirname(torch.__file__), "include")])
    return [path, "-Wl,-rpath," + os.path.dirname(path)]


def load(source, cache_dir, signatures, extra_flags=()):
    """ctypes functions for every kernel: {name: fn}, with argument types set for fast calls."""
    lib = ctypes.CDLL(build(source, cache_dir, extra_flags))
    fns = {}
    for name, (buffers, symbols) in signatures.items():
        fn = getattr(lib, name)
        fn.argtypes = [ctypes.c_void_p] * len(buffers) + [
            ctypes.c_double if ir.is_float_scalar(s) else ctypes.c_int64 for s in symbols]
        fn.restype = None
        fns[name] = fn
    return lib, fns
