"""kiln's loggers, switched on like TORCH_LOGS.

KILN_LOGS=fusion,codegen prints those loggers' INFO lines on stderr; "+fusion" also prints DEBUG;
"all" (or "+all") means every logger. Without KILN_LOGS kiln prints nothing but warnings
(shown by Python's last-resort handler, since kiln installs no handler of its own).
"""
import logging
import os
import sys

NAMES = ("fusion", "codegen", "cache", "fallback")

_handler = logging.StreamHandler(sys.stderr)
_handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))


def get_logger(name: str) -> logging.Logger:
    """The logger for one part of kiln, e.g. get_logger("fusion") is "kiln.fusion"."""
    if name not in NAMES:
        raise ValueError(f"kiln: unknown logger {name!r}; expected one of {NAMES}")
    return logging.getLogger(f"kiln.{name}")


def configure_from_env(setting: str | None = None):
    """Apply KILN_LOGS (or `setting`), replacing what an earlier call enabled."""
    if setting is None:
        setting = os.environ.get("KILN_LOGS", "")
    levels = {}
    for item in filter(None, (part.strip() for part in setting.split(","))):
        name = item.lstrip("+")
        level = logging.DEBUG if item.startswith("+") else logging.INFO
        if name == "all":
            levels.update(dict.fromkeys(NAMES, level))
        elif name in NAMES:
            levels[name] = level
        else:
            logging.getLogger("kiln").warning("kiln: unknown name %r in KILN_LOGS; expected 'all' or %s",
                                              name, ", ".join(NAMES))
    for name in NAMES:
        logger = get_logger(name)
        logger.removeHandler(_handler)
        logger.setLevel(levels.get(name, logging.NOTSET))
        # an enabled logger prints through our handler only, not twice via the user's root handlers
        logger.propagate = name not in levels
        if name in levels:
            logger.addHandler(_handler)


configure_from_env()
