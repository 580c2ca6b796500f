"""Sweeps that can be trusted (#30 item 4): a row is served from the cache only while the files
its run read are unchanged (a name built at run time included), `-D NAME=V` and `-- ARGS` reach
every C++ and TIK variant, and a variant that differs from --expect or did no work is never
"best" anywhere: summary, HTML page, plot. docs/sweep.md's C++/TIK examples run here."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from simulator.sweep import plot, table

ROOT = Path(__file__).resolve().parents[2]
SECTION = (ROOT / "docs/sweep.md").read_text(encoding="utf-8").split(
    "### C++ and TIK sweeps you can trust")[1].split("\n## ")[0]


def doc_sessions() -> list[tuple[list[str], list[str]]]:
    """(argv, expected lines) of each `$ pipev ...` line of the section's console blocks."""
    out: list[tuple[list[str], list[str]]] = []
    for body in re.findall(r"```console\n(.*?)```", SECTION, re.S):
        for line in body.splitlines():
            if line.startswith("$ pipev "):
                out.append((shlex.split(line[len("$ pipev "):]), []))
            elif line.strip():
                out[-1][1].append(line)
    return out


def shown(expected: str, lines: list[str]) -> bool:
    """EXPECTED (where `…` stands for any text) is one of LINES."""
    pattern = ".*?".join(map(re.escape, expected.split("…")))
    return any(re.fullmatch(pattern, ln) for ln in lines)


@pytest.fixture
def folder(tmp_path):
    """The sweep's directory: programs/, data/x.bin (arange(2048) % 5) and z.npy (3 times)."""
    (tmp_path / "programs").symlink_to(ROOT / "programs")
    (tmp_path / "data").mkdir()
    x = np.arange(2048, dtype=np.float32) % 5
    x.tofile(tmp_path / "data" / "x.bin")
    np.save(tmp_path / "z.npy", x * 3)
    return tmp_path


def test_the_docs_cpp_and_tik_sweeps_print_what_they_show(pipev, folder):
    sessions = doc_sessions()
    assert len(sessions) == 3
    for argv, expected in sessions:
        proc = pipev(*argv, cwd=folder)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stderr.splitlines()
        for e in expected:
            assert shown(e, lines), f"{e!r} not printed by {argv}:\n{proc.stderr}"
    page = (folder / "s.html").read_text()
    assert "4 variants: 3 ok, 1 differ from --expect, 0 errors; best by cycles: 1772" in page
    best_table = page.split("<h2>best 3</h2>")[1]
    assert "4096" not in best_table and best_table.count("<td>match</td>") == 3
    # the file the host read changed: every row is run again, then served again
    np.full(2048, 1, np.float32).tofile(folder / "data" / "x.bin")
    again = pipev(*sessions[1][0], cwd=folder)
    assert "1 differ from --expect" not in again.stderr  # x = 1: z.npy no longer matches
    assert "4 variants: 0 ok, 4 differ from --expect, 0 errors, 0 from the cache" in \
        again.stderr
    assert "no best variant: none ran, did work and matched --expect" in again.stderr
    # without --expect the idle variant is said to be one: still never the best
    argv = [a for a in sessions[1][0] if a not in ("--expect", "gm_z=z.npy")]
    idle = pipev(*argv, cwd=folder)
    assert "4 variants: 3 ok, 1 did no work (0 cycles), 0 errors, 4 from the cache" in \
        idle.stderr
    assert "best by cycles: TILE=512" in idle.stderr


def test_fixed_defines_and_program_arguments_reach_every_variant(pipev, folder):
    (folder / "other").mkdir()
    (np.arange(2048, dtype=np.float32) % 5 * 3 / 7).astype(np.float32).tofile(
        folder / "other" / "x.bin")
    common = ["sweep", "programs/ascendc/scale_input.cpp", "--param", "TILE=256,512",
              "--expect", "gm_z=z.npy", "--out", "r.csv"]
    proc = pipev(*common, "-D", "SCALE=7", "--", "other", cwd=folder)
    assert "2 variants: 2 ok, 0 errors" in proc.stderr, proc.stderr  # 7 * x / 7 * 3
    missing = pipev(*common, "-D", "SCALE=3", "--", "nowhere", cwd=folder)
    assert "2 variants: 0 ok, 2 errors" in missing.stderr
    assert "cannot read 8192 bytes from nowhere/x.bin" in missing.stderr
    both = pipev(*common, "-D", "TILE=64", cwd=folder)
    assert both.returncode == 2 and "TILE is both fixed (-D) and swept (--param)" in both.stderr
    vasm = pipev("sweep", "programs/kernels/where_tuned.vasm", "--param", "TILE=512",
                 "--out", "v.csv", "--", "x", cwd=folder)
    assert vasm.returncode == 2 and "a .vasm program takes none" in vasm.stderr


