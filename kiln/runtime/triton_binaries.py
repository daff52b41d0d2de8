"""Kernel binaries stored in kiln's kernel cache, so that a warm start launches its kernels without Triton's JIT
(issue 23).

A graph loaded from the graph cache used to launch each kernel through Triton's JIT first: the JIT reads the
kernel's source back, walks it for its dependencies, hashes its cache key, finds the binary in Triton's cache and
loads it, about 4 ms a kernel (0.68 s for HF ResNet-18's 158). Once kiln's C launcher has launched a kernel, kiln
has all a launch needs: the binary, its entry's name, threads and shared memory, and what each argument must be
(`triton_launch.variant`: dtype, alignment, divisibility, constants). That is stored, one file per variant, in a
folder named by the kernel module's text, the kernel, its launch options and Triton's build, with what the binary
was compiled under: the options Triton resolved (from its knobs too) and the environment its cache key reads. A
warm start loads the binaries compiled under what the JIT would compile under now, for the device's compute
capability, and launches them through the C launcher, which checks every argument against the variant before each
launch; where none fits, the kernel goes through the JIT as before.
"""
import collections
import hashlib
import json
import logging
import os
import pickle

import torch

from kiln.runtime.graph_cache import write_whole

log = logging.getLogger("kiln.codegen")
COUNTS = collections.Counter()   # kernel_binaries_loaded: binaries loaded from the store (kiln.stats() shows it)


FORMAT = 3   # of the records (a store of another format is another folder)


def triton_build():
    """The installed Triton: its version, and when its compiler's source was written (a build from source may
    keep its version)."""
    import triton
    import triton.compiler.compiler as compiler
    return triton.__version__, os.path.getmtime(compiler.__file__)


def configuration(options, target):
    """What Triton compiles a kernel launched with these options for this target under, now: its options as it
    resolves them (they read its knobs: FP contraction, ptxas options, debug, ...), the environment variables
    its own cache key reads, the target and Triton's version; as JSON writes them (a compiled kernel's metadata
    holds the same fields, so a binary's can be compared). Computed at each use: a knob may change at any time."""
    import triton
    from triton.compiler.compiler import get_cache_invalidating_env_vars, make_backend
    resolved = make_backend(target).parse_options(dict(options))
    return json.loads(json.dumps({**resolved.__dict__, **get_cache_invalidating_env_vars(), "target": target,
                                  "triton_version": triton.__version__}, sort_keys=True, default=str))


def current_target(device):
    from triton.runtime.driver import driver
    with torch.cuda.device(device):
        return driver.active.get_current_target()


class BinaryStore:
    """The stored binaries of one kernel of one kernel module (its text's hash), launched with these options (as
    the Launcher passes them to Triton's JIT)."""

    def __init__(self, cache_dir, module_key, function, options):
        self.options = options
        key = repr((FORMAT, module_key, function, sorted(options.items()), triton_build()))
        self.folder = os.path.join(cache_dir, "triton", "binaries", hashlib.sha256(key.encode()).hexdigest()[:32])

    def put(self, compiled, launch, device):
        """Stores the binary of Triton's compiled kernel with its launch (threads, shared, scratch, argument specs,
        as `triton_launch.launch_spec` gives), with what it was compiled under (its metadata's fields of
        `configuration`) and the device's compute capability."""
        meta = compiled.metadata
        fields = configuration(self.options, meta.target)
        compiled_with = json.loads(json.dumps({k: getattr(meta, k, None) for k in fields}, sort_keys=True,
                                              default=str))
        record = {"name": compiled.name, "binary": compiled.kernel, "launch": launch, "compiled_with": compiled_with,
                  "capability": torch.cuda.get_device_capability(device)}
        name = hashlib.sha256(repr((launch, record["capability"], sorted(compiled_with.items()))).encode())
        try:
            write_whole(os.path.join(self.folder, name.hexdigest()[:24] + ".pkl"), pickle.dumps(record))
        except OSError as e:   # (a read-only or full cache: only the next warm start is slower)
            log.debug("kiln: kernel binary of %s not stored: %s", compiled.name, e)

    def records(self, device):
        """The stored records built for this device's compute capability and compiled under the configuration
        Triton's JIT would compile them under now (another, and the JIT builds the kernel: a binary compiled
        without FP contraction gave other bits than a cold start)."""
        try:
            names = sorted(n for n in os.listdir(self.folder) if n.endswith(".pkl"))
        except OSError:
            return []
        capability, found = torch.cuda.get_device_capability(device), []
        now = configuration(self.options, current_target(device))
        for name in names:
            try:
                with open(os.path.join(self.folder, name), "rb") as f:
                    record = pickle.load(f)
                if record["capability"] == capability and record["compiled_with"] == now:
                    found.append(record)
            except Exception as e:   # (cut short, or from another kiln: the JIT builds it)
                log.debug("kiln: stored kernel binary %s unreadable: %s: %s", name, type(e).__name__, e)
        return found
