"""The sweep's parts on their own: axes, the engine (cache, retries, a dying worker, Ctrl-C),
the table formats, the best row, the plot."""

import csv
import json
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from simulator.sweep import space, table
from simulator.sweep.cache import Cache
from simulator.sweep.engine import Engine
from simulator.sweep.executors import DaskPool, LocalPool, Pool, SweepSetupError, make_pool
from simulator.sweep.task import Task
from tests.support.extras import require


def task(k: int, key: str | None = None) -> Task:
    return Task(k, key or f"key{k:04d}", "p.vasm", "", (("N", str(k)),))


def square(t: Task) -> dict:
    """An ok row of the shape a run gives (the cache serves no other)."""
    return {"status": "ok", "error": "", "cycles": t.index * t.index, "time_us": 0.5,
            "instructions": 1, "uops": 1}


# -- axes ----------------------------------------------------------------------------------

def test_axis_values_and_ranges():
    assert space.parse_axis("TILE=1024, 2048,4096") == ("TILE", ["1024", "2048", "4096"])
    assert space.parse_axis("N=16..64:16") == ("N", ["16", "32", "48", "64"])
    assert space.parse_axis("MODE=a,b") == ("MODE", ["a", "b"])


@pytest.mark.parametrize("text", ["TILE", "=1,2", "1X=2", "T=", "T=1,,2", "T=1,1", "T=9..2"])
def test_bad_axes_are_usage_errors(text):
    with pytest.raises(space.SpaceError):
        space.parse_axis(text)


def test_a_sweep_is_capped_before_anything_is_expanded():
    """#31 19: a range typo (1..100000000) is refused from its length, at once, with the cap
    named; so is a grid whose product is over it, and an API axis of too many values."""
    import time

    t0 = time.perf_counter()
    with pytest.raises(space.SpaceError, match="has 100,000,000 values; a sweep runs at most "
                       "100,000 variants"):
        space.parse_axis("TILE=1..100000000")
    big = {"A": [str(k) for k in range(1000)], "B": [str(k) for k in range(1000)]}
    with pytest.raises(space.SpaceError, match=r"1,000,000 variants \(A: 1,000 x B: 1,000\)"):
        space.expand(big, "grid")
    from simulator.sweep import SweepError, sweep

    with pytest.raises(SweepError, match="at most 100,000"):
        sweep("p.vasm", {"TILE": range(10**9)})
    assert time.perf_counter() - t0 < 5
    assert len(space.expand({"A": big["A"], "B": big["B"][:100]})) == 100_000  # at the cap


def test_grid_and_zip():
    axes = {"A": ["1", "2"], "B": ["x", "y", "z"]}
    grid = space.expand(axes, "grid")
    assert len(grid) == 6 and grid[0] == {"A": "1", "B": "x"} and grid[1] == {"A": "1", "B": "y"}
    assert space.expand({"A": ["1", "2"], "B": ["x", "y"]}, "zip") == [
        {"A": "1", "B": "x"}, {"A": "2", "B": "y"}]
    with pytest.raises(space.SpaceError, match="as many values"):
        space.expand(axes, "zip")


# -- the engine ----------------------------------------------------------------------------

def test_rows_are_cached_and_served(tmp_path):
    cache = Cache(tmp_path)
    calls = []

    def counted(t):
        calls.append(t.index)
        return square(t)

    with ThreadPoolExecutor(2) as ex:
        first = Engine(Pool(ex), cache, function=counted).run([task(k) for k in range(5)])
        assert sorted(calls) == [0, 1, 2, 3, 4] and not first.cached
        again = Engine(Pool(ex), cache, function=counted).run([task(k) for k in range(6)])
    assert sorted(calls) == [0, 1, 2, 3, 4, 5]  # only the new variant ran
    assert again.cached == {0, 1, 2, 3, 4}
    assert again.rows[3] == {"status": "ok", "error": "", "cycles": 9, "time_us": 0.5,
                             "instructions": 1, "uops": 1}


def test_a_torn_cache_file_is_run_again(tmp_path):
    cache = Cache(tmp_path)
    cache.put("abcdef", {"cycles": 1})
    cache._file("abcdef").write_text('{"cyc')
    assert cache.get("abcdef") is None


class Flaky(Pool):
    """An executor whose futures fail (as a dead worker's do) the first FAILS times a task is
    submitted."""

    def __init__(self, fails: int):
        super().__init__(None)
        self.fails, self.seen = fails, {}

    class _Ex:
        def __init__(self, outer):
            self.outer = outer

        def submit(self, fn, t):
            f = Future()
            n = self.outer.seen[t.index] = self.outer.seen.get(t.index, 0) + 1
            if t.index == 2 and n <= self.outer.fails:
                f.set_exception(OSError("worker died"))
            else:
                f.set_result(fn(t))
            return f

    @property
    def executor(self):
        return self._Ex(self)

    @executor.setter
    def executor(self, value):
        pass


