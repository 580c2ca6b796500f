"""AscendC `SyncAll` across the cores of a launch (docs/cores.md, "SyncAll"): a cross-core sum
(each core's partial into a GM workspace, SyncAll, core 0 adds them) against numpy, two SyncAlls
and the software form, the race check's ordering at the barrier, the deadlock and too-many-cores
errors, an error in one core while the others wait, the barrier's timing, and the debugger's
replay of one core that crossed a SyncAll."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from isa.chip import get_chip
from tests.support.cli import cli_main

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "data" / "ascendc" / "kernels"
KERNEL = KERNELS / "sync_all_sum.cpp"
SLICE, SLOT = 256, 8  # the kernel's floats a core sums, floats of a core's workspace slot
SYNC_LINE = 75  # the kernel's AscendC::SyncAll() line


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # outputs land in pipev-out/ there


def _inputs(tmp_path: Path, cores: int) -> np.ndarray:
    """Whole numbers as floats: every partial sum and the total are exact, whatever the order
    of the additions, so numpy's sums are the kernel's to the byte."""
    x = np.random.default_rng(cores).integers(-100, 100, cores * SLICE).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    return x


def _args(cores: int, *defines: str) -> list:
    out = ["run", KERNEL]
    for d in defines:
        out += ["-D", d]
    return out + ["--kernel", "sync_sum", "--block-dim", cores, "--arg", "x=x.npy",
                  "--arg", f"work=out:f32[{2 * cores * SLOT}]", "--arg", f"y=out:f32[{SLOT}]",
                  "--arg", f"z=out:f32[{cores * SLICE}]"]


def _outputs(tmp_path: Path) -> dict[str, np.ndarray]:
    return {n: np.load(tmp_path / "pipev-out" / f"{n}.npy") for n in ("work", "y", "z")}


def test_cross_core_sum_matches_numpy(tmp_path, capfd):
    x = _inputs(tmp_path, 4)
    rc = cli_main([*_args(4), "--json"])
    out, err = capfd.readouterr()
    assert rc == 0, err
    got = _outputs(tmp_path)
    partials = x.reshape(4, SLICE).sum(axis=1, dtype=np.float32)
    assert got["work"].reshape(8, SLOT)[:4, 0].tobytes() == partials.tobytes()
    assert got["y"][:1].tobytes() == np.float32(x.sum(dtype=np.float32)).tobytes()
    d = json.loads(out)
    assert not d["warnings"], d["warnings"]
    assert all("sync_all" in c["stalls"] for c in d["cores"]) and "sync_all" in d["stalls"]


@pytest.mark.parametrize("defines", [["PIPEV_TEST_TWICE"], ["PIPEV_TEST_TWICE", "PIPEV_TEST_SOFT"]])
def test_two_sync_alls_and_the_software_form(tmp_path, capfd, defines):
    """After the second SyncAll every core reads the total core 0 wrote and scales its slice."""
    x = _inputs(tmp_path, 4)
    rc = cli_main(_args(4, *defines))
    _, err = capfd.readouterr()
    assert rc == 0 and "warning" not in err, err
    got = _outputs(tmp_path)
    total = x.sum(dtype=np.float32)
    assert got["y"][:1].tobytes() == np.float32(total).tobytes()
    assert got["z"].tobytes() == (x * total).astype(np.float32).tobytes()


def test_the_trace_gives_each_core_its_own_events_across_the_barriers(tmp_path, capfd):
    """The cores write the launch's one trace by turns: after a SyncAll, core 0's events are
    core 0's again (every core runs the same statements here)."""
    _inputs(tmp_path, 4)
    rc = cli_main([*_args(4, "PIPEV_TEST_TWICE"), "--trace", "t.jsonl"])
    _, err = capfd.readouterr()
    assert rc == 0, err
    lines = [json.loads(ln) for ln in (tmp_path / "t.jsonl").read_text().splitlines()]
    by_core: dict[int, list] = {}
    for ev in lines:
        if "core" in ev and "line" in ev:
            by_core.setdefault(ev["core"], []).append(ev["line"])
    assert sorted(by_core) == [0, 1, 2, 3]
    assert all(by_core[k] == by_core[0] for k in range(1, 4)), by_core


def test_the_barrier_orders_gm_accesses_for_the_race_check(tmp_path, capfd):
    """Core 0 reading the partials after the SyncAll is no race; before it, it is one."""
    _inputs(tmp_path, 4)
    rc = cli_main(_args(4, "PIPEV_TEST_TWICE"))
    _, err = capfd.readouterr()
    assert rc == 0 and "multi-core stomping" not in err, err
    rc = cli_main(_args(4, "PIPEV_TEST_RACE"))
    _, err = capfd.readouterr()
    assert rc == 0, err
    assert "warning: 3 cores (1, 2, 3) write GM work bytes that another core reads" in err, err


@pytest.mark.parametrize("early, words", [
    (3, "error: SyncAll: cores 0, 1 and 2 wait here for core 3, which ended without reaching "
        "this SyncAll (a deadlock: on the device the launch would hang)"),
    (0, "error: SyncAll: core 1 waits here for core 0, which ended without reaching this "
        "SyncAll"),
])
def test_a_core_that_never_reaches_the_sync_all_is_a_deadlock_error(tmp_path, capfd, early,
                                                                     words):
    _inputs(tmp_path, 4)
    rc = cli_main(_args(4, f"PIPEV_TEST_EARLY={early}"))
    _, err = capfd.readouterr()
    assert rc == 1 and f"sync_all_sum.cpp:{SYNC_LINE}:9: {words}" in err, err
    assert "Traceback" not in err


