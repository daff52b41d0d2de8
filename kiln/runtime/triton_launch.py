"""Loads a graph's generated Triton module from the on-disk cache.

@triton.jit reads its function's source from a file, so the module is written to the cache
(atomically, named by the hash of its text) and imported from there. Triton caches the compiled
binaries across processes itself (TRITON_CACHE_DIR).
"""
import hashlib
import importlib.util
import os
import tempfile


def load_module(source, cache_dir):
    key = hashlib.sha256(source.encode()).hexdigest()[:24]
    folder = os.path.join(cache_dir, "triton")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"kiln_{key}.py")
    if not os.path.exists(path):
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".py")
        with os.fdopen(fd, "w") as f:
            f.write(source)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(f"kiln_{key}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
