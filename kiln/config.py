"""kiln's options: what `kiln.compile(..., mode=, options={...})` accepts, with environment defaults."""
import dataclasses
import functools
import logging
import os

MODES = (None, "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")
TUNING_MODES = ("max-autotune", "max-autotune-no-cudagraphs")


@functools.cache
def warn_once(message: str):
    """torch.compile(backend="kiln", mode=...) makes the options for every graph: one warning per process"""
    logging.getLogger("kiln").warning(message)


def default_trace_dir() -> str | None:
    """The compile trace's directory unless options name one: KILN_TRACE, else torch's debug directory when
    TORCH_COMPILE_DEBUG=1"""
    if os.environ.get("KILN_TRACE"):
        return os.environ["KILN_TRACE"]
    return torch_debug_trace_dir() if os.environ.get("TORCH_COMPILE_DEBUG") == "1" else None


@functools.cache
def torch_debug_trace_dir() -> str:
    """kiln's folder in torch's debug directory, as TORCH_COMPILE_DEBUG=1 writes it: debug_dir_root
    (./torch_compile_debug, or TORCH_COMPILE_DEBUG_DIR/torch_compile_debug)/run_<time>-pid_<pid>/kiln. Torch names
    a new run folder at each call: one per process, so that all of this process's graphs share one trace."""
    from torch._dynamo.utils import get_debug_dir
    return os.path.join(get_debug_dir(), "kiln")


@dataclasses.dataclass(frozen=True)
class Options:
    mode: str | None = None
    strict: bool = False              # raise instead of falling back to eager
    trace: str | None = None          # directory for the compile trace (KILN_TRACE; TORCH_COMPILE_DEBUG=1)
    trace_profile: bool = False       # time every kernel and extern once and record it in the trace
    target: str | None = None         # "cpp" or "triton"; None picks by device
    cache_dir: str | None = None      # kernel cache (KILN_CACHE_DIR)
    debug: bool = False               # Triton kernels built in Triton's debug mode (KILN_DEBUG=1)
    graph_cache: bool = True          # compiled graphs stored in the cache dir and loaded again (KILN_GRAPH_CACHE=0)
    freezing: bool = False            # inference graphs: parameters are constants (KILN_FREEZING=1)
    dependent_launch: bool = True     # on Hopper and later GPUs, each Triton kernel may start while the one before it
                                      # finishes (programmatic dependent launch; KILN_DEPENDENT_LAUNCH=0 turns it off)

    @staticmethod
    def make(mode=None, options=None):
        if mode not in MODES:
            warn_once(f"kiln: unknown mode {mode!r}; expected one of {', '.join(MODES[1:])}; "
                      "compiling with the default mode")
            mode = None
        options = dict(options or {})
        valid = [f.name for f in dataclasses.fields(Options) if f.name != "mode"]
        unknown = sorted(set(options) - set(valid))
        if unknown:
            raise ValueError(f"kiln: unknown options {unknown}; valid options are {', '.join(valid)} "
                             "(README.md, 'Options and environment variables')")
        options.setdefault("trace", default_trace_dir())
        options.setdefault("strict", os.environ.get("KILN_STRICT", "") == "1")
        options.setdefault("target", os.environ.get("KILN_TARGET") or None)   # CI runs the suite with "triton"
        options.setdefault("debug", os.environ.get("KILN_DEBUG", "") == "1")
        options.setdefault("graph_cache", os.environ.get("KILN_GRAPH_CACHE", "1") != "0")
        options.setdefault("freezing", os.environ.get("KILN_FREEZING", "") == "1")
        options.setdefault("dependent_launch", os.environ.get("KILN_DEPENDENT_LAUNCH", "1") != "0")
        return Options(mode=mode, **options)

    @property
    def tunes(self):
        """Whether each Triton kernel's launch configuration is chosen by timing (runtime/autotune.py)"""
        return self.mode in TUNING_MODES

    @property
    def kernel_cache_dir(self):
        return self.cache_dir or os.environ.get("KILN_CACHE_DIR") or os.path.join(
            os.path.expanduser("~"), ".cache", "kiln")
