"""Fixtures shared by every test directory."""

from __future__ import annotations

import sys

import pytest

from simulator.tik import SHIM

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