def test_a_tik_scripts_arguments_and_reads(folder, monkeypatch, env):
    from simulator.sweep import sweep

    monkeypatch.chdir(folder)
    (folder / "k.py").write_text(TIK)
    np.save(folder / "data" / "w.npy", np.full(256, 2, np.float16))
    first = sweep("k.py", {"K": ["1", "2"]}, defines={"SCALE": "3"}, argv=["data"], jobs=1,
                  cache=folder / "rows")
    assert [r["status"] for r in first.rows] == ["ok", "ok"], first.rows
    assert sweep("k.py", {"K": ["1", "2"]}, defines={"SCALE": "3"}, argv=["data"], jobs=1,
                 cache=folder / "rows").cached == 2
    np.save(folder / "data" / "w.npy", np.full(256, 5, np.float16))
    assert sweep("k.py", {"K": ["1", "2"]}, defines={"SCALE": "3"}, argv=["data"], jobs=1,
                 cache=folder / "rows").cached == 0
    gone = sweep("k.py", {"K": ["1"]}, defines={"SCALE": "3"}, argv=["elsewhere"], jobs=1,
                 cache=False)
    assert "the script raised FileNotFoundError" in gone.rows[0]["error"]


# a TIK script whose input's folder is its first argument (sys.argv[1])
TIK = """\
import sys

import numpy as np
from tbe import tik

K = 1
SCALE = 1
W = np.load(sys.argv[1] + "/w.npy")


def kernel():
    t = tik.Tik()
    z = t.Tensor("float16", (256,), name="z_gm", scope=tik.scope_gm)
    u = t.Tensor("float16", (256,), name="u", scope=tik.scope_ubuf)
    t.vec_dup(128, u, float(W[0]) * SCALE, 2 * K // K, 8)
    t.data_move(z, u, 0, 1, 16, 0, 0)
    t.BuildCCE(kernel_name="k", inputs=[], outputs=[z])


kernel()
"""


# -- the verdicts, the best row, the plot's title ---------------------------------------------

def _row(cycles: int, expect: str | None = None, status: str = "ok", **params) -> dict:
    row = {**params, "status": status, "error": "", "cycles": cycles, "time_us": 0.1,
           "instructions": 1, "uops": 1}
    return row if expect is None else {**row, "expect": expect}


def test_a_wrong_or_idle_variant_is_never_best():
    rows = [_row(10, "match", T=1), _row(0, "differs: z", T=2), _row(0, "match", T=3),
            _row(5, "differs: z", T=4), {"T": 5, "status": "error", "error": "x"}]
    assert [table.verdict(r) for r in rows] == ["ok", "differs", "no work", "differs", "error"]
    assert table.best(rows)["T"] == 1 and table.best(rows, "cycles:max")["T"] == 1
    assert [r["T"] for r in table.ranked(rows)] == [1]
    assert table.tally_words(table.tally(rows)) == \
        "1 ok, 2 differ from --expect, 1 did no work (0 cycles), 1 error"
    assert table.best([rows[1], rows[2]]) is None


def test_the_plot_title_counts_what_it_ranks(tmp_path):
    rows = [_row(10 * t, "match" if t < 3 else "differs: z", T=t) for t in range(1, 5)]
    figure = plot._figure(rows, ["T"], "cycles")
    try:
        title = figure._suptitle.get_text()
        labels = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    finally:
        import matplotlib.pyplot as plt

        plt.close(figure)
    assert title == "cycles by parameter (4 variants: 2 ok, 2 differ from --expect, 0 errors)"
    assert labels == ["cycles", "differs from --expect"]  # the line, then the crosses
    page = plot._page("<svg/>", rows, ["T", "status", "expect", "cycles"], "cycles")
    assert "4 variants: 2 ok, 2 differ from --expect, 0 errors; best by cycles: 10" in page
    assert "<h2>best 2</h2>" in page and "differs: z" not in page.split("<h2>")[1]
