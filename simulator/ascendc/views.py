"""The kernel's GlobalTensor views of GM, beside a C++ recording (`rec.vasm` → `rec.views.json`):
what the debugger needs to show GM as the kernel declared it, in its `GlobalTensor<T>` element
type and under its variable's name (`print xGm[0:8]`), which the recording's statements (over
byte buffers, `gm_x[(4096)]`) do not say.

The headers report each `SetGlobalBuffer` (the bridge's gm_tensor callback: T, the host pointer
and the element count); the bridge maps the pointer to its GM buffer and byte offset and takes
the variable's name from the call's source text: `xGm.SetGlobalBuffer(...)` names `xGm` (the
k-th such call on a line of several is the line's k-th `NAME.SetGlobalBuffer`). A call whose
object is no plain name (`tensors[i].SetGlobalBuffer`) types its buffer but names nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs

from simulator.ascendc.source import SourceLines

SET_GLOBAL = re.compile(r"\b([A-Za-z_]\w*)\s*(?:\.|->)\s*SetGlobalBuffer\b")
SET_ANY = re.compile(r"SetGlobalBuffer\s*[(<]")


@attrs.frozen
class GmView:
    """A `GlobalTensor<T>` the kernel set: NAME (None: not a plain variable) of COUNT elements
    of pipev TYPE (None: no pipev type) at byte OFFSET of GM buffer BUFFER, set before the
    recording's statement PC, at FILE:LINE."""

    name: str | None
    type: str | None
    buffer: str
    offset: int
    count: int
    pc: int
    file: str
    line: int


def views_file(recording: str | Path) -> Path:
    """The views file beside RECORDING (`rec.vasm` → `rec.views.json`)."""
    p = Path(recording)
    return p.with_name(p.stem + ".views.json")


def save_views(recording: str | Path, views: list[GmView]) -> Path | None:
    """Write VIEWS beside RECORDING (nothing when there are none); the path written."""
    if not views:
        return None
    path = views_file(recording)
    path.write_text(json.dumps([attrs.asdict(v) for v in views], indent=0) + "\n",
                    encoding="utf-8")
    return path


def load_views(recording: str | Path) -> list[GmView]:
    """The views beside RECORDING; [] when there is no (readable, well-formed) file: the
    debugger then types GM by its DMA partners, as for a recording written by hand."""
    try:
        rows = json.loads(views_file(recording).read_text(encoding="utf-8"))
        return [GmView(**row) for row in rows]
    except (OSError, ValueError, TypeError):
        return []


class Namer:
    """The variable a `SetGlobalBuffer` call at FILE:LINE sets, from the source text."""

    def __init__(self):
        self._source = SourceLines()
        self._calls: dict[tuple[str, int], int] = {}  # calls seen per line (this core)

    def reset(self) -> None:
        self._calls.clear()

    def name(self, file: str, line: int) -> str | None:
        text = self._source.line(file, line)
        calls = len(SET_ANY.findall(text))
        if not calls:
            return None
        k = self._calls.get((file, line), 0)
        self._calls[(file, line)] = k + 1
        names = [m for m in SET_GLOBAL.finditer(text)]
        # every call on the line names a plain variable: the k-th call is the k-th name
        if len(names) != calls:
            return None
        return names[k % calls].group(1)
