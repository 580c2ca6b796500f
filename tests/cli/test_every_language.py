"""Issue #30 items 1, 2, 6 and 7: every command takes every language. Each of the issue's
findings, run again: `check`/`asm` of C++, `--view`/`--expect` of C++, one trace and one report
per launch, `--json` with the `.vasm` fields, `--help` per language, and the Python API on C++
and TIK programs with its one base exception. The C++ programs are the ones other tests compile
(the session's compile cache: `env`), plus one two-line file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "data" / "ascendc" / "kernels"
HOST = KERNELS / "big_small_host.cpp"  # twice<<<4>>>(x, y): y = 2 x over 805 rows of 8 floats
ONLY = KERNELS / "big_small.cpp"  # the same kernel, kernel-only
MISALIGNED = ROOT / "tests" / "data" / "ascendc" / "run" / "misaligned.cpp"
TIK = ROOT / "programs" / "tik" / "vec_sel_mode0.py"
ROWS = 805 * 8


def kernel_only(tmp_path, *extra, blocks: int = 8) -> list:
    np.save(tmp_path / "x.npy", np.arange(ROWS, dtype=np.float32))
    return [ONLY, "--kernel", "twice", "--arg", "x=x.npy", "--arg", f"y=out:f32[{ROWS}]",
            "--block-dim", blocks, *extra]


# -- check -------------------------------------------------------------------------------------
def test_check_of_cpp_runs_it_and_says_what_it_checked(pipev):
    r = pipev("check", HOST)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "ok\n"  # the program's own output
    assert r.stderr == f"{HOST}: ok (1 kernel launch on 4 cores, 36 instructions, chip " \
        "ascend910b)\n"


def test_check_of_cpp_that_launches_nothing_is_an_error_not_a_silent_ok(pipev, tmp_path):
    """The issue's wrapper of #includes that printed `ok (0 statements)` and exited 0."""
    (tmp_path / "wrapper.cpp").write_text('#include "kernel_operator.h"\n'
                                          "int main() { return 0; }\n")
    r = pipev("check", "wrapper.cpp", "--werror")
    assert r.returncode == 1
    assert "wrapper.cpp:1:1: error: the program made no kernel launch: nothing was checked" \
        in r.stderr and ": ok" not in r.stderr


def test_check_of_cpp_reports_a_broken_kernel_at_its_line(pipev):
    r = pipev("check", MISALIGNED)
    assert r.returncode == 1, r.stderr
    assert "misaligned.cpp:19:5: error: vsel.f32 dst tbuf0 address 0x404" in r.stderr
    assert ": ok" not in r.stderr


def test_check_of_cpp_werror_fails_on_a_warning(pipev, tmp_path):
    """Two cores writing the same GM bytes: a warning, an error under --werror."""
    args = kernel_only(tmp_path, "-D", "PIPEV_TEST_STOMP", blocks=2)
    assert pipev("check", *args).returncode == 0
    r = pipev("check", *args, "--werror")
    assert r.returncode == 1 and "error: core 1 writes GM y bytes" in r.stderr, r.stderr


# -- asm ---------------------------------------------------------------------------------------
def test_asm_of_cpp_lists_each_call_site_at_its_cpp_line(pipev):
    r = pipev("asm", HOST)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"; {HOST}:24 twice<<<4>>> on ascend910b: each API call")
    muls = lines.index("   26  AscendC::Muls(t, t, 2.0f, rows * kRow);")
    assert lines[muls + 1].split() == ["muls.f32", "tbuf0[x1],", "tbuf0[x2],",
                                       "raw(0x40000000),", "count=x3", "x4"]
    assert "-> vmuls.f32 tbuf0[x1], tbuf0[x2], raw(0x40000000), repeat=1" in lines[muls + 4]
    assert "ok" in r.stderr  # the program's own output, off the listing's stdout
    data = json.loads(pipev("asm", HOST, "--json").stdout)
    (launch,) = data["launches"]
    assert launch["block_dim"] == 4 and data["chip"] == "ascend910b"
    row = next(s for s in launch["statements"] if s["line"] == 26)
    assert row["count"] == 4 and row["cpp"].startswith("AscendC::Muls")
    assert [h["pipe"] for h in row["hw"]] == ["S", "S", "V", "S", "S"]


