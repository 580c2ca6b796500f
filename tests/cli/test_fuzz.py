"""benchmarks/fuzz.py, small: a few hundred mutations of the example programs through the CLI,
every chip and --checks mode; any traceback, Python warning, stray stderr line or odd exit
status fails (docs/format.md §9.1: no input ever produces a Python traceback)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _fuzz_module():
    spec = importlib.util.spec_from_file_location("fuzz", ROOT / "benchmarks" / "fuzz.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["fuzz"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_mutated_example_programs_never_give_a_traceback():
    fuzz = _fuzz_module()
    report = fuzz.fuzz(400, seed=20240613, timeout=20.0)
    assert report.mutations == 400
    problems = [f"[{f.kind}] {f.key}: {f.detail}\n  pipev {' '.join(f.args)}\n{f.text[:2000]}"
                for f in report.unique("traceback", "warning", "stderr", "exit").values()]
    assert not problems, "\n\n".join(problems)
    assert set(report.exits) <= {0, 1, 2} and report.exits[0] and report.exits[1]


def test_the_fuzzer_reports_a_traceback(monkeypatch):
    """The harness itself can fail: a crash planted in the assembler is a finding."""
    fuzz = _fuzz_module()

    def boom(*_a, **_k):
        raise ZeroDivisionError("planted")

    monkeypatch.setattr("isa.assembler.Assembler.run", boom)
    report = fuzz.fuzz(3, seed=1)
    kinds = {f.kind for f in report.findings}
    assert kinds == {"traceback"}
    assert all("ZeroDivisionError" in f.key and "planted" in f.detail
               for f in report.findings)