def test_a_dead_workers_task_is_retried():
    out = Engine(Flaky(2), None, function=square).run([task(k) for k in range(4)])
    assert out.rows[2]["cycles"] == 4


def test_a_task_whose_worker_always_dies_is_an_error_row(tmp_path):
    cache = Cache(tmp_path)
    out = Engine(Flaky(99), cache, function=square).run([task(k) for k in range(4)])
    assert out.rows[2]["status"] == "error" and "died 3 times" in out.rows[2]["error"]
    assert out.rows[3]["cycles"] == 9
    assert cache.get("key0002") is None  # not the variant's fault: not cached


def die_once(t: Task) -> dict:
    """Kill the worker process the first time variant 3 runs (a marker file, named by the
    task's path, remembers: workers may not see this process's later environment)."""
    marker = Path(t.path)
    if t.index == 3 and not marker.exists():
        marker.write_text("died")
        os._exit(1)
    return square(t)


def test_the_local_pool_survives_a_worker_dying(tmp_path):
    marker = tmp_path / "marker"
    pool = LocalPool(2)
    try:
        tasks = [Task(k, f"key{k}", str(marker), "", ()) for k in range(8)]
        out = Engine(pool, None, function=die_once).run(tasks)
    finally:
        pool.close()
    assert marker.exists()
    assert [out.rows[k].get("cycles") for k in range(8)] == [k * k for k in range(8)]


def always_die(t: Task) -> dict:
    if t.index == 3:
        os._exit(1)  # as the OOM killer ends a worker: every time this variant runs
    return square(t)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_variant_that_kills_its_worker_costs_only_its_own_row(jobs):
    """#31 10: the local pool breaks as a whole; the variants in flight beside the culprit are
    run again and keep their rows, only the culprit is an error row."""
    pool = LocalPool(jobs)
    try:
        tasks = [Task(k, f"key{k}", "p.vasm", "", ()) for k in range(8)]
        out = Engine(pool, None, function=always_die).run(tasks)
    finally:
        pool.close()
    assert [out.rows[k].get("cycles") for k in range(8)] == [
        None if k == 3 else k * k for k in range(8)]
    assert "died 3 times" in out.rows[3]["error"]


def test_ctrl_c_keeps_the_finished_rows():
    def slow_after_two(t):
        if t.index >= 2:
            import time
            time.sleep(0.3)
        return square(t)

    ticks = []

    def interrupt():
        ticks.append(1)
        if len(ticks) == 2:
            raise KeyboardInterrupt

    ex = ThreadPoolExecutor(1)
    try:
        out = Engine(Pool(ex), None, function=slow_after_two, on_tick=interrupt).run(
            [task(k) for k in range(20)])
    finally:
        ex.shutdown(wait=True, cancel_futures=True)
    assert out.interrupted
    assert {0, 1} <= set(out.rows) and len(out.rows) < 20


def test_executor_choices():
    with pytest.raises(SweepSetupError, match="unknown executor"):
        make_pool("ray://x", None)
    with pytest.raises(SweepSetupError, match="concurrent.futures"):
        make_pool(object(), None)


def test_an_unreachable_dask_scheduler():
    require("distributed")  # the test extra installs it (#31: says so when it is missing)
    with pytest.raises(SweepSetupError, match="cannot reach"):
        DaskPool("dask://127.0.0.1:9", timeout=0.5)  # the discard port: nothing listens


# -- the table -----------------------------------------------------------------------------

ROWS = [{"T": 64, "status": "ok", "error": "", "cycles": 300, "busy_V": 5, "stall_barrier": 1,
         "util_V": 0.1, "out_z": "ab", "seconds": 0.1, "cached": False, "key": "k1"},
        {"T": 128, "status": "ok", "error": "", "cycles": 200, "busy_V": 7, "stall_barrier": 0,
         "util_V": 0.3, "out_z": "ab", "seconds": 0.1, "cached": True, "key": "k2"},
        {"T": 3, "status": "error", "error": "p.vasm:3:1: error: no", "seconds": 0.0,
         "cached": False, "key": "k3"}]


def test_columns_order():
    cols = table.columns(ROWS, ["T"])
    assert cols == ["T", "status", "error", "cycles", "busy_V", "util_V", "stall_barrier",
                    "out_z", "seconds", "cached", "key"]


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_formats_round_trip(tmp_path, suffix):
    path = tmp_path / f"r{suffix}"
    table.write(path, ROWS, table.columns(ROWS, ["T"]))
    if suffix == ".csv":
        got = list(csv.DictReader(path.open()))
        assert got[1]["cycles"] == "200" and got[2]["cycles"] == ""
    elif suffix == ".jsonl":
        got = [json.loads(line) for line in path.read_text().splitlines()]
        assert got[1]["cycles"] == 200 and "cycles" not in got[2]
    else:
        pq = require("pyarrow.parquet")

        got = pq.read_table(path).to_pylist()
        assert got[1]["cycles"] == 200 and got[2]["cycles"] is None and got[0]["T"] == 64
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_unknown_format():
    with pytest.raises(table.TableError, match="extension"):
        table.check_format("r.xlsx")


