"""Launches in `#include`d files: the vendor's two-file layout puts the `<<<>>>` wrapper in the
kernel file, which main.cpp may `#include` (or a header holding a launch may be shared).

`rewrite_includes` follows a file's quoted `#include "NAME"` lines to the user's files they name
(NAME beside the including file, else in a -I directory; pipev's own headers are never
followed). A file that holds a launch or a `__ubuf__` array (`launch.rewrite` changes it), or
includes one that does, is written to the compile cache rewritten, as
`src/<content hash>/<its name>` with a `#line 1 "<its name as the compiler would show it>"`, and
the `#include` lines that lead to it name that copy (lines kept, so positions and `__FILE__` are
the user's). Copies are named by their content: the including file's text, and so the cache key,
follows every file below it. `original_of` maps a copy in a dependency list back to the file
the user wrote.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from isa.diagnostics import Diagnostic
from simulator.ascendc import launch
from simulator.ascendc.cachefile import write_text_atomically

QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"(?P<name>[^"\n]+)"', re.M)
_ORIGINALS: dict[str, str] = {}  # copy (resolved) -> the user's file it was made from
_HEADERS = (Path(__file__).resolve().parent / "include").resolve()


class IncludeError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def original_of(path: str) -> str:
    """The user's file a cache copy was made from (PATH itself when it is no copy)."""
    return _ORIGINALS.get(str(Path(path).resolve()), path)


def rewrite_includes(text: str, display: str, path: Path, out_dir: Path,
                     includes: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """(TEXT — the file at PATH, shown as DISPLAY, its own launches already rewritten — with
    each quoted include of a file that needs rewriting pointed at that file's rewritten copy,
    the folders of the files copied): a copy compiled from the cache finds the files beside
    its original (which need no copy and keep their quoted names) by `-iquote` of these."""
    tree = _Tree(out_dir, tuple(Path(i) for i in includes))
    return tree.text_of(text, display, path), tuple(tree.folders)


class _Tree:
    def __init__(self, out_dir: Path, includes: tuple[Path, ...]):
        self.out_dir = out_dir
        self.includes = includes
        self.copies: dict[Path, str | None] = {}  # resolved file -> its copy (None: as it is)
        self.visiting: set[Path] = set()
        self.folders: list[str] = []  # the folders of the files copied, in the order met

    def text_of(self, text: str, display: str, path: Path) -> str:
        blanked = launch.blank(text)
        out, pos = [], 0
        for m in QUOTED_INCLUDE.finditer(text):
            if "include" not in blanked[m.start():m.start("name")]:
                continue  # inside a comment (blanked)
            found = self._resolve(m.group("name"), display, path)
            if found is None:
                continue
            inc_display, inc_path = found
            copy = self._copy_of(inc_display, inc_path)
            if copy is None:
                continue
            out.append(text[pos:m.start("name")])
            out.append(copy.replace("\\", "\\\\"))
            pos = m.end("name")
        out.append(text[pos:])
        return "".join(out)

    def _resolve(self, name: str, display: str, path: Path) -> tuple[str, Path] | None:
        for base, shown in [(path.parent, Path(display).parent),
                            *((d, d) for d in self.includes)]:
            cand = base / name
            if cand.is_file():
                resolved = cand.resolve()
                if resolved.is_relative_to(_HEADERS):
                    return None
                return os.path.normpath(shown / name), cand
        return None

    def _copy_of(self, display: str, path: Path) -> str | None:
        """The copy of PATH to include instead (None: include the file itself)."""
        resolved = path.resolve()
        if resolved in self.copies:
            return self.copies[resolved]
        if resolved in self.visiting:  # an include cycle (guarded headers): as it is
            return None
        self.visiting.add(resolved)
        try:
            original = resolved.read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            self.visiting.discard(resolved)
            self.copies[resolved] = None
            return None
        try:
            text = launch.rewrite(original)
        except launch.RewriteError as e:
            raise IncludeError(Diagnostic("error", display, e.line, e.col, e.message)) from None
        text = self.text_of(text, display, path)
        self.visiting.discard(resolved)
        copy = None
        if text != original:
            copy = str(self._write(display, resolved, text))
            if str(resolved.parent) not in self.folders:
                self.folders.append(str(resolved.parent))
        self.copies[resolved] = copy
        return copy

    def _write(self, display: str, resolved: Path, text: str) -> Path:
        body = f'#line 1 "{display.replace(chr(92), chr(92) * 2)}"\n{text}'
        digest = hashlib.sha256(f"{resolved}\0{body}".encode()).hexdigest()[:32]
        copy = self.out_dir / digest / resolved.name
        if not copy.is_file():
            copy.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomically(copy, body)
        _ORIGINALS[str(copy.resolve())] = str(resolved)
        return copy
