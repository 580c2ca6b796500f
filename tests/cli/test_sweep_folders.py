"""One C++ (and one TIK) program swept in two folders that hold different input data gets each
folder's own results (#30 item 4): its run reads the folder's files, so a row recorded in one
folder is never served in the other, though the program, its parameters and the files it read
there are unchanged. Both sweeps share one row cache; each is checked against its own folder's
expected output, and a repeat in each folder is served from the cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simulator.sweep import sweep

ROOT = Path(__file__).resolve().parents[2]


def _folder(base: Path, name: str, modulus: int) -> Path:
    """A folder with programs/, data/x.bin (arange(2048) % MODULUS) and z.npy (3 x)."""
    d = base / name
    (d / "data").mkdir(parents=True)
    (d / "programs").symlink_to(ROOT / "programs")
    x = np.arange(2048, dtype=np.float32) % modulus
    x.tofile(d / "data" / "x.bin")
    np.save(d / "z.npy", x * 3)
    return d


def _summary(stderr: str) -> str:
    return next(line for line in stderr.splitlines() if " variants: " in line)


def test_a_cpp_sweep_in_two_folders_gets_each_folders_results(pipev, tmp_path):
    a, b = _folder(tmp_path, "a", 5), _folder(tmp_path, "b", 7)
    argv = ["sweep", "programs/ascendc/scale_input.cpp", "--param", "TILE=256,512", "-D",
            "SCALE=3", "--expect", "gm_z=z.npy", "--out", "s.csv", "--cache",
            str(tmp_path / "rows"), "--", "data"]
    runs = {}
    for name, folder in (("a", a), ("b", b), ("a again", a), ("b again", b)):
        proc = pipev(*argv, cwd=folder)
        assert proc.returncode == 0, proc.stderr
        runs[name] = _summary(proc.stderr)
    # each folder's rows match its own z.npy: b's first sweep was not served a's rows
    assert runs["a"].startswith("2 variants: 2 ok, 0 errors, 0 from the cache"), runs
    assert runs["b"].startswith("2 variants: 2 ok, 0 errors, 0 from the cache"), runs
    assert runs["a again"].startswith("2 variants: 2 ok, 0 errors, 2 from the cache"), runs
    assert runs["b again"].startswith("2 variants: 2 ok, 0 errors, 2 from the cache"), runs
    # and the rows say so: the same expect verdict, from different data
    assert (a / "s.csv").read_text().count("match") == 2
    assert (b / "s.csv").read_text().count("match") == 2


# the TIK script reads ARGV[1]/w.npy: the value it fills its output with
TIK = """\
import sys

import numpy as np
from tbe import tik

K = 1
W = np.load(sys.argv[1] + "/w.npy")


def kernel():
    t = tik.Tik()
    z = t.Tensor("float16", (256,), name="z_gm", scope=tik.scope_gm)
    u = t.Tensor("float16", (256,), name="u", scope=tik.scope_ubuf)
    t.vec_dup(128, u, float(W[0]) * K, 2, 8)
    t.data_move(z, u, 0, 1, 16, 0, 0)
    t.BuildCCE(kernel_name="k", inputs=[], outputs=[z])


kernel()
"""


def test_a_tik_sweep_in_two_folders_gets_each_folders_results(tmp_path, monkeypatch, env):
    rows = tmp_path / "rows"
    folders = {}
    for name, value in (("a", 2), ("b", 5)):
        d = tmp_path / name
        (d / "data").mkdir(parents=True)
        (d / "k.py").write_text(TIK)
        np.save(d / "data" / "w.npy", np.full(256, value, np.float16))
        for k in (1, 2):
            np.save(d / f"z{k}.npy", np.full(256, value * k, np.float16))
        folders[name] = d

    def swept(name: str, k: int):
        monkeypatch.chdir(folders[name])
        return sweep("k.py", {"K": [str(k)]}, argv=["data"], jobs=1, cache=rows,
                     expect={"z_gm": f"z{k}.npy"})

    for k in (1, 2):
        first_a, first_b = swept("a", k), swept("b", k)
        again_a, again_b = swept("a", k), swept("b", k)
        assert (first_a.cached, first_b.cached, again_a.cached, again_b.cached) == (0, 0, 1, 1)
        for result in (first_a, first_b, again_a, again_b):
            assert [r["expect"] for r in result.rows] == ["match"], result.rows
