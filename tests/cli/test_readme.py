"""Every command of the README tutorial runs and prints what the README shows; every file the
README shows is the file that ships."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# other documents whose console sessions are run the same way
DOCS = [README, *((ROOT / doc).read_text(encoding="utf-8")
                   for doc in ("programs/kernels/README.md", "docs/tik.md", "docs/debugger.md",
                               "docs/ascendc.md"))]
BLOCK_RE = re.compile(r"(?:<!-- file: (?P<file>\S+) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)```",
                      re.S)


def blocks(text: str = README) -> list[tuple[str | None, str, str]]:
    return [(m["file"], m["lang"], m["body"]) for m in BLOCK_RE.finditer(text)]


ELISION = "…"  # a transcript line of its own: the output has lines here the README leaves out


def sessions() -> list[tuple[str, list[str], bool]]:
    """(command, expected output lines, complete) of every `$ ` line in the console blocks:
    the README's transcripts are complete but where a `…` line marks an elision; the other
    documents' are excerpts."""
    out: list[tuple[str, list[str], bool]] = []
    for doc in DOCS:
        for _, lang, body in blocks(doc):
            if lang != "console":
                continue
            for line in body.splitlines():
                if line.startswith("$ "):
                    out.append((line[2:], [], doc is README))
                elif out and line.strip():
                    out[-1][1].append(line.rstrip())
    return out


def matches(expected: list[str], lines: list[str]) -> bool:
    """LINES are EXPECTED exactly, where a `…` line stands for any number of lines and a `…`
    inside a line for any text (an absolute path)."""
    pattern = "".join(".*?" if e.strip() == ELISION else
                      "[^\n]*".join(map(re.escape, e.split(ELISION))) + "\n" for e in expected)
    return re.fullmatch(pattern, "".join(ln + "\n" for ln in lines), re.S) is not None


@pytest.mark.parametrize("path,body", [(f, b) for f, _, b in blocks() if f])
def test_files_shown_are_the_files_shipped(path, body):
    assert (ROOT / path).read_text(encoding="utf-8") == body


@pytest.mark.parametrize("command,expected,complete", sessions(),
                         ids=[c for c, _, _ in sessions()])
def test_tutorial_command(command, expected, complete, tmp_path, env):
    (tmp_path / "programs").symlink_to(ROOT / "programs")
    argv = shlex.split(command)
    assert argv[0] == "pipev"
    env = dict(env, COLUMNS="200")  # with the session's C++ compile cache
    proc = subprocess.run([sys.executable, "-m", "simulator.cli", *argv[1:]], cwd=tmp_path,
                          capture_output=True, text=True, env=env, timeout=120)
    lines = [line.rstrip() for line in (proc.stdout + proc.stderr).splitlines()]
    lines = [ln for ln in lines if ln.strip()]
    want_error = any(": error:" in e for e in expected)
    assert proc.returncode == (1 if want_error else 0), proc.stderr
    if complete:
        assert matches(expected, lines), "the README's transcript is not the output (mark " \
            "left-out lines with …):\n" + "\n".join(lines)
        return
    position = 0
    for e in expected:  # the README's lines appear in this order (excerpts may skip lines)
        assert e in lines[position:], f"README line not printed: {e!r}\n" + "\n".join(lines)
        position = lines.index(e, position) + 1


def test_an_elision_stands_for_lines_and_nothing_else_is_skipped():
    assert matches(["a", "…", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "b"], ["a", "b"]) and not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["…", "c"], ["a", "b", "c"]) and not matches(["a"], ["a", "b"])
    assert matches(["out -> …/o.npy"], ["out -> /tmp/x/o.npy"])


def test_readme_opens_with_install_and_test_commands():
    first, second = [b for _, lang, b in blocks() if lang == "sh"][:2]
    assert "pip install -e '.[test]'" in first and "pipev run programs/" in first
    assert second.strip() == "scripts/test"  # the viewer tests' tools, then pytest
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.splitlines()[-1] == second.strip()  # CI ends by running exactly that command
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert "npm ci --prefix tests/viewers" in script and script.rstrip().endswith(
        'exec "$py" -m pytest -n "${PIPEV_TEST_WORKERS:-2}" "$@"')


EXAMPLE_RE = re.compile(r"<!-- example: (?P<name>\S+) -->\n```python\n(?P<body>.*?)```", re.S)
EXAMPLES = [(doc.name, m["name"], m["body"]) for doc in (ROOT / "README.md",
                                                          *sorted((ROOT / "docs").glob("*.md")))
            for m in EXAMPLE_RE.finditer(doc.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("doc,name,body", EXAMPLES, ids=[f"{d}:{n}" for d, n, _ in EXAMPLES])
def test_python_examples_in_the_docs_run(doc, name, body, monkeypatch, capsys, env):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PIPEV_CACHE_DIR", env["PIPEV_CACHE_DIR"])  # a C++ example's compile
    exec(compile(body, f"{doc}:{name}", "exec"), {"__name__": "__example__"})
    printed = capsys.readouterr().out
    for want in re.findall(r"print\(.*\)\s+# (\{.*\})$", body, re.M):
        assert want in printed  # a printed value the example shows in its comment
