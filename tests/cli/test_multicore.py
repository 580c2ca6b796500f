"""Multi-core runs end to end: `pipev run --block-dim N` of a .vasm kernel (summary, --json
`cores`, traces, usage errors) and an AscendC kernel with big/small-core tiling on 8 cores
through the real headers."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from tests.support.cli import cli_main

ROOT = Path(__file__).resolve().parents[2]
RELU = ROOT / "programs" / "kernels" / "multicore_relu.vasm"
KERNELS = ROOT / "tests" / "data" / "ascendc" / "kernels"


def needs_cxx(test):
    """Marks a test that compiles C++ (a missing compiler fails in test_ascendc_driver)."""
    return test


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # outputs land in pipev-out/ there


def pipev(*args, cwd: Path):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.output, r.output
    return r


@pytest.mark.parametrize("cores", [1, 8, 48])
def test_json_has_each_cores_cycles_and_the_total(tmp_path, cores: int):
    r = pipev("run", RELU, "--block-dim", cores, "--json", cwd=tmp_path)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    if cores == 1:
        assert "cores" not in d  # a one-core run reads as before
        return
    assert d["block_dim"] == cores and d["vector_cores"] == cores and d["waves"] == 1
    assert [c["block"] for c in d["cores"]] == list(range(cores))
    assert d["cycles"] == max(c["end"] for c in d["cores"])
    assert all(c["cycles"] == c["end"] - c["start"] and c["pipes"]["V"] > 0 for c in d["cores"])
    assert d["pipes"]["MTE2"]["busy"] == sum(c["pipes"]["MTE2"] for c in d["cores"])
    assert d["instructions"] == sum(c["instructions"] for c in d["cores"])


def test_summary_text_lists_the_cores_and_the_chrome_trace_has_a_process_each(tmp_path):
    trace = tmp_path / "relu.json"
    r = pipev("run", RELU, "--trace", trace, "--trace-format", "chrome", cwd=tmp_path)
    assert r.exit_code == 0, r.output
    assert "; 8 cores on 8 vector cores in 1 wave" in r.stdout
    rows = [ln for ln in r.stdout.splitlines() if ln.startswith("  core ")]
    assert len(rows) == 8 and rows[3].split()[:2] == ["core", "3"]
    events = json.loads(trace.read_text())["traceEvents"]
    procs = sorted(e["pid"] for e in events if e.get("name") == "process_name")
    assert procs == list(range(1, 9))  # core K is pid K + 1 (viewers keep pid 0 for idle)


def test_usage_errors(tmp_path):
    for args in (["--block-dim", "0"], ["--block-dim", "65536"], ["--core", "1"],
                 ["--core", "1", "--trace", "t.json", "--trace-format", "chrome"]):
        r = pipev("run", RELU, *args, cwd=tmp_path)
        assert r.exit_code == 2, (args, r.output)
    r = pipev("run", RELU, "--core", "9", "--trace", "t.txt", "--trace-format", "text",
              cwd=tmp_path)
    assert r.exit_code == 1 and "error: --core 9: the launch runs cores 0..7" in r.output


TIK_BLOCKS = """from tbe import tik

tik_instance = tik.Tik()
x_gm = tik_instance.Tensor("float16", (4 * 128,), name="x_gm", scope=tik.scope_gm)
y_gm = tik_instance.Tensor("float16", (4 * 128,), name="y_gm", scope=tik.scope_gm)
with tik_instance.for_range(0, 4, block_num=4) as i:
    x_ub = tik_instance.Tensor("float16", (128,), name="x_ub", scope=tik.scope_ubuf)
    tik_instance.data_move(x_ub, x_gm[i * 128], 0, 1, 8, 0, 0)
    tik_instance.vec_muls(128, x_ub, x_ub, 2.0, 1, 8, 8)
    tik_instance.data_move(y_gm[i * 128], x_ub, 0, 1, 8, 0, 0)
tik_instance.BuildCCE(kernel_name="twice", inputs=[x_gm], outputs=[y_gm])
"""


@pytest.fixture
def tik_process(monkeypatch):
    """What the TIK commands change in the process, undone (as tests/cli/test_tik_cli.py)."""
    from simulator.tik import tik

    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(tik, "SETTINGS", dict(tik.SETTINGS))
    for var in ("PYTHONPATH", "PIPEV_CHIP", "PIPEV_CHECKS"):
        monkeypatch.setenv(var, os.environ.get(var, ""))
    yield
    for name in [m for m in sys.modules if m.split(".")[0] in ("tbe", "te", "tik")]:
        del sys.modules[name]


def test_tik_block_num_launches_that_many_cores(tmp_path, tik_process):
    """TIK's outermost for_range(0, 4, block_num=4): 4 cores, the loop variable block_idx."""
    (tmp_path / "blocks.py").write_text(TIK_BLOCKS)
    x = np.arange(512).astype(np.float16)
    np.save(tmp_path / "x.npy", x)
    r = pipev("run", "blocks.py", "--input", "x_gm=x.npy", "--json", cwd=tmp_path)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["block_dim"] == 4 and not d["warnings"]
    y = np.load(tmp_path / "pipev-out" / "y_gm.npy")
    assert y.tobytes() == (x * np.float16(2)).tobytes()
    (tmp_path / "nested.py").write_text(TIK_BLOCKS.replace(
        "with tik_instance.for_range(0, 4, block_num=4) as i:",
        "with tik_instance.for_range(0, 1) as j:\n  with tik_instance.for_range(0, 4, "
        "block_num=4) as i:"))
    r = pipev("run", "nested.py", "--input", "x_gm=x.npy", cwd=tmp_path)  # inside a serial
    assert r.exit_code == 0, r.output  # loop: every core runs the loop, its block_idx inside
    y = np.load(tmp_path / "pipev-out" / "y_gm.npy")
    assert y.tobytes() == (x * np.float16(2)).tobytes()


