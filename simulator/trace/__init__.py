"""Trace writers (ISA.md §11): jsonl (default), chrome, vcd, text.

`open_writer` returns an observer the run builder attaches; `close(ok=True)` renames the finished
file into place. Nothing here is imported unless a trace is requested.
"""

from __future__ import annotations

from pathlib import Path

FORMATS = ("jsonl", "chrome", "vcd", "text")


def open_writer(fmt: str, path: Path, chip, name: str, timed: bool, cores: int = 1):
    """A writer of format FMT streaming to a temporary file beside PATH, for a launch of CORES
    cores (every event says its `core`). Raises
    SimulationError when the file cannot be created, ValueError for an unknown format."""
    if fmt == "jsonl":
        from simulator.trace.jsonl import JsonlWriter as cls
    elif fmt == "chrome":
        from simulator.trace.chrome import ChromeWriter as cls
    elif fmt == "vcd":
        from simulator.trace.vcd_trace import VcdWriter as cls
    elif fmt == "text":
        from simulator.trace.text import TextWriter as cls
    else:
        raise ValueError(f"trace_format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return cls(Path(path), chip, name, timed, cores)


__all__ = ["open_writer", "FORMATS"]
