"""The on-disk row cache: one small JSON file per variant key, written atomically, so an
interrupted sweep resumes where it stopped and a repeated one is served without running.

Whoever can write the cache directory (a sync tool that misplaces a file, another user, a
crafted file) must not control the table: a row file carries the key and parameters it was
stored under and is served only when both match; it is read only from a regular file, at most
MAX_BYTES of it, as strict JSON (no NaN/Infinity), and its row must have the shape `run_task`
makes (simulator.sweep.task.valid_row). Anything else is absent: the variant runs again and
its fresh row replaces the file."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path

from simulator.sweep.reads import unchanged
from simulator.sweep.task import valid_row

MAX_BYTES = 4 << 20  # a row is a few hundred bytes; thousands of outputs or reads still fit
ENVELOPE = 2  # the file's layout: {"envelope", "key", "params", "row", "reads"}


def default_dir() -> Path:
    from simulator.ascendc.build import cache_root

    return cache_root() / "sweep"


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a row holds")


def read_bounded(path: Path, limit: int = MAX_BYTES) -> bytes | None:
    """The bytes of PATH when it is a regular file of at most LIMIT bytes, else None. Opened
    non-blocking (a FIFO must not wait for a writer) and checked on the open descriptor (no
    race with a swap), so a device, a FIFO or a symlink to /dev/zero is refused unread."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks) if size <= limit else None  # grew while read: refused
    except OSError:
        return None
    finally:
        os.close(fd)


def _params(params) -> list[list[str]]:
    return [[str(name), str(value)] for name, value in params]


class Cache:
    def __init__(self, directory: str | Path):
        self.dir = Path(directory)

    def _file(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str, params=()) -> dict | None:
        """The row stored for KEY with PARAMS ((name, value) pairs), or None when there is
        none or what is there is not exactly such a row."""
        data = read_bounded(self._file(key))
        if data is None:
            return None
        try:
            stored = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return None  # torn or not JSON: run it again
        if not isinstance(stored, dict) or stored.get("envelope") != ENVELOPE \
                or stored.get("key") != key or stored.get("params") != _params(params):
            return None  # another key's row (a misplaced file), or an older layout
        reads = stored.get("reads")
        if not isinstance(reads, list) or not unchanged(reads):
            return None  # a file the run read has changed (or appeared): run it again
        row = stored.get("row")
        return row if valid_row(row) else None

    def put(self, key: str, row: dict, params=(), reads=()) -> None:
        """Store ROW under KEY with its PARAMS and the (path, sha256) of the files its run
        READ; a cache that cannot be written costs speed, never the sweep."""
        target = self._file(key)
        stored = {"envelope": ENVELOPE, "key": key, "params": _params(params), "row": row,
                  "reads": [list(r) for r in reads]}
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".row-", dir=target.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(stored, f, allow_nan=False)
                os.replace(tmp, target)  # replaces a FIFO or symlink there, never writes through
            finally:
                Path(tmp).unlink(missing_ok=True)
        except (OSError, ValueError):
            pass
