"""Fixtures shared by the end-to-end tests."""

from __future__ import annotations

import os
import sys

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.tik import tik


@pytest.fixture
def cli(monkeypatch):
    """`pipev ARGS` in-process, the changes the TIK commands make to the process undone."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(tik, "SETTINGS", dict(tik.SETTINGS))
    for var in ("PYTHONPATH", "PIPEV_CHIP", "PIPEV_CHECKS"):
        monkeypatch.setenv(var, os.environ.get(var, ""))
    yield lambda *args: CliRunner().invoke(main, [str(a) for a in args])
    for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
        del sys.modules[name]
