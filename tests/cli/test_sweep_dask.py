"""The sweep on a real Dask cluster: a scheduler and two worker processes on 127.0.0.1 (started
here, stopped in finally blocks, every wait bounded), a 40-variant grid, one worker killed
mid-sweep; every row equal to a single `pipev run -D ...` of its variant; the second identical
sweep served from the cache; the local executor and `pipev sweep --executor dask://` giving the
same rows."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.sweep import sweep
from simulator.sweep.task import output_hash, summary_row
from tests.support.extras import require

distributed = require("distributed")  # the test extra installs it, as pipev[dask] does

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "programs" / "kernels" / "where_tuned.vasm"
GRID = {"N": ["4096", "8192"], "TILE": ["256", "512", "1024", "2048", "4096"],
        "BUFFERS": ["1", "2", "3", "4"]}  # 40 variants; TILE=4096 x 4 buffers overflows UB
START_TIMEOUT = 30.0
WATCHDOG = 180.0  # past this the cluster is stopped, so a hung sweep fails instead of waiting
VOLATILE = ("seconds", "cached")  # how the row was made, not what the variant does


def _python(*args: str, log: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    with open(log, "wb") as f:
        return subprocess.Popen([sys.executable, *args], stdout=f, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture
def cluster(tmp_path):
    """(address, [worker processes]) of a scheduler and two single-threaded workers without
    nannies (a killed worker stays dead), all on the loopback interface."""
    scheduler_file = tmp_path / "scheduler.json"
    procs = [_python("-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                     "0", "--dashboard-address", "127.0.0.1:0", "--scheduler-file",
                     str(scheduler_file),
                     "--idle-timeout", "120", log=tmp_path / "scheduler.log")]
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert procs[0].poll() is None, (tmp_path / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        workers = [_python("-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1",
                           "--nthreads", "1", "--no-nanny", "--no-dashboard",
                           "--local-directory", str(tmp_path / f"w{k}"),
                           "--death-timeout", "60", log=tmp_path / f"worker{k}.log")
                   for k in range(2)]
        procs += workers
        with distributed.Client(address, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
        watchdog = threading.Timer(WATCHDOG, lambda: [p.kill() for p in procs])
        watchdog.start()
        try:
            yield address, workers
        finally:
            watchdog.cancel()
    finally:
        for proc in reversed(procs):
            _stop(proc)


def single_runs(tmp_path, variants) -> list[dict]:
    """Each variant as `pipev run KERNEL -D ... --json` would report it (the CLI in-process)."""
    runner = CliRunner()
    rows = []
    for k, v in enumerate(variants):
        out_dir = tmp_path / f"single{k}"
        defines = [a for name, value in v.items() for a in ("-D", f"{name}={value}")]
        result = runner.invoke(main, ["run", str(KERNEL), *defines, "--json", "--output-dir",
                                      str(out_dir)])
        summary = json.loads(result.stdout)
        if result.exit_code == 0:
            outputs = {Path(p).stem: output_hash(np.load(p))
                       for p in summary["outputs"].values()}
            rows.append(summary_row(summary, outputs))
        else:
            first = next(d for d in summary["diagnostics"] if d["severity"] == "error")
            rows.append({"status": "error", "error": f"{first['path']}:{first['line']}:"
                         f"{first['column']}: error: {first['message']}"})
    return rows


def stable(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in VOLATILE}


def test_dask_sweep_survives_a_killed_worker_and_matches_single_runs(cluster, tmp_path):
    address, workers = cluster
    cache = tmp_path / "cache"
    killed = []

    def kill_one_worker(row, cached):
        if not killed and len(seen) >= 5:
            workers[1].send_signal(signal.SIGKILL)
            killed.append(len(seen))
        seen.append(row)

    seen: list = []
    first = sweep(KERNEL, GRID, executor=f"dask://{address.removeprefix('tcp://')}",
                  cache=cache, on_row=kill_one_worker)
    assert killed and workers[1].wait(timeout=10) == -signal.SIGKILL
    assert "Remove worker" in (tmp_path / "scheduler.log").read_text()  # the scheduler saw it
    assert len(first.rows) == first.total == 40 and not first.interrupted
    assert [r["status"] for r in first.rows].count("error") == 2  # TILE=4096, BUFFERS=4
    assert all("worker" not in r["error"] for r in first.rows)  # no row lost to the kill

    variants = [{k: r[k] for k in GRID} for r in first.rows]
    expected = single_runs(tmp_path, variants)
    for row, single in zip(first.rows, expected, strict=True):
        assert {k: row[k] for k in single} == single, row

    again = sweep(KERNEL, GRID, executor=f"dask://{address.removeprefix('tcp://')}",
                  cache=cache)
    assert again.cached == 40 and all(r["cached"] for r in again.rows)
    assert [stable(r) for r in again.rows] == [stable(r) for r in first.rows]
    print(f"\n40 variants on Dask: {first.seconds:.2f} s; from the cache: {again.seconds:.3f} s "
          f"({again.seconds / first.seconds:.1%})")

    local = sweep(KERNEL, GRID, executor="local", jobs=2, cache=False)
    assert [stable(r) for r in local.rows] == [stable(r) for r in first.rows]

    cli = CliRunner().invoke(main, ["sweep", str(KERNEL), "--param", "N=4096", "--param",
                                    "TILE=2048,4096", "--param", "BUFFERS=2", "--executor",
                                    f"dask://{address.removeprefix('tcp://')}", "--no-cache",
                                    "--out", str(tmp_path / "cli.jsonl")])
    assert cli.exit_code == 0, cli.output
    cli_rows = [json.loads(line) for line in (tmp_path / "cli.jsonl").read_text().splitlines()]
    by_variant = {(r["N"], r["TILE"], r["BUFFERS"]): stable(r) for r in first.rows}
    assert [stable(r) for r in cli_rows] == [by_variant[(4096, t, 2)] for t in (2048, 4096)]


def test_dask_sweeps_a_tik_script_as_the_local_executor_does(cluster, tmp_path):
    """The task carries the script's text: a worker executes it in its own process."""
    address, _ = cluster
    tiled = ROOT / "programs" / "tik" / "tiled_maximum.py"
    x = np.arange(8192, dtype=np.float16) % 5
    inputs = {"x_gm": x, "y_gm": x[::-1].copy()}
    grid = {"TILE": ["256", "512", "1024", "3"]}
    on_dask = sweep(tiled, grid, inputs=inputs, cache=False,
                    executor=f"dask://{address.removeprefix('tcp://')}")
    local = sweep(tiled, grid, inputs=inputs, cache=False, jobs=2)
    assert [stable(r) for r in on_dask.rows] == [stable(r) for r in local.rows]
    assert [r["status"] for r in on_dask.rows] == ["ok", "ok", "ok", "error"]
    assert len({r["out_z_gm"] for r in on_dask.rows[:3]}) == 1