# -- run: --view, --expect, --json, one trace per launch ----------------------------------------
def test_run_of_cpp_takes_view(pipev):
    r = pipev("run", HOST, "--view", "resources", "--view", "bottleneck")
    assert r.returncode == 0, r.stderr
    assert "resource pressure per source line (busy cycles per pipe)" in r.stderr
    share = next(ln for ln in r.stderr.splitlines() if ln.split()[:1] == ["24"])
    assert share.split()[5] == "52.6%"  # MTE2's 1212 cycles of the 4 cores' 2304
    assert "what set the total of 576 cycles" in r.stderr


def test_run_of_cpp_takes_expect(pipev, tmp_path):
    args = kernel_only(tmp_path)
    np.save(tmp_path / "good.npy", np.arange(ROWS, dtype=np.float32) * 2)
    bad = np.arange(ROWS, dtype=np.float32) * 2
    bad[7] = 0
    np.save(tmp_path / "bad.npy", bad)
    assert pipev("run", *args, "--expect", "y=good.npy").returncode == 0
    r = pipev("run", *args, "--expect", "y=bad.npy")
    assert r.returncode == 1
    assert "error: output y does not match --expect: 1 of 6440 elements differ, first at " \
        "index 7: got 14.0 (0x41600000), expected 0.0 (0x00000000)" in r.stderr
    host = pipev("run", HOST, "--expect", "gm_y=bad.npy")  # a host program's GM buffer
    assert host.returncode == 1 and "output gm_y does not match --expect" in host.stderr


def test_an_8_core_launch_writes_one_trace_with_a_process_per_core(pipev, tmp_path):
    r = pipev("run", *kernel_only(tmp_path), "--trace", "t.json")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in tmp_path.glob("t*.json")) == ["t.json"]  # not t.0.1.json …
    events = json.loads((tmp_path / "t.json").read_text())["traceEvents"]
    names = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
    assert sorted(names) == list(range(1, 9)) and names[4].startswith("core 3 ")
    assert {e["pid"] for e in events if e.get("ph") == "X"} == set(range(1, 9))
    for fmt in ("jsonl", "vcd", "txt"):
        r = pipev("run", *kernel_only(tmp_path), "--trace", f"t.{fmt}")
        assert r.returncode == 0, r.stderr
        assert sorted(p.name for p in tmp_path.glob(f"t*.{fmt}")) == [f"t.{fmt}"]
    cores = {json.loads(ln).get("core") for ln in (tmp_path / "t.jsonl").read_text().splitlines()}
    assert set(range(8)) <= cores


def test_cpp_json_has_the_fields_of_a_vasm_multicore_run(pipev, tmp_path):
    vasm = json.loads(pipev("run", ROOT / "programs" / "kernels" / "multicore_relu.vasm",
                            "--json").stdout)
    for args in (kernel_only(tmp_path), [HOST]):
        r = pipev("run", *args, "--json")
        assert r.returncode == 0, r.stderr
        d = json.loads(r.stdout)
        assert set(vasm) <= set(d), set(vasm) - set(d)
        assert set(vasm["cores"][0]) == set(d["cores"][0])  # gm_bandwidth_wait among them
        assert d["vector_cores"] == d["block_dim"] and d["waves"] == 1
        assert all(0 <= p["utilisation"] <= 1 for p in d["pipes"].values())


