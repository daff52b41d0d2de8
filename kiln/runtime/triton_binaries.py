"""Kernel binaries stored in kiln's kernel cache, so that a warm start launches its kernels without Triton's JIT
(issue 23).

A graph loaded from the graph cache used to launch each kernel through Triton's JIT first: the JIT reads the
kernel's source back, walks it for its dependencies, hashes its cache key, finds the binary in Triton's cache and
loads it, about 4 ms a kernel (0.68 s for HF ResNet-18's 158). Once kiln's C launcher has launched a kernel, kiln
has all a launch needs: the binary, its entry's name, threads and shared memory, and what each argument must be
(`triton_launch.variant`: dtype, alignment, divisibility, constants). That is stored, one file per variant, in a
folder named by the kernel module's text, the kernel, its compile options and Triton's version and environment. A
warm start loads the binary into the device and launches it through the C launcher, which checks every argument
against the variant before each launch; where none fits, the kernel goes through the JIT as before.
"""
import collections
import functools
import hashlib
import logging
import os
import pickle

import torch

from kiln.runtime.graph_cache import write_whole

log = logging.getLogger("kiln.codegen")
COUNTS = collections.Counter()   # kernel_binaries_loaded: binaries loaded from the store (kiln.stats() shows it)


@functools.cache
def compile_environment():
    """What else Triton builds a binary from: its version and its environment variables (its knobs), except the
    cache folder's."""
    import triton
    return triton.__version__, tuple(sorted((k, v) for k, v in os.environ.items()
                                            if k.startswith(("TRITON_", "LLVM_", "MLIR_")) and k != "TRITON_CACHE_DIR"))


class BinaryStore:
    """The stored binaries of one kernel of one kernel module (its text's hash), compiled with these options."""

    def __init__(self, cache_dir, module_key, function, options):
        key = repr((module_key, function, sorted(options.items()), compile_environment()))
        self.folder = os.path.join(cache_dir, "triton", "binaries", hashlib.sha256(key.encode()).hexdigest()[:32])

    def put(self, compiled, launch, device):
        """Stores the binary of Triton's compiled kernel with its launch (threads, shared, scratch, argument specs,
        as `triton_launch.launch_spec` gives), as built for this device's compute capability."""
        record = {"name": compiled.name, "binary": compiled.kernel, "launch": launch,
                  "capability": torch.cuda.get_device_capability(device)}
        name = hashlib.sha256(repr((launch, record["capability"])).encode()).hexdigest()[:24]
        try:
            write_whole(os.path.join(self.folder, name + ".pkl"), pickle.dumps(record))
        except OSError as e:   # (a read-only or full cache: only the next warm start is slower)
            log.debug("kiln: kernel binary of %s not stored: %s", compiled.name, e)

    def records(self, device):
        """The stored records built for this device's compute capability."""
        try:
            names = sorted(n for n in os.listdir(self.folder) if n.endswith(".pkl"))
        except OSError:
            return []
        capability, found = torch.cuda.get_device_capability(device), []
        for name in names:
            try:
                with open(os.path.join(self.folder, name), "rb") as f:
                    record = pickle.load(f)
            except Exception as e:   # (cut short or from another kiln: the JIT builds it)
                log.debug("kiln: stored kernel binary %s unreadable: %s", name, e)
                continue
            if record.get("capability") == capability:
                found.append(record)
        return found
