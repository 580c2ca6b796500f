"""The on-disk row cache: one small JSON file per variant key, written atomically, so an
interrupted sweep resumes where it stopped and a repeated one is served without running."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def default_dir() -> Path:
    from simulator.ascendc.build import cache_root

    return cache_root() / "sweep"


class Cache:
    def __init__(self, directory: str | Path):
        self.dir = Path(directory)

    def _file(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        try:
            row = json.loads(self._file(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # absent or torn: run it again
        return row if isinstance(row, dict) else None

    def put(self, key: str, row: dict) -> None:
        """Store ROW; a cache that cannot be written costs speed, never the sweep."""
        target = self._file(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".row-", dir=target.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(row, f)
            os.replace(tmp, target)
        except OSError:
            pass
