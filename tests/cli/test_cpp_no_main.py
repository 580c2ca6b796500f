"""A C++ file without main() run as a program is an error of the run like any other (#30 item
1: errors raise one documented base exception): `pipev.run` raises SimulationError (a kind of
DiagnosticError) with it, and `pipev run --json` prints the failure object, not nothing."""

from __future__ import annotations

import json

import pytest

import pipev

WRAPPER = '#include "kernel_operator.h"\n#include "tikicpulib.h"\n'
MESSAGE = "the program has no main() (for a file with only a kernel, run it with --kernel"


def test_the_python_api_raises_for_a_program_without_main(tmp_path, monkeypatch, env):
    monkeypatch.setenv("PIPEV_CACHE_DIR", env["PIPEV_CACHE_DIR"])
    monkeypatch.chdir(tmp_path)
    (tmp_path / "wrap.cpp").write_text(WRAPPER)
    with pytest.raises(pipev.SimulationError) as e:
        pipev.run("wrap.cpp")
    assert isinstance(e.value, pipev.DiagnosticError)
    d, = e.value.diagnostics
    assert (d.path, d.line, d.severity) == ("wrap.cpp", 1, "error") and MESSAGE in d.message


def test_run_json_reports_a_program_without_main(pipev, tmp_path):
    (tmp_path / "wrap.cpp").write_text(WRAPPER)
    proc = pipev("run", "wrap.cpp", "--json")
    assert proc.returncode == 1
    failure = json.loads(proc.stdout)
    assert failure["ok"] is False and MESSAGE in failure["diagnostics"][0]["message"]
    assert proc.stderr.count(MESSAGE) == 1
