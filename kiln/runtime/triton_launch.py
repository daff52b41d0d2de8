"""Loads a graph's generated Triton module from the on-disk cache, and launches its kernels.

@triton.jit reads its function's source from a file, so the module is written to the cache
(atomically, named by the hash of its text) and run from there, after checking that the file still
holds that text. Triton caches the compiled binaries across processes itself (TRITON_CACHE_DIR).
"""
import hashlib
import logging
import os
import tempfile
import types
import weakref

import torch


def load_module(source, cache_dir):
    key = hashlib.sha256(source.encode()).hexdigest()[:24]
    folder = os.path.join(cache_dir, "triton")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"kiln_{key}.py")
    if not holds(path, source):   # missing, or cut short or edited since: write it again, whole
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".py")
        with os.fdopen(fd, "w") as f:
            f.write(source)
        os.replace(tmp, path)
    # run from the text just checked, not through import: that would trust a bytecode cache (__pycache__)
    # that nothing checks. @triton.jit reads each function's source back from path.
    module = types.ModuleType(f"kiln_{key}")
    module.__file__ = path
    exec(compile(source, path, "exec"), module.__dict__)
    return module


# the kernels of this process's graphs by their text: a kernel that another graph already defined (identical
# layers in a forward and a backward, in graphs split by a break) is launched by the same Launcher, built once
LAUNCHERS = weakref.WeakValueDictionary()


def launcher(module, function, text, num_warps, debug):
    key = (function, text, num_warps, debug)
    found = LAUNCHERS.get(key)
    if found is None:
        found = LAUNCHERS[key] = Launcher(getattr(module, function), num_warps, debug)
    return found


def holds(path, source):
    try:
        with open(path) as f:
            return f.read() == source
    except (OSError, UnicodeDecodeError):
        return False


class Launcher:
    """Launches one generated kernel. The first call with a specialization goes through Triton's JIT (which
    compiles, or loads from Triton's cache); later calls with it call the compiled kernel's binary launcher
    directly, skipping the JIT's per-call argument binding. A kernel defined once for many launches (a
    model's repeated layers) may see several specializations: each is kept."""

    def __init__(self, fn, num_warps, debug=False):
        self.fn, self.options = fn, dict(num_warps=num_warps, debug=True) if debug else dict(num_warps=num_warps)
        self.compiled = {}   # specialization -> compiled kernel
        self.direct = not interpreting()
        self.pointers = self.ints = None

    def specialization(self, args):
        # what Triton specializes on: 16-byte aligned pointers, ints equal to 1 or divisible by 16
        return (tuple(args[i].data_ptr() % 16 == 0 for i in self.pointers),
                tuple((args[i] == 1, args[i] % 16 == 0) for i in self.ints))

    def __call__(self, grid, *args):
        key = self.specialization(args) if self.pointers is not None else None
        compiled = self.compiled.get(key)
        if compiled is not None:
            try:
                compiled.run(grid, 1, 1, get_raw_stream(self.device), compiled.function, compiled.packed_metadata,
                             None, None, None, *args)
                return
            except TypeError as e:   # a Triton whose launcher takes other arguments: use the JIT path
                logging.getLogger("kiln.codegen").warning("kiln: direct Triton launch unavailable (%s); "
                                                          "launching through the JIT", e)
                self.direct, self.compiled = False, {}
        compiled = self.fn[(grid,)](*args, **self.options)
        if self.direct:
            if self.pointers is None:
                self.pointers = [i for i, a in enumerate(args) if hasattr(a, "data_ptr")]
                self.ints = [i for i, a in enumerate(args) if isinstance(a, int)]
                self.device = args[self.pointers[0]].device.index if self.pointers else 0
            self.compiled[self.specialization(args)] = compiled


def get_raw_stream(device):
    return torch._C._cuda_getCurrentRawStream(device)


def interpreting():
    return os.environ.get("TRITON_INTERPRET") == "1"
