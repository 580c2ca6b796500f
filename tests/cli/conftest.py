"""Fixtures shared by the end-to-end tests."""

from __future__ import annotations

import os
import sys

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.tik import tik
from tests.support.cli import compile_cache_env, pipev_process


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


@pytest.fixture(scope="session")
def env(request, tmp_path_factory):
    """A `pipev` subprocess's environment, with the session's C++ compile cache."""
    return compile_cache_env(request.config, tmp_path_factory)


@pytest.fixture
def pipev(env, tmp_path):
    """`pipev ARGS` as a subprocess in TMP_PATH (or CWD), never a traceback."""
    def run(*args, cwd=tmp_path, timeout: float = 180):
        return pipev_process(env, cwd, *args, timeout=timeout)
    return run