@needs_cxx
def test_ascendc_big_and_small_cores_on_8_cores_match_numpy(tmp_path, capfd):
    """805 rows over 8 cores: cores 0..4 take 101 rows, 5..7 take 100 (GetBlockIdx and
    GetBlockNum, a tail); the output is numpy's x * 2, and each core is in --json."""
    x = np.random.default_rng(5).standard_normal(805 * 8).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    rc = cli_main(["run", KERNELS / "big_small.cpp", "--kernel", "twice", "--block-dim", "8",
                "--arg", "x=x.npy", "--arg", "y=out:f32[6440]", "--json"])
    out, err = capfd.readouterr()
    assert rc == 0, err
    y = np.load(tmp_path / "pipev-out" / "y.npy")
    assert y.tobytes() == (x * np.float32(2)).tobytes()
    d = json.loads(out)
    assert d["block_dim"] == 8 and [c["core"] for c in d["cores"]] == list(range(8))
    assert not d["warnings"]


@needs_cxx
def test_ascendc_cores_writing_the_same_gm_bytes_warn_and_syncall_waits(tmp_path, capfd):
    np.save(tmp_path / "x.npy", np.ones(805 * 8, np.float32))
    base = ["--arg", "x=x.npy", "--arg", "y=out:f32[6440]", "--block-dim", "2"]
    rc = cli_main(["run", KERNELS / "big_small.cpp", "-D", "PIPEV_TEST_STOMP", "--kernel",
                "twice", *base])
    _, err = capfd.readouterr()
    assert rc == 0 and "warning: core 1 writes GM y bytes that core 0 also writes" in err, err
    rc = cli_main(["run", KERNELS / "big_small.cpp", "-D", "PIPEV_TEST_STOMP", "--werror",
                "--kernel", "twice", *base])
    _, err = capfd.readouterr()
    assert rc == 1 and "error: core 1 writes GM y bytes that core 0 also writes" in err, err
    # SyncAll across the 2 cores: each waits for the other, then writes its own rows
    rc = cli_main(["run", KERNELS / "big_small.cpp", "-D", "PIPEV_TEST_SYNCALL", "--kernel",
                "twice", *base, "--output-dir", tmp_path / "two"])
    _, err = capfd.readouterr()
    assert rc == 0 and "stall sync_all" in err and "warning" not in err, err
    assert (np.load(tmp_path / "two" / "y.npy")[:6440] == 2).all()
    # one core has no other to wait for: its SyncAll is a barrier of its own pipes
    rc = cli_main(["run", KERNELS / "big_small.cpp", "-D", "PIPEV_TEST_SYNCALL", "--kernel",
                "twice", *base[:-1], "1", "--output-dir", tmp_path / "one"])
    _, err = capfd.readouterr()
    assert rc == 0 and "SyncAll" not in err, err
    y = np.load(tmp_path / "one" / "y.npy")
    assert (y[:6440] == 2).all()


@needs_cxx
def test_ascendc_host_program_launches_4_cores_with_the_triple_chevron(tmp_path, capfd):
    rc = cli_main(["run", KERNELS / "big_small_host.cpp"])
    out, err = capfd.readouterr()
    assert rc == 0 and out == "ok\n", (out, err)
    # the words match the numbers: 4 cores side by side in one wave, each span from 0 (#30)
    assert "twice<<<4>>> on ascend910b: 36 instructions, 136 micro-ops; 4 cores on 4 " \
        "vector cores in 1 wave" in err and "one after another" not in err
    rows = [ln.split()[:2] for ln in err.splitlines() if ln.startswith("  core ")]
    assert rows == [["core", str(k)] for k in range(4)]


@needs_cxx
def test_ascendc_debug_picks_a_core_of_a_launch(tmp_path, capfd):
    (tmp_path / "cmds.txt").write_text("continue\nprint x1\nquit\n")
    host = KERNELS / "big_small_host.cpp"
    rc = cli_main(["debug", host, "--core", "3", "--commands", tmp_path / "cmds.txt"])
    out, err = capfd.readouterr()
    assert rc == 0 and "program finished: 9 instructions" in out, out + err
    rc = cli_main(["debug", host, "--core", "4", "--commands", tmp_path / "cmds.txt"])
    _, err = capfd.readouterr()
    assert rc == 1 and "error: the run made no kernel launch 0 core 4 to debug" in err, err


STOMP = """\
.chip ascend910b
.block_dim 2
.gm out f32[64] output
.ub x f32[64] = fill(1)
    copy_ub_to_gm out, x, nburst=1, burst=8
"""


def test_vasm_cores_writing_the_same_gm_bytes_warn_and_fail_under_werror(tmp_path):
    prog = tmp_path / "stomp.vasm"
    prog.write_text(STOMP)
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["run", str(prog), "--quiet", "--output-dir", str(out)])
    assert r.exit_code == 0
    assert (f"{prog}:5:19: warning: core 1 writes GM out bytes that core 0 also writes (line 5), "
            "first byte 0x0") in r.stderr
    r = CliRunner().invoke(main, ["run", str(prog), "--quiet", "--werror", "--output-dir",
                                  str(tmp_path / "out2")])
    assert r.exit_code == 1 and "treated as error (--werror)" in r.stderr
    assert not (tmp_path / "out2").exists() or not any((tmp_path / "out2").iterdir())
