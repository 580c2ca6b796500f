"""Rewrite citations of the unshipped spec (ISA.md §N, TIMING.md §N, ARCHITECTURE.md,
PERFORMANCE.md) to the reference that ships in docs/ (tests/unit/test_docs.py fails on any left).

    python scripts/fix_citations.py        # rewrites tracked files in place, lists the rest

ISA.md's sections keep their numbers: §1-3, §5 are in docs/machine.md; §6-8 in
docs/semantics.md; §4, §9, §11-14 in docs/format.md; §10 in docs/timing.md. TIMING.md §N is
docs/timing.md §TN. A bare `ISA.md` (no section) is listed for a person to decide.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = {1: "machine", 2: "machine", 3: "machine", 5: "machine", 6: "semantics",
            7: "semantics", 8: "semantics", 4: "format", 9: "format", 11: "format",
            12: "format", 13: "format", 14: "format", 10: "timing"}
SELF = ("scripts/fix_citations.py",)  # names the old documents on purpose
CITE = re.compile(r"(ISA|TIMING|ARCHITECTURE|PERFORMANCE)\.md(\s*§\s*(\d+)((?:\.\d+)?))?")


def rewrite(text: str, in_docs: bool) -> tuple[str, int]:
    pre = "" if in_docs else "docs/"
    bare = 0

    def one(m: re.Match) -> str:
        nonlocal bare
        kind, n, sub = m.group(1), m.group(3), m.group(4)
        if kind == "ISA":
            if n is None or int(n) not in SECTIONS:
                bare += 1
                return m.group(0)
            return f"{pre}{SECTIONS[int(n)]}.md §{n}{sub}"
        if kind == "TIMING":
            return f"{pre}timing.md" + (f" §T{n}{sub}" if n else "")
        if kind == "ARCHITECTURE":
            return f"{pre}machine.md (How pipev is organised)"
        return f"{pre}performance.md"

    return CITE.sub(one, text), bare


def main() -> int:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                           text=True).stdout.split()
    left = []
    for name in names:
        if name in SELF:
            continue
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if not CITE.search(text):
            continue
        new, bare = rewrite(text, name.startswith("docs/"))
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {name}")
        if bare:
            left.append(name)
    for name in left:
        print(f"{name}: a citation without a section: fix by hand", file=sys.stderr)
    print("then: ruff check . (lines may now be longer than 100 characters)")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
