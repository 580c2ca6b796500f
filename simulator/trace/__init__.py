"""Trace writers (docs/format.md §11): jsonl (default), chrome, vcd, text.

`open_writer` returns an observer the run builder attaches; `close(ok=True)` renames the finished
file into place. Nothing here is imported unless a trace is requested.
"""

from __future__ import annotations

from pathlib import Path

FORMATS = ("jsonl", "chrome", "vcd", "text")
EXTENSIONS = {".jsonl": "jsonl", ".json": "chrome", ".vcd": "vcd", ".txt": "text"}


def format_for(path: str | Path, fmt: str | None = None) -> str:
    """FMT, or the format PATH's extension names; ValueError listing the extensions."""
    if fmt is not None:
        return fmt
    ext = Path(path).suffix.lower()
    if ext in EXTENSIONS:
        return EXTENSIONS[ext]
    known = ", ".join(f"{e} ({f})" for e, f in EXTENSIONS.items())
    raise ValueError(f"cannot tell the trace format from '{Path(path).name}': name it "
                     f"{known}, or give --trace-format")


def open_writer(fmt: str | None, path: Path, chip, name: str, timed: bool, cores: int = 1,
                **options):
    """A writer of format FMT (None: from PATH's extension) streaming to a temporary file
    beside PATH, for a launch of CORES cores (every event says its `core`). Raises
    SimulationError when the file cannot be created, ValueError for an unknown format.
    OPTIONS go to the writer (chrome: `time="cycles"|"real"`; text: `width`, `cycles`)."""
    fmt = format_for(path, fmt)
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
    return cls(Path(path), chip, name, timed, cores, **options)


__all__ = ["open_writer", "format_for", "FORMATS", "EXTENSIONS"]
