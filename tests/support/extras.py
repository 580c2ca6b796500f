"""A test needs what pipev's `test` extra installs (pyproject.toml); a missing package is a
failure that says which extra installs it, never a skip (a skipped test passes unseen on a
machine that lacks it)."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

INSTALL = "pip install -e '.[test]'"


def require(module: str, extra: str = "test") -> ModuleType:
    """MODULE imported, or the test fails naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        pytest.fail(f"this test needs {module} ({e}), which pipev's '{extra}' extra installs: "
                    f"{INSTALL if extra == 'test' else f'pip install -e .[{extra}]'}",
                    pytrace=False)
