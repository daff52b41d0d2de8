"""The `kiln` command (also `python -m kiln`): `kiln bench ...`, `kiln report DIR`, `kiln coverage ...`."""
import importlib
import sys

# command -> (module, function taking the command's arguments and returning the exit status), imported
# only when run, so that one command does not pay for another's imports
COMMANDS = {
    "bench": ("kiln.tools.bench", "main_bench"),
    "report": ("kiln.tools.report", "main_report"),
    "coverage": ("kiln.tools.coverage", "main"),
    "fuzz": ("kiln.tools.fuzz", "main"),
}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: kiln {{{','.join(COMMANDS)}}} ...  (kiln COMMAND --help for its options)", file=sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    module, function = COMMANDS[argv[0]]
    return getattr(importlib.import_module(module), function)(argv[1:])
