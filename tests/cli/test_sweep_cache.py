"""The sweep's row cache is not trusted (#31 12): a row is served only when its file is a
regular file of bounded size holding strict JSON, stored under this key with these parameters,
with the shape of a run's row; anything else is run again and replaced."""

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from simulator.sweep import sweep
from simulator.sweep.cache import MAX_BYTES, Cache

PROGRAM = """\
.chip ascend910b
.param K = 1
.gm  a    f32[128]  input = random(1)
.gm  out  f32[128]  output
.ub  x    f32[128]
.ub  z    f32[128]
    copy_gm_to_ub  x, a, nburst=1, burst=16
    set_flag       MTE2, V, 0
    wait_flag      MTE2, V, 0
    abs.f32        z, x, count=64*K
    set_flag       V, MTE3, 0
    wait_flag      V, MTE3, 0
    copy_ub_to_gm  out, z, nburst=1, burst=16
"""


def run(tmp_path: Path):
    prog = tmp_path / "prog.vasm"
    if not prog.exists():
        prog.write_text(PROGRAM)
    with ThreadPoolExecutor(2) as ex:
        return sweep(prog, {"K": [1, 2]}, executor=ex, cache=tmp_path / "cache")


def row_files(tmp_path: Path, result) -> list[Path]:
    return [next((tmp_path / "cache").glob(f"*/{r['key']}*.json")) for r in result.rows]


def test_a_row_copied_over_another_keys_file_is_run_again(tmp_path):
    first = run(tmp_path)
    assert first.rows[0]["uops"] != first.rows[1]["uops"]
    one, two = row_files(tmp_path, first)
    two.write_bytes(one.read_bytes())
    again = run(tmp_path)
    assert [r["cached"] for r in again.rows] == [True, False]
    assert again.rows[1]["uops"] == first.rows[1]["uops"]
    assert run(tmp_path).cached == 2  # the fresh row replaced the misplaced one


@pytest.mark.parametrize("row", [
    {"status": "ok", "cycles": float("-inf")}, {}, [], "ok",
    {"status": "ok", "error": "", "cycles": 10**30, "time_us": 1, "instructions": 1, "uops": 1},
    {"status": "ok", "error": "", "cycles": -1, "time_us": 1, "instructions": 1, "uops": 1},
    {"status": "ok", "error": "", "cycles": True, "time_us": 1, "instructions": 1, "uops": 1},
    {"status": "ok", "error": "", "cycles": 1, "time_us": 1, "instructions": 1},
    {"status": "ok", "error": "", "cycles": 1, "time_us": 1, "instructions": 1, "uops": 1,
     "K": 5},
    {"status": "error"}, {"status": "maybe", "error": ""}, {"status": "error", "error": 3},
])
def test_a_crafted_row_is_run_again(tmp_path, row):
    first = run(tmp_path)
    one, _ = row_files(tmp_path, first)
    stored = json.loads(one.read_text())
    stored["row"] = row
    one.write_text(json.dumps(stored))
    again = run(tmp_path)
    assert [r["cached"] for r in again.rows] == [False, True]
    assert again.rows[0]["cycles"] == first.rows[0]["cycles"]


def test_strict_json_only(tmp_path):
    cache = Cache(tmp_path)
    good = {"status": "ok", "error": "", "cycles": 1, "time_us": 0.1, "instructions": 1,
            "uops": 1}
    cache.put("k1", good, (("K", "1"),))
    assert cache.get("k1", (("K", "1"),)) == good
    assert cache.get("k1", (("K", "2"),)) is None  # stored for other parameters
    text = cache._file("k1").read_text()
    cache._file("k1").write_text(text.replace('"cycles": 1', '"cycles": NaN'))
    assert cache.get("k1", (("K", "1"),)) is None
    cache._file("k1").write_text(text[:-1] + " " * MAX_BYTES + "}")  # valid, but too long
    assert cache.get("k1", (("K", "1"),)) is None
    cache._file("k1").write_text("[" * 100_000 + "]" * 100_000)  # too deep for the parser
    assert cache.get("k1", (("K", "1"),)) is None


def test_a_fifo_or_a_device_is_not_read(tmp_path):
    cache = Cache(tmp_path)
    cache.put("k1", {"status": "error", "error": "x"})
    path = cache._file("k1")
    path.unlink()
    os.mkfifo(path)
    got = []
    reader = threading.Thread(target=lambda: got.append(cache.get("k1")), daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # unblock it before failing, so the test run can end
        with open(path, "w"):
            pass
        pytest.fail("reading a FIFO row waited for a writer")
    assert got == [None]
    path.unlink()
    path.symlink_to("/dev/zero")
    assert cache.get("k1") is None
    cache.put("k1", {"status": "error", "error": "x"})  # replaces the link, never writes through
    assert not path.is_symlink() and cache.get("k1") == {"status": "error", "error": "x"}


# -- #31 03: the key covers the data a program reads by name --------------------------------

READER = PROGRAM.replace("random(1)", 'file("a.npy")')
HOST = """\
#include <cstdio>
int main() {
    FILE* f = fopen("host_in.bin", "rb");
    return f ? 0 : 2;
}
"""
TIK = """\
import numpy as np
K = 1
DATA = np.load('tik_in.npy')
"""


def test_a_changed_file_input_is_not_served_from_the_cache(tmp_path):
    import numpy as np

    (tmp_path / "prog.vasm").write_text(READER)
    np.save(tmp_path / "a.npy", -np.arange(128, dtype=np.float32))
    first = run(tmp_path)
    np.save(tmp_path / "a.npy", np.full(128, -5, dtype=np.float32))
    again = run(tmp_path)
    assert [r["cached"] for r in again.rows] == [False, False]
    assert again.rows[0]["out_out"] != first.rows[0]["out_out"]
    assert run(tmp_path).cached == 2


@pytest.mark.parametrize("name, text, data", [("host.cpp", HOST, "host_in.bin"),
                                              ("k.py", TIK, "tik_in.npy")])
def test_a_row_is_served_only_while_the_files_its_run_read_are_unchanged(
        tmp_path, monkeypatch, env, name, text, data):
    """A C++ host's fopen("...") or a TIK script's np.load('...'), relative to the sweep's
    working directory: the run records what it read (#30 item 4), and a changed, added or
    removed file runs the variant again."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PIPEV_CACHE_DIR", env["PIPEV_CACHE_DIR"])  # the session's compiles
    (tmp_path / name).write_text(text)

    def served() -> bool:
        result = sweep(name, {"K": ["1"]}, jobs=1, cache=tmp_path / "rows")
        return result.cached == 1

    assert not served()  # no file yet: an error row, cached with the file's absence
    assert served()
    (tmp_path / data).write_bytes(b"one")
    assert not served() and served()
    (tmp_path / data).write_bytes(b"two")
    assert not served() and served()
    (tmp_path / data).unlink()
    assert not served()