def test_best():
    assert table.best(ROWS)["T"] == 128
    assert table.best(ROWS, "util_V:max")["T"] == 128
    assert table.best(ROWS, "busy_V:min")["T"] == 64
    assert table.best(ROWS, "nope") is None
    checked = [{**r, "expect": "match" if r["T"] != 128 else "differs: y"} for r in ROWS]
    assert table.best(checked)["T"] != 128  # a fast wrong answer is not the best
    with pytest.raises(table.TableError):
        table.best(ROWS, "cycles:up")


@pytest.mark.parametrize("suffix", [".png", ".html", ".svg"])
def test_plot(tmp_path, suffix):
    require("matplotlib")
    from simulator.sweep.plot import plot

    rows = [{"T": t, "B": b, "status": "ok", "cycles": 1000 // t + b} for t in (8, 16, 32)
            for b in (1, 2)]
    path = tmp_path / f"p{suffix}"
    plot(path, rows, ["T", "B"], "cycles", ["T", "B", "status", "cycles"])
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG")
    elif suffix == ".html":
        text = data.decode()
        assert "<svg" in text and "best by cycles: 32" in text
    else:
        assert b"<svg" in data


def test_progress_line():
    import io

    from simulator.sweep.progress import ProgressBar

    out = io.StringIO()
    bar = ProgressBar(4, out)
    bar.row({"status": "ok"}, True)
    bar.row({"status": "error"}, False)
    line = bar.line()
    assert line.startswith("  [############............] 2/4  cached 1  failed 1  ")
    assert "variants/s  ETA" in line
    bar.close()
    assert out.getvalue().endswith("\r\033[K")


ORPHAN = """
import os, sys
from simulator.sweep.executors import LocalPool
pool = LocalPool(1)
print(pool.executor.submit(os.getpid).result(), flush=True)
os._exit(0)  # gone without shutting the pool down, as a killed sweep would
"""


def test_a_worker_whose_sweep_died_ends_by_itself():
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-c", ORPHAN], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(root)})
    try:
        worker = int(proc.stdout.readline())
        proc.wait(timeout=30)
    finally:
        proc.stdout.close()  # the worker holds its copy: reading on would wait for it
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    deadline = time.monotonic() + 20
    while _alive(worker):
        if time.monotonic() > deadline:
            os.kill(worker, 9)
            pytest.fail("the orphaned worker kept running")
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_dying_worker_cannot_kill_the_sweep_through_sigpipe(tmp_path):
    """vcdvcd resets SIGPIPE at import; the engine restores Python's default for the sweep."""
    import signal

    from simulator.sweep.engine import broken_pipes_raise

    previous = signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        with broken_pipes_raise():
            assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGPIPE) == signal.SIG_DFL
        marker = tmp_path / "marker"
        pool = LocalPool(2)
        try:
            tasks = [Task(k, f"key{k}", str(marker), "", ()) for k in range(8)]
            out = Engine(pool, None, function=die_once).run(tasks)
        finally:
            pool.close()
        assert [out.rows[k].get("cycles") for k in range(8)] == [k * k for k in range(8)]
    finally:
        signal.signal(signal.SIGPIPE, previous)


def test_a_cpp_key_covers_the_files_it_includes(tmp_path):
    """A host main's key changes when a file it reaches by #include "..." changes."""
    from simulator.sweep import keys

    (tmp_path / "inc").mkdir()
    host = tmp_path / "host.cpp"
    host.write_text('#include <cstdio>\n#include "kernel.cpp"\nint main() { return 0; }\n')
    (tmp_path / "kernel.cpp").write_text('#include "tiling.h"\n')
    (tmp_path / "inc" / "tiling.h").write_text("#define TILE 64\n")

    def key() -> str:
        files = keys.included_files(host, (str(tmp_path / "inc"),))
        return keys.variant_key({"kind": "cpp", "files": files}, {"TILE": "64"}, {}, "", None,
                                {})

    first = key()
    reached = keys.included_files(host, (str(tmp_path / "inc"),))
    assert sorted(Path(p).name for p, _ in reached) == ["host.cpp", "kernel.cpp", "tiling.h"]
    assert key() == first
    (tmp_path / "inc" / "tiling.h").write_text("#define TILE 128\n")
    assert key() != first
