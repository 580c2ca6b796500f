"""The optional packages pipev's commands use and the extra (`pip install 'pipev[EXTRA]'`) that
brings each: the one place a missing package's message is worded."""

from __future__ import annotations

import importlib.util

# top-level module -> the extra of pyproject.toml that installs it
EXTRAS = {"pytest": "test", "hypothesis": "test", "prompt_toolkit": "debug",
          "matplotlib": "sweep", "pyarrow": "sweep", "distributed": "dask"}


def missing_message(module: str) -> str:
    """`error: MODULE is not installed: pip install 'pipev[EXTRA]'`, or Python's `No module
    named` for a module no extra brings."""
    top = module.split(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return f"error: no module named '{module}'"
    return f"error: {top} is not installed: pip install 'pipev[{extra}]'"


def is_missing(module: str) -> bool:
    """Whether MODULE (or its top-level package) cannot be imported here."""
    top = module.split(".")[0]
    try:
        return importlib.util.find_spec(top) is None
    except (ImportError, ValueError):
        return True