def test_the_summary_of_a_launch_says_what_its_numbers_say(pipev, tmp_path):
    r = pipev("run", *kernel_only(tmp_path))
    assert r.returncode == 0, r.stderr
    first = r.stderr.splitlines()[0]
    assert first.endswith("; 8 cores on 8 vector cores in 1 wave"), first
    assert "one after another" not in r.stderr
    spans = [ln.split("(")[1].split(",")[0] for ln in r.stderr.splitlines()
             if ln.startswith("  core ")]
    assert len(spans) == 8 and all(s.startswith("0..") for s in spans)  # side by side


# -- --help --------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["run", "check", "asm", "debug"])
def test_help_documents_each_language(cli, command):
    text = cli(command, "--help").output
    assert "TIK script (.py" in text and "AscendC C++ program" in text
    assert "-I DIR" in text.split("C++:")[-1]
    assert "C++: define macro NAME[=VALUE]" in " ".join(text.split())  # -D per language
    if command == "run":
        for option in ("--kernel NAME", "--arg", "--save-vasm", "-- ARGS"):
            assert option in text


def test_cpp_help_lists_its_options(cli):
    text = cli("run", HOST, "--help").output
    for option in ("-I DIR", "--kernel NAME", "--arg", "--save-vasm", "--view", "--expect",
                   "define a macro for the compiler"):
        assert option in text
    assert "--kernel NAME" in cli("check", HOST, "--help").output


# -- the Python API ------------------------------------------------------------------------------
@pytest.fixture
def api(env, monkeypatch, tmp_path):
    """pipev in this process, with the session's compile cache, in TMP_PATH."""
    import pipev

    monkeypatch.setenv("PIPEV_CACHE_DIR", env["PIPEV_CACHE_DIR"])
    monkeypatch.chdir(tmp_path)
    return pipev


def test_api_runs_a_host_program_a_kernel_and_a_tik_script(api, capfd):
    r = api.run(HOST)
    assert isinstance(r, api.RunResult) and r.exit_status == 0 and r.block_dim == 4
    assert (r.cycles, r.instructions) == (576, 36) and len(r.launches) == 1
    x = np.arange(ROWS, dtype=np.float32)
    assert r.outputs["gm_y"].view(np.float32).tobytes() == (x - 1000.5).__mul__(2).tobytes()
    k = api.run(ONLY, kernel="twice", kernel_args={"x": x, "y": f"out:f32[{ROWS}]"},
                block_dim=8)
    assert k.block_dim == 8 and k.outputs["y"].tobytes() == (x * 2).tobytes()
    inputs = {"src0_gm": np.ones(256, np.float16), "src1_gm": np.zeros(256, np.float16)}
    t = api.run(TIK, inputs=inputs)
    assert isinstance(t, api.RunResult) and t.outputs["dst_gm"].dtype == np.float16
    assert capfd.readouterr().out == "ok\n"  # the host program's own output, nothing of pipev's


def test_api_errors_share_one_documented_base(api, tmp_path):
    from simulator.ascendc.api import CompileError

    with pytest.raises(api.SimulationError) as run_error:
        api.run(ONLY, kernel="twice", kernel_args={"x": np.zeros(10, np.float32),
                                                   "y": f"out:f32[{ROWS}]"})
    assert "outside GM tensor x" in str(run_error.value)
    (tmp_path / "broken.cpp").write_text("int main() { return undeclared; }\n")
    with pytest.raises(CompileError) as compile_error:
        api.run("broken.cpp")
    d = compile_error.value.diagnostics[0]
    assert (d.path, d.line, d.severity) == ("broken.cpp", 1, "error")
    (tmp_path / "none.py").write_text("x = 1\n")
    with pytest.raises(api.AssemblyError) as no_kernel:
        api.run("none.py")
    assert "builds no kernel" in str(no_kernel.value)
    for e in (run_error, compile_error, no_kernel):
        assert isinstance(e.value, api.DiagnosticError)
    for cls in (api.SimulationError, api.AssemblyError):
        assert issubclass(cls, api.DiagnosticError)
    assert "DiagnosticError" in api.__doc__ and "picoseconds" in api.run.__doc__
