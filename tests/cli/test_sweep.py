"""`pipev sweep` end to end: rows equal to single `pipev run`s, error rows, the cache, Ctrl-C,
the table and plot files, and the C++ path. The Dask cluster tests are in test_sweep_dask.py."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.sweep.task import output_hash
from tests.support.signals import ctrl_c_live

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "sweep"
VOLATILE = {"seconds", "cached"}  # how a row was made, not what the variant does


def pipev(*args, cwd=None, env=None, timeout=120):
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "simulator.cli", *map(str, args)], cwd=cwd,
                          env=full, capture_output=True, text=True, timeout=timeout)


def run_row(summary: dict, output_dir: Path) -> dict:
    """What a sweep row must hold, from one `pipev run --json` and the outputs it wrote."""
    from simulator.sweep.task import summary_row

    outputs = {Path(p).stem: output_hash(np.load(p)) for p in summary["outputs"].values()}
    return summary_row(summary, outputs)


def same(row: dict, expected: dict) -> None:
    got = {k: v for k, v in row.items() if k in expected}
    assert got == expected


# -- C++ kernels (-D macros) ---------------------------------------------------------------

def test_cpp_kernel_variants_match_pipev_run(tmp_path):
    env = {"PIPEV_CACHE_DIR": str(tmp_path / "cache")}
    x = tmp_path / "x.npy"
    np.save(x, np.arange(256, dtype=np.float32))
    kernel = ["--kernel", "scale", "--arg", f"x={x}", "--arg", "y=out:f32[256]"]
    proc = pipev("sweep", DATA / "scale.cpp", *kernel, "--param", "TILE=64,3", "--out",
                 tmp_path / "r.jsonl", "--jobs", "2", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [r["TILE"] for r in rows] == [64, 3]
    assert rows[1]["status"] == "error"
    assert rows[1]["error"].startswith(f"{DATA / 'scale.cpp'}:18:")
    assert "less than one 32-byte block" in rows[1]["error"]
    single = pipev("run", DATA / "scale.cpp", *kernel, "-D", "TILE=64", "--json",
                   "--output-dir", tmp_path / "one", cwd=tmp_path, env=env)
    assert single.returncode == 0, single.stderr
    expected = run_row(json.loads(single.stdout), tmp_path / "one")
    same(rows[0], expected)
    assert rows[0]["out_y"] == output_hash(np.arange(256, dtype=np.float32) * 2)
    assert "best by cycles: TILE=64" in proc.stderr


def test_cpp_host_main_variants_match_pipev_run(tmp_path):
    """A host main (scale_host.cpp includes scale.cpp's kernel): each variant is `pipev run
    host.cpp -D ... --json`."""
    env = {"PIPEV_CACHE_DIR": str(tmp_path / "cache")}
    for name in ("scale_host.cpp", "scale.cpp"):
        (tmp_path / name).write_text((DATA / name).read_text())
    host = tmp_path / "scale_host.cpp"
    args = ["sweep", host, "--param", "TILE=64,3", "--jobs", "2", "--out", tmp_path / "r.jsonl"]
    proc = pipev(*args, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [(r["TILE"], r["status"]) for r in rows] == [(64, "ok"), (3, "error")]
    assert rows[1]["error"].startswith(f"{tmp_path / 'scale.cpp'}:18:9: error: DataCopy of 12 "
                                       "bytes: less than one 32-byte block")
    single = pipev("run", host, "-D", "TILE=64", "--json", cwd=tmp_path, env=env)
    assert single.returncode == 0, single.stderr
    summary = json.loads(single.stdout)  # the program's printf went to stderr
    assert "TILE 64: 0 wrong" in single.stderr and summary["exit_status"] == 0
    assert summary["cycles"] == sum(launch["cycles"] for launch in summary["launches"])
    from simulator.sweep.task import summary_row

    same(rows[0], summary_row(summary, summary["gm"]))
    assert rows[0]["out_gm_y"] == output_hash(np.arange(256, dtype=np.float32) * 2)
    again = pipev(*args, cwd=tmp_path, env=env)
    assert "2 from the cache" in again.stderr  # (an included file's edit: test_sweep_parts)


def test_cpp_without_a_main_or_with_kernel_options_and_no_kernel(tmp_path):
    env = {"PIPEV_CACHE_DIR": str(tmp_path / "cache")}
    proc = pipev("sweep", DATA / "scale.cpp", "--param", "TILE=8", "--out", tmp_path / "r.jsonl",
                 "--no-cache", env=env)
    assert proc.returncode == 0, proc.stderr
    row = json.loads((tmp_path / "r.jsonl").read_text())
    assert row["status"] == "error" and "the program has no main()" in row["error"]
    for option in (["--arg", "x=x.npy"], ["--block-dim", "2"]):
        result = CliRunner().invoke(main, ["sweep", str(DATA / "scale_host.cpp"), *option,
                                           "--param", "TILE=8", "--out", str(tmp_path / "r.csv")])
        assert result.exit_code == 2 and f"{option[0]} needs --kernel NAME" in result.output


# -- usage ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--param", "TILE"], "NAME=V1,V2"),
    (["--param", "T=1", "--out", "r.xlsx"], "extension"),
    (["--param", "T=1", "--plot", "p.gif"], "extension"),
    (["--param", "T=1", "--objective", "cycles:up"], "COLUMN:max"),
    (["--param", "T=1,2", "--param", "U=1", "--zip"], "as many values"),
    (["--param", "chip=1"], "--chip"),
    (["--param", "uops=1,2"], "'uops' is a column of the results table"),  # #31 07
    (["--param", "key=1"], "'key' is a column of the results table"),
    (["--param", "out_z=1"], "'out_z' is a column of the results table"),
    (["--param", "TILE=1..100000000"], "a sweep runs at most 100,000 variants"),  # #31 19
])
def test_usage_errors(tmp_path, args, message):
    runner = CliRunner()
    prog = ROOT / "programs" / "quickstart.vasm"
    full = ["sweep", str(prog), *args]
    if "--out" not in args:
        full += ["--out", str(tmp_path / "r.csv")]
    result = runner.invoke(main, full)
    assert result.exit_code == 2, result.output
    assert message in result.output


# -- .vasm kernels (.param) ----------------------------------------------------------------

KERNEL = ROOT / "programs" / "kernels" / "where_tuned.vasm"


def test_rows_match_pipev_run_processes_and_repeat_from_the_cache(tmp_path):
    env = {"PIPEV_CACHE_DIR": str(tmp_path / "cache")}
    args = ["sweep", KERNEL, "--param", "N=4096", "--param", "TILE=1024,2048,4096",
            "--param", "BUFFERS=1,4", "--jobs", "2"]
    proc = pipev(*args, "--out", tmp_path / "r.csv", "--plot", tmp_path / "p.png", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "6 variants: 5 ok, 1 error, 0 from the cache" in proc.stderr
    assert "best by cycles: N=4096 TILE=4096 BUFFERS=1: cycles" in proc.stderr
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")
    import csv

    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert [(r["TILE"], r["BUFFERS"], r["status"]) for r in rows] == [
        ("1024", "1", "ok"), ("1024", "4", "ok"), ("2048", "1", "ok"), ("2048", "4", "ok"),
        ("4096", "1", "ok"), ("4096", "4", "error")]
    assert rows[5]["error"] == (f"{KERNEL}:19:6: error: 'z' (65536 bytes) does not fit in UB "
                                "below the scratch area (188416 bytes on ascend910b)")
    assert len({r["out_out"] for r in rows[:5]}) == 1  # tiling never changes the result
    for k in (0, 3):  # two variants as real `pipev run -D` processes
        single = pipev("run", KERNEL, "-D", "N=4096", "-D", f"TILE={rows[k]['TILE']}", "-D",
                       f"BUFFERS={rows[k]['BUFFERS']}", "--json", "--output-dir",
                       tmp_path / f"one{k}")
        expected = run_row(json.loads(single.stdout), tmp_path / f"one{k}")
        same({c: rows[k][c] for c in expected}, {c: str(v) for c, v in expected.items()})

    again = pipev(*args, "--out", tmp_path / "r.jsonl", env=env)
    assert "6 variants: 5 ok, 1 error, 6 from the cache" in again.stderr
    cached = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert all(r["cached"] for r in cached)
    assert [r["cycles"] for r in cached[:5]] == [int(r["cycles"]) for r in rows[:5]]
    fresh = pipev(*args, "--out", tmp_path / "n.csv", "--no-cache", env=env)
    assert "0 from the cache" in fresh.stderr


def test_expect_marks_rows_whose_output_differs(tmp_path):
    good = tmp_path / "good.npy"
    np.save(good, np.load(ROOT / "programs" / "expected" / "kernels" / "where_tiled_loop" /
                          "out.npy"))
    bad = tmp_path / "bad.npy"
    np.save(bad, np.zeros(65536, np.float32))
    from simulator.sweep import sweep

    ok = sweep(KERNEL, {"TILE": [4096]}, expect={"out": good}, cache=False, jobs=1)
    differs = sweep(KERNEL, {"TILE": [4096]}, expect={"out": bad}, cache=False, jobs=1)
    assert ok.rows[0]["expect"] == "match" and differs.rows[0]["expect"] == "differs: out"


def test_any_concurrent_futures_executor(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from simulator.sweep import sweep

    grid = {"N": [4096], "TILE": [2048, 4096], "BUFFERS": [1, 2]}
    with ThreadPoolExecutor(2) as ex:
        threaded = sweep(KERNEL, grid, executor=ex, cache=False)
    local = sweep(KERNEL, grid, executor="local", jobs=2, cache=False)

    def strip(rows):
        return [{k: v for k, v in r.items() if k not in VOLATILE} for r in rows]

    assert strip(threaded.rows) == strip(local.rows) and len(local.rows) == 4


def test_undeclared_parameter_and_bad_value_are_usage_errors(tmp_path):
    proc = pipev("sweep", KERNEL, "--param", "TILES=1024", "--out", tmp_path / "r.csv")
    assert proc.returncode == 2
    assert "declares no `.param TILES` (its parameters: N, TILE, BUFFERS)" in proc.stderr
    proc = pipev("sweep", KERNEL, "--param", "TILE=big", "--out", tmp_path / "r.csv")
    assert proc.returncode == 2 and "integer expression, got 'big'" in proc.stderr


def test_ctrl_c_writes_the_finished_rows_and_the_next_run_resumes(tmp_path):
    env = {"PIPEV_CACHE_DIR": str(tmp_path / "cache")}
    args = ["sweep", KERNEL, "--param", "N=32768", "--param", "TILE=256,512",
            "--param", "BUFFERS=1..4", "--jobs", "1", "--out", tmp_path / "r.jsonl"]
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", *map(str, args)],
                            env=full, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_live)
    try:
        deadline = time.monotonic() + 60
        while len(list((tmp_path / "cache").glob("sweep/*/*.json"))) < 2:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert proc.returncode == 130, err
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert 2 <= len(rows) < 8 and all(r["status"] == "ok" for r in rows)
    assert "interrupted: " in err and "the same command resumes" in err
    resumed = pipev(*args, env=env)
    assert resumed.returncode == 0
    served = re.search(r"8 variants: 8 ok, 0 errors, (\d+) from the cache", resumed.stderr)
    assert served and int(served.group(1)) >= len(rows)  # rows cached as they finished
    done = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(done) == 8 and sum(r["cached"] for r in done) >= len(rows)


def test_chips_are_an_axis():
    from simulator.sweep import sweep

    result = sweep(KERNEL, {"TILE": [4096]}, chip=["ascend910b", "ascend950"], cache=False,
                   jobs=1)
    assert result.params == ["TILE", "chip"]
    assert [(r["chip"], r["status"]) for r in result.rows] == [("ascend910b", "ok"),
                                                                ("ascend950", "ok")]
    assert result.rows[0]["time_us"] != result.rows[1]["time_us"]  # 1850 MHz against 1650


# -- TIK scripts (module-level constants) ---------------------------------------------------

TILED = ROOT / "programs" / "tik" / "tiled_maximum.py"


def _halves(tmp_path) -> tuple[list[str], np.ndarray]:
    rng = np.random.default_rng(3)
    x, y = (rng.standard_normal(8192).astype(np.float16) for _ in range(2))
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    return ["--input", f"x_gm={tmp_path / 'x.npy'}", "--input",
            f"y_gm={tmp_path / 'y.npy'}"], np.maximum(x, y)


def test_tik_script_variants_match_pipev_run_and_the_text_is_the_key(tmp_path):
    env = {"PIPEV_CACHE_DIR": str(tmp_path / "cache")}
    script = tmp_path / "tiled.py"
    script.write_text(TILED.read_text())
    inputs, want = _halves(tmp_path)
    args = ["sweep", script, "--param", "TILE=512,1024,3", *inputs, "--jobs", "2"]
    proc = pipev(*args, "--out", tmp_path / "r.jsonl", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "3 variants: 2 ok, 1 error, 0 from the cache" in proc.stderr
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [(r["TILE"], r["status"]) for r in rows] == [(512, "ok"), (1024, "ok"), (3, "error")]
    assert rows[2]["error"] == (f"{script}:25:13: error: Tensor: shape (0,) must have "
                                "positive dimensions")
    assert rows[0]["out_z_gm"] == rows[1]["out_z_gm"] == output_hash(want)
    single = pipev("run", script, "-D", "TILE=512", *inputs, "--json", "--output-dir",
                   tmp_path / "one")
    assert single.returncode == 0, single.stderr
    same(rows[0], run_row(json.loads(single.stdout), tmp_path / "one"))
    assert rows[0]["cycles"] > rows[1]["cycles"]

    again = pipev(*args, "--out", tmp_path / "r.csv", env=env)
    assert "3 variants: 2 ok, 1 error, 3 from the cache" in again.stderr
    script.write_text(script.read_text().replace("two tiles per iteration", "two tiles a turn"))
    edited = pipev(*args, "--out", tmp_path / "r.csv", env=env)
    assert "0 from the cache" in edited.stderr  # the script's text is its key


def test_tik_sweep_in_threads_and_processes_gives_the_same_rows(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from simulator.sweep import sweep

    x = np.arange(8192, dtype=np.float16) % 7
    inputs = {"x_gm": x, "y_gm": x[::-1].copy()}
    grid = {"TILE": [256, 2048], "N": [4096, 8192]}
    with ThreadPoolExecutor(2) as ex:  # TIK builds one at a time in a process
        threaded = sweep(TILED, grid, inputs=inputs, executor=ex, cache=False)
    local = sweep(TILED, grid, inputs=inputs, jobs=2, cache=False)

    def strip(rows):
        return [{k: v for k, v in r.items() if k not in VOLATILE} for r in rows]

    assert strip(threaded.rows) == strip(local.rows)
    assert [r["status"] for r in local.rows] == ["error", "ok", "error", "ok"]
    assert "--input x_gm: holds 8192 elements, expected 4096" in local.rows[0]["error"]


def test_tik_parameters_are_checked_before_the_sweep(tmp_path):
    proc = pipev("sweep", TILED, "--param", "TILES=1", "--out", tmp_path / "r.csv")
    assert proc.returncode == 2
    assert ("--param TILES: " f"{TILED}: the script declares no parameter 'TILES' (its "
            "parameters, module-level constants: N, TILE)") in proc.stderr
    proc = pipev("sweep", TILED, "--param", "TILE=big", "--out", tmp_path / "r.csv")
    assert proc.returncode == 2 and "integer expression (the default is 1024)" in proc.stderr
    assert not (tmp_path / "r.csv").exists()


def test_a_tik_script_that_raises_is_an_error_row(tmp_path):
    from simulator.sweep import sweep

    script = tmp_path / "k.py"
    script.write_text("from tbe import tik\nN = 1\n\ndef f():\n    return 1 // (N - 1)\n\n"
                      "f()\n")
    result = sweep(script, {"N": [1]}, cache=False, jobs=1)
    assert result.rows[0]["error"] == (f"{script}:5:1: error: the script raised "
                                       "ZeroDivisionError: integer division or modulo by zero")


def test_progress_bar_on_a_terminal(tmp_path):
    import pexpect

    env = {**os.environ, "PYTHONPATH": str(ROOT), "PIPEV_CACHE_DIR": str(tmp_path / "cache")}
    child = pexpect.spawn(sys.executable, ["-m", "simulator.cli", "sweep", str(KERNEL),
                                           "--param", "TILE=2048,4096", "--jobs", "1",
                                           "--out", str(tmp_path / "r.csv")],
                          env=env, timeout=60, encoding="utf-8")
    try:
        child.expect(r"\] 2/2  cached 0  failed 0  [\d.]+ variants/s  ETA")
        child.expect("2 variants: 2 ok, 0 errors")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


@pytest.mark.parametrize("option", ["--input", "--expect"])
def test_an_unreadable_file_stops_the_sweep_before_it_runs(tmp_path, option):
    result = CliRunner().invoke(main, ["sweep", str(KERNEL), "--param", "TILE=4096", option,
                                       f"a={tmp_path / 'none.npy'}", "--out",
                                       str(tmp_path / "r.csv")])
    assert result.exit_code == 1
    assert f"error: {option} a: cannot read {tmp_path / 'none.npy'}: no such file" in \
        result.output
    assert not (tmp_path / "r.csv").exists()


def test_block_dims_are_an_axis(tmp_path):
    from simulator.sweep import sweep

    relu = ROOT / "programs" / "kernels" / "multicore_relu.vasm"
    result = sweep(relu, block_dim=[1, 8], cache=False, jobs=1)
    assert result.params == ["block_dim"] and [r["status"] for r in result.rows] == ["ok", "ok"]
    assert result.rows[0]["out_y_gm"] == result.rows[1]["out_y_gm"]  # same result on 8 cores
    single = CliRunner().invoke(main, ["run", str(relu), "--block-dim", "8", "--json",
                                       "--output-dir", str(tmp_path / "one")])
    expected = run_row(json.loads(single.stdout), tmp_path / "one")
    same(result.rows[1], expected)
    assert result.rows[1]["cycles"] < result.rows[0]["cycles"]


@pytest.mark.parametrize("option", ["--plot", "--out"])
def test_an_unwritable_output_is_refused_before_the_sweep(tmp_path, option):
    """#31 16: --plot (or --out) in a folder that is a file: a usage error before anything
    runs, never a traceback after the whole sweep."""
    (tmp_path / "afile").write_text("")
    target = tmp_path / "afile" / ("x.png" if option == "--plot" else "r.csv")
    args = {"--out": tmp_path / "r.csv", "--plot": None, option: target}
    extra = [a for k, v in args.items() if v is not None for a in (k, v)]
    proc = pipev("sweep", KERNEL, "--param", "TILE=4096", "--param", "N=4096", *extra,
                 "--no-cache", "--jobs", "1", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert f"{option} {target}: {tmp_path / 'afile'} is not a directory" in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "r.csv").exists()


def test_a_plot_in_a_new_folder_is_written_there(tmp_path):
    proc = pipev("sweep", KERNEL, "--param", "TILE=4096", "--param", "N=4096", "--out",
                 "r.csv", "--plot", "nodir/x.html", "--no-cache", "--jobs", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in (tmp_path / "nodir" / "x.html").read_text()
    assert [p.name for p in (tmp_path / "nodir").iterdir()] == ["x.html"]
