"""The progress bar of a sweep on a terminal: done / total, cached, failed, rate, ETA."""

from __future__ import annotations

import sys
import time

WIDTH = 24


class ProgressBar:
    def __init__(self, total: int, stream=None):
        self.total = total
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.done = self.cached = self.failed = 0
        self.shown = False

    def row(self, row: dict, cached: bool) -> None:
        self.done += 1
        self.cached += cached
        self.failed += row.get("status") != "ok"
        self.draw()

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        ran = self.done - self.cached
        rate = ran / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = f"{left / rate:.0f} s" if rate > 0 else "-"
        filled = WIDTH * self.done // self.total if self.total else WIDTH
        bar = "#" * filled + "." * (WIDTH - filled)
        return (f"  [{bar}] {self.done}/{self.total}  cached {self.cached}  failed "
                f"{self.failed}  {rate:.1f} variants/s  ETA {eta}")

    def draw(self) -> None:
        self.stream.write("\r\033[K" + self.line())
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
