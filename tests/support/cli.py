"""`pipev` as a subprocess, as a user runs it: the end-to-end tests' one way to start it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def compile_cache_env(config, tmp_path_factory) -> dict[str, str]:
    """The environment of a `pipev` subprocess: the C++ compile cache in pytest's cache folder
    (a temporary one under -p no:cacheprovider), shared by the session's runs."""
    store = getattr(config, "cache", None)
    cache = store.mkdir("pipev-ascendc") if store else tmp_path_factory.mktemp("cache")
    return dict(os.environ, PIPEV_CACHE_DIR=str(cache))


def pipev_process(env: dict[str, str], cwd: Path, *args, timeout: float = 180
                  ) -> subprocess.CompletedProcess:
    """`pipev ARGS` in CWD; whatever it says, never a traceback."""
    proc = subprocess.run([sys.executable, "-m", "simulator.cli", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def cli_main(args) -> int:
    """`pipev ARGS` in this process, its output the test's own (capfd sees the worker's too, as
    a subprocess's would not be): the exit status."""
    from simulator.cli import main

    try:
        main.main([str(a) for a in args], prog_name="pipev", standalone_mode=True)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return 0
