"""`pipev debug FILE.cpp`: record the run (--save-vasm into a temporary directory), then debug
the recording with the statements at their C++ lines.

The recording's `.loc` directives give every hardware instruction its C++ file and line; when
they all name one file, the debugger gets that file as the program (its `list` shows the C++
source, `break LINE` and `break kernel.cpp:LINE` stop at that line's API calls, every loop
iteration of them). A recording that spans several files is debugged as the .vasm it is.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from isa.program import Program


def at_cpp_lines(program: Program) -> Program:
    """PROGRAM with its path, lines and statement lines those of the one C++ file its `.loc`
    directives name (unchanged when they name none or several, or the file cannot be read)."""
    files = {h.file for st in program.statements for h in st.hw}
    if len(files) != 1 or "" in files:
        return program
    file = files.pop()
    try:
        lines = Path(file).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return program
    statements = tuple(attrs.evolve(st, line=st.hw[0].line, col=st.hw[0].col) if st.hw else st
                       for st in program.statements)
    return attrs.evolve(program, path=file, lines=tuple(lines), statements=statements)


def recording(directory: Path, launch: int) -> Path | None:
    """The --save-vasm file of LAUNCH (0-based, first core) in DIRECTORY, if it was written."""
    path = directory / ("rec.vasm" if launch == 0 else f"rec.{launch}.vasm")
    return path if path.is_file() else None
