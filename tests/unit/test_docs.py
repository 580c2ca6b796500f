"""The reference ships with pipev: every document a file cites is in the repository
(scripts/fix_citations.py rewrites citations of the old spec documents)."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SPEC_NAMES = re.compile(r"\b(ISA|TIMING|ARCHITECTURE|PERFORMANCE)\.md\b")
CITED = re.compile(r"docs/([a-z_]+\.md)")


def tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    names = out.stdout.split() if out.returncode == 0 else []
    files = [ROOT / n for n in names] or [p for p in ROOT.rglob("*") if p.is_file()
                                         and ".venv" not in p.parts and ".git" not in p.parts]
    return [p for p in files if p.suffix in (".py", ".md", ".toml", ".h", ".vasm", ".txt", "")
            and p.is_file()]


def test_no_file_cites_the_unshipped_spec_documents():
    offenders = [str(p.relative_to(ROOT)) for p in tracked_files()
                 if p.name != "fix_citations.py"
                 and SPEC_NAMES.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert offenders == []


def test_every_cited_docs_file_exists():
    missing = {(str(p.relative_to(ROOT)), m) for p in tracked_files()
               for m in CITED.findall(p.read_text(encoding="utf-8", errors="replace"))
               if not (DOCS / m).exists()}
    assert missing == set()


def test_the_reference_documents_hold_every_numbered_section():
    text = "".join((DOCS / f).read_text() for f in ("machine.md", "format.md", "semantics.md",
                                                   "timing.md"))
    for n in range(1, 15):
        assert re.search(rf"(?m)^## {n}\. ", text), n
    for n in range(1, 8):
        assert re.search(rf"(?m)^### T{n}\. ", text), n