def test_more_cores_than_the_chip_runs_at_once_is_an_error_at_the_sync_all(tmp_path, capfd):
    cores = get_chip("ascend910b").vector_cores + 1
    _inputs(tmp_path, cores)
    rc = cli_main(_args(cores))
    _, err = capfd.readouterr()
    assert rc == 1, err
    assert f"sync_all_sum.cpp:{SYNC_LINE}:9: error: SyncAll: the launch's {cores} cores do not " \
        f"fit on ascend910b's {cores - 1} vector cores at once" in err, err


FREED_TWICE = "sync_all_sum.cpp:57:13: error: FreeTensor twice"
THROWN = "error: a C++ exception left core 1's kernel (a kernel cannot throw on the device)"


@pytest.mark.parametrize("defines, words", [
    (["PIPEV_TEST_FAULT"], FREED_TWICE), (["PIPEV_TEST_FAULT", "PIPEV_TEST_TWICE"], FREED_TWICE),
    (["PIPEV_TEST_THROW", "PIPEV_TEST_TWICE"], THROWN)])
def test_an_error_in_one_core_while_others_wait_ends_the_launch(tmp_path, defines, words):
    """Core 1 fails after the first SyncAll while cores 2 and 3 (and with a second SyncAll,
    core 0) are suspended: one error, exit 1. A separate process with a timeout: a hang fails
    the test instead of stopping the suite."""
    _inputs(tmp_path, 4)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    r = subprocess.run([sys.executable, "-m", "simulator.cli", *map(str, _args(4, *defines))],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert r.stderr.count("error:") == 1 and "Traceback" not in r.stderr, r.stderr
    assert words in r.stderr, r.stderr


def test_a_core_that_arrives_early_waits_for_the_last(tmp_path, capfd):
    """The last core works longer before the SyncAll: every core goes on when it arrived plus
    the profile's barrier cost; the others' wait is their `sync_all` stall."""
    cost = get_chip("ascend910b").timing["sync_all"]
    _inputs(tmp_path, 4)
    rc = cli_main([*_args(4, "PIPEV_TEST_SLOW"), "--json"])
    out, err = capfd.readouterr()
    assert rc == 0, err
    cores = json.loads(out)["cores"]
    late = cores[3]
    # the last core has no timed work after the barrier: it ends where every core resumed
    arrival = late["end"] - cost
    assert late["stalls"]["sync_all"] == cost
    for c in cores[:3]:
        assert c["end"] >= late["end"] > arrival
        assert c["stalls"]["sync_all"] > cost
    rc = cli_main(_args(4, "PIPEV_TEST_SLOW"))
    _, err = capfd.readouterr()
    stalled = sum(c["stalls"]["sync_all"] for c in cores)
    assert rc == 0 and f"stall sync_all {stalled:>13} cycles" in err, err


def test_host_program_and_the_debugger_replay_of_a_core_that_crossed_a_sync_all(tmp_path, capfd):
    host = KERNELS / "sync_all_sum_host.cpp"
    rc = cli_main(["run", host])
    out, err = capfd.readouterr()
    i = np.arange(4 * SLICE)
    assert rc == 0 and out == f"{((i * 7) % 201 - 100).astype(np.float32).sum():.1f}\n" * 2, err
    # one core's recording holds GM as that core found it: it replays to its SyncAll and says
    # why it cannot go on
    (tmp_path / "cmds.txt").write_text("continue\nquit\n")
    rc = cli_main(["debug", host, "--core", "1", "--commands", tmp_path / "cmds.txt"])
    out, err = capfd.readouterr()
    assert rc == 0, out + err
    assert f"sync_all_sum.cpp:{SYNC_LINE}:9: error: SyncAll: the replay of one core's " \
        "recording ends here" in out + err, out + err


def test_software_form_rules_are_errors_at_the_call(tmp_path, capfd):
    _inputs(tmp_path, 4)
    rc = cli_main(_args(4, "PIPEV_TEST_SOFT", "PIPEV_TEST_SYNC_UB=96"))
    _, err = capfd.readouterr()
    assert rc == 1 and "error: SyncAll: ubWorkspace holds 96 bytes; the software form needs " \
        "32 a core (128 for 4 cores)" in err, err


def test_a_profile_without_sync_all_runs_until_a_syncall_needs_it(tmp_path, capfd):
    """sync_all is optional in a profile of one's own (one written before the key existed
    stays valid): a launch without SyncAll runs; a SyncAll across cores stops at its line."""
    text = (ROOT / "isa" / "chips" / "ascend910b.toml").read_text()
    kept = [ln for ln in text.splitlines() if not ln.startswith("sync_all")]
    assert len(kept) == len(text.splitlines()) - 1
    profile = tmp_path / "mine.toml"
    profile.write_text("\n".join(kept) + "\n")
    _inputs(tmp_path, 2)
    assert cli_main([*_args(1), "--chip", profile]) == 0, capfd.readouterr().err
    rc = cli_main([*_args(2), "--chip", profile])
    err = capfd.readouterr().err
    assert rc == 1
    assert f"sync_all_sum.cpp:{SYNC_LINE}:" in err and "has no [timing] sync_all" in err, err
    assert "Traceback" not in err
