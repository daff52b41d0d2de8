"""kiln's loggers, registered with torch's logging: TORCH_LOGS and torch._logging.set_logs control them.

    TORCH_LOGS=+kiln          every kiln logger at DEBUG ("kiln" alone: INFO)
    TORCH_LOGS=output_code    the kernels and wrapper of every graph kiln compiles (torch's own channel)
    KILN_LOGS=fusion,+cache   a short alias: TORCH_LOGS=kiln_fusion,+kiln_cache; "all" means "kiln"

kiln's channels are "kiln_fusion", "kiln_codegen", "kiln_cache", "kiln_fallback" and "kiln_autotune" in torch's
names (torch's "fusion" and "cache" are Inductor's). Torch reads TORCH_LOGS when it is imported, before kiln can
register them, so at start-up TORCH_LOGS names kiln as a module ("kiln", which then takes precedence over KILN_LOGS) and
KILN_LOGS names the channels; after `import kiln`, set_logs(modules={"kiln_fusion": logging.DEBUG}) works too.
Without either variable kiln prints only warnings, through torch's handler like torch's own.
"""
import logging
import os
import unittest.mock

from torch._logging import _init_logs, getArtifactLogger
from torch._logging import _internal
from torch._logging._internal import register_log

NAMES = ("fusion", "codegen", "cache", "fallback", "autotune")


def torch_name(name: str) -> str:
    """kiln's channel as TORCH_LOGS and set_logs know it"""
    return f"kiln_{name}"


def get_logger(name: str) -> logging.Logger:
    """The logger for one part of kiln, e.g. get_logger("fusion") is "kiln.fusion"."""
    if name not in NAMES:
        raise ValueError(f"kiln: unknown logger {name!r}; expected one of {NAMES}")
    return logging.getLogger(f"kiln.{name}")


def send_records_to(handler: logging.Handler):
    """Every kiln record to `handler` alone, none to torch's handlers on stderr: for a tool that collects them."""
    kiln_logger = logging.getLogger("kiln")
    for logger in (kiln_logger, *(get_logger(name) for name in NAMES)):
        for torch_handler in list(logger.handlers):
            logger.removeHandler(torch_handler)
        logger.propagate = logger is not kiln_logger
    kiln_logger.addHandler(handler)


def output_code_logger() -> logging.Logger:
    """torch's `output_code` channel (TORCH_LOGS=output_code), where kiln logs generated kernels and wrappers"""
    return getArtifactLogger("kiln.codegen", "output_code")


def torch_setting(kiln_logs: str) -> str:
    """KILN_LOGS's setting in TORCH_LOGS's names: "+fusion,cache" -> "+kiln_fusion,kiln_cache"."""
    parts = []
    for item in filter(None, (part.strip() for part in kiln_logs.split(","))):
        name, sign = item.lstrip("+"), "+" if item.startswith("+") else ""
        if name == "all":
            parts.append(sign + "kiln")
        elif name in NAMES:
            parts.append(sign + torch_name(name))
        else:
            logging.getLogger("kiln").warning("kiln: unknown name %r in KILN_LOGS; expected 'all' or %s",
                                              name, ", ".join(NAMES))
    return ",".join(parts)


def configure_from_env(setting: str | None = None):
    """Register kiln's loggers with torch and apply TORCH_LOGS plus KILN_LOGS (or `setting` in its place). Where
    neither names anything, torch's settings stand (set_logs's, if the user called it)."""
    register_log("kiln", "kiln")
    for name in NAMES:
        register_log(torch_name(name), get_logger(name).name)
    if _internal.LOG_TRACE_HANDLER is None:
        # imported by torch's first _init_logs while it reads TORCH_LOGS=kiln: it applies the settings next, to
        # loggers it reset before kiln's were registered; reset kiln's too (or each would print twice)
        _internal._reset_logs()
        return
    if setting is None:
        setting = os.environ.get("KILN_LOGS", "")
    combined = ",".join(filter(None, (os.environ.get("TORCH_LOGS", ""), torch_setting(setting))))
    # torch's _init_logs (what set_logs calls) reads TORCH_LOGS: it sees KILN_LOGS's part while it runs
    with unittest.mock.patch.dict(os.environ, {"TORCH_LOGS": combined} if combined else {}):
        _init_logs()


configure_from_env()
