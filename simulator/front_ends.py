"""Which front end takes a program file: the one place that reads a path's suffix (the command
group, `pipev sweep` and its tasks ask here). Imports nothing but os, so a `.vasm` run loads no
front end."""

from __future__ import annotations

import os
from typing import Literal

FrontEnd = Literal["vasm", "cpp", "tik"]

SUFFIXES: dict[str, FrontEnd] = {".cpp": "cpp", ".asc": "cpp", ".cc": "cpp", ".cxx": "cpp",
                                 ".py": "tik"}


def front_end_for(path: str) -> FrontEnd:
    """`cpp` (simulator/ascendc) for C++ sources, `tik` (simulator/tik) for Python scripts,
    `vasm` (the assembler) for anything else. A directory is a C++ project (its
    CMakeLists.txt names the sources: simulator/ascendc/cmake.py)."""
    if os.path.isdir(path):
        return "cpp"
    dot = path.rfind(".")
    return SUFFIXES.get(path[dot:].lower(), "vasm") if dot >= 0 else "vasm"
