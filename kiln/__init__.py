"""kiln: a deep-learning compiler for PyTorch 2.

    fast = kiln.compile(model)                 # or torch.compile(model, backend="kiln")
    kiln.stats()                               # counters: graphs, kernels, fallbacks
"""
__version__ = "0.1.0"   # the package's version (pyproject.toml reads it here)

from kiln import logs   # applies KILN_LOGS on import
from kiln.capture import compile, kiln_backend, reset_stats, stats

triton_compiler = compile   # the name the design documents use

__all__ = ["compile", "triton_compiler", "kiln_backend", "stats", "reset_stats", "logs"]
