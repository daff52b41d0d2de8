"""The `kiln` command (also `python -m kiln`): `kiln bench ...`, `kiln report DIR`, `kiln coverage ...`."""
import difflib
import importlib
import importlib.metadata
import platform
import sys

# command -> (module, function taking the command's arguments and returning the exit status, summary), imported
# only when run, so that one command does not pay for another's imports
COMMANDS = {
    "bench": ("kiln.tools.bench", "main_bench", "compile workloads with kiln, Inductor, ...; check them against "
                                                "fp64 and time them"),
    "report": ("kiln.tools.report", "main_report", "serve a compile trace (KILN_TRACE=DIR) on localhost"),
    "coverage": ("kiln.tools.coverage", "main", "run PyTorch's OpInfo samples through kiln and classify each"),
    "fuzz": ("kiln.tools.fuzz", "main", "compile random programs, compare with eager, shrink each failure"),
}

USAGE = "usage: kiln [-h] [--version] COMMAND [ARGS ...]"
HELP = f"""{USAGE}

kiln, a torch.compile backend: torch.compile(model, backend="kiln") or kiln.compile(model).
This command runs its tools.

commands:
{chr(10).join(f"  {name:<10}{summary}" for name, (_, _, summary) in COMMANDS.items())}

options:
  -h, --help  show this help and exit
  --version   show kiln's, torch's and Python's versions and exit

`kiln COMMAND --help` lists a command's options. Examples:
  kiln bench --device cpu                 the quick suite on the CPU
  KILN_TRACE=trace python train.py && kiln report trace
"""


def version() -> str:
    def installed(name):
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"
    import kiln
    return f"kiln {kiln.__version__} (torch {installed('torch')}, Python {platform.python_version()})"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(HELP, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "--version":
        print(version())
        return 0
    if argv[0] not in COMMANDS:
        close = difflib.get_close_matches(argv[0], COMMANDS, n=1)
        print(f"{USAGE}\nkiln: error: unknown command {argv[0]!r}"
              + (f"; did you mean {close[0]!r}?" if close else f"; expected one of {', '.join(COMMANDS)}"),
              file=sys.stderr)
        return 2
    module, function, _ = COMMANDS[argv[0]]
    return getattr(importlib.import_module(module), function)(argv[1:])
