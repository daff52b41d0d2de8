"""The `kiln` command (kiln.tools.cli) and what kiln.compile / torch.compile accept (kiln.config)."""
import logging

import pytest
import torch

import kiln
from kiln.config import warn_once
from kiln.tools.bench import main_bench
from kiln.tools.cli import COMMANDS, main


def test_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert f"\n  {name} " in out, out
    assert "--version" in out and "kiln COMMAND --help" in out


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "commands:" in capsys.readouterr().err


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith(f"kiln {kiln.__version__} (torch {torch.__version__.split('+')[0]}")


def test_unknown_command_says_so(capsys):
    assert main(["benchh"]) == 2
    assert "kiln: error: unknown command 'benchh'; did you mean 'bench'?" in capsys.readouterr().err
    assert main(["xyz"]) == 2
    assert "expected one of bench, report, coverage, fuzz" in capsys.readouterr().err


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message on a machine without CUDA")
def test_bench_on_cuda_without_a_gpu_is_one_error_line(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main_bench(["--device", "cuda", "--out", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "kiln bench: error: --device cuda needs a CUDA GPU, and torch.cuda.is_available() is False" in err
    assert "Traceback" not in err


def test_unknown_option_lists_the_valid_ones():
    with pytest.raises(ValueError, match=r"unknown options \['bogus'\]; valid options are strict, trace, "
                                         r"trace_profile, target, cache_dir, debug"):
        kiln.compile(torch.sin, options={"bogus": 1})


@pytest.mark.parametrize("route", ["kiln.compile", "torch.compile"])
def test_unknown_mode_warns_once_and_compiles(route, caplog):
    warn_once.cache_clear()
    kiln.reset_stats()   # (the counters are the process's: an earlier file's deliberate fallback counted here)
    caplog.set_level(logging.WARNING, logger="kiln")
    compile_ = kiln.compile if route == "kiln.compile" else lambda fn, **kw: torch.compile(fn, backend="kiln", **kw)
    for shape in [(8,), (3, 5)]:   # two graphs: torch.compile makes the options for each
        x = torch.randn(shape)
        torch.testing.assert_close(compile_(lambda t: t.sin() + 1, mode="lite")(x), x.sin() + 1)
    warnings = [r.getMessage() for r in caplog.records if r.name == "kiln"]
    assert warnings == ["kiln: unknown mode 'lite'; expected one of default, reduce-overhead, max-autotune, "
                        "max-autotune-no-cudagraphs; compiling with the default mode"], warnings
    assert kiln.stats()["graphs_fallback"] == 0 and kiln.stats()["graphs_compiled"] == 2


def test_readme_documents_every_option_and_environment_variable():
    import dataclasses
    import os
    import re

    from kiln.config import Options
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(repo, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("## Options and environment variables", 1)[1].split("\n## ", 1)[0]
    first_cells = [row.split("|")[1] for row in section.splitlines() if row.startswith("| `")]
    documented = set(re.findall(r"`([A-Za-z_]+)", " ".join(first_cells)))
    package = os.path.join(repo, "kiln")
    read = set()
    for folder, _, files in os.walk(package):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    read |= set(re.findall(r"environ(?:\.get\(|\[)\"((?:KILN|TORCH)_\w+)\"", f.read()))
    wanted = {f.name for f in dataclasses.fields(Options)} | read | {"dynamic", "fullgraph", "TORCH_LOGS"}
    assert {"KILN_TRACE", "KILN_LOGS", "TORCH_COMPILE_DEBUG"} <= read   # the search finds what the package reads
    assert wanted <= documented, sorted(wanted - documented)
