"""Fixtures shared by every test directory."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import settings

from simulator.tik import SHIM

# Random programs draw the same examples on every run of the suite: a red run blocks a landing,
# so a fresh draw must not decide it (the last hang CI met was a new draw of an old bug).
# PIPEV_HYPOTHESIS=explore draws afresh, for hunting (docs/decisions.md).
settings.register_profile("fixed", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("PIPEV_HYPOTHESIS", "fixed"))

# the stand-in packages a TIK script imports (simulator/tik/shim): unloaded after each test, so
# that the next one imports them afresh
TIK_PACKAGES = ("tbe", "te", "tik", "impl")


@pytest.fixture
def tik_importable(monkeypatch):
    """`from tbe import tik` (and the op-framework modules) importable, as under `pipev run`."""
    monkeypatch.syspath_prepend(SHIM)
    yield
    for name in [m for m in sys.modules if m.split(".")[0] in TIK_PACKAGES]:
        del sys.modules[name]


@pytest.fixture
def reference_lines(monkeypatch) -> list[int]:
    """The lines of every instruction the reference path (`Executor.execute`) issues."""
    from simulator.executor import Executor
    calls = []
    real = Executor.execute

    def spy(self, instr):
        calls.append(instr.line)
        return real(self, instr)

    monkeypatch.setattr(Executor, "execute", spy)
    return calls
