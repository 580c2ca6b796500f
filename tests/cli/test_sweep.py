"""`pipev sweep` end to end: rows equal to single `pipev run`s, error rows, the cache, Ctrl-C,
the table and plot files, and the C++ path. The Dask cluster tests are in test_sweep_dask.py."""

import json
import os
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


def test_cpp_needs_kernel_mode(tmp_path):
    proc = pipev("sweep", DATA / "scale.cpp", "--param", "TILE=8", "--out", tmp_path / "r.csv")
    assert proc.returncode == 2 and "kernel-only mode" in proc.stderr


# -- usage ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--param", "TILE"], "NAME=V1,V2"),
    (["--param", "T=1", "--out", "r.xlsx"], "extension"),
    (["--param", "T=1", "--plot", "p.gif"], "extension"),
    (["--param", "T=1", "--objective", "cycles:up"], "COLUMN:max"),
    (["--param", "T=1,2", "--param", "U=1", "--zip"], "as many values"),
    (["--param", "chip=1"], "--chip"),
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
