"""Every diagnostic quotes the user's own source line with a caret under its column, through one
renderer (simulator/render.py), on every path: the debugger's replies (.vasm, C++, TIK), the C++
front end's worker and its launch rewriting, the TIK front end (build-time misuse, run-time
checks, start_debug); `--no-source` turns the quote off on each; `--json` carries the line as a
"source" field and no quote (issue 18)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_ascendc_run import RUN, line_of

import pipev
from isa.diagnostics import Diagnostic
from simulator.cli import main
from simulator.debugger import debug
from simulator.render import render

ROOT = Path(__file__).resolve().parents[2]
OVERLAP = ROOT / "programs" / "tutorial" / "overlap_bug.vasm"
OVERLAP_HEAD = f"{OVERLAP}:16:30: error: vsel.f16 dst x and src0 x overlap partially"
OVERLAP_QUOTE = ["   16 |     select.f16     x[16], m, x, y, mode=2, count=496",
                 "      | " + " " * 29 + "^"]
STOPPED = "the program stopped on this error; `back` steps back from it, `run` restarts"


def quote_of(lines: list[str], head: str) -> list[str]:
    """The two lines after the diagnostic line that starts with HEAD."""
    k = next(i for i, ln in enumerate(lines) if ln.startswith(head))
    return lines[k + 1:k + 3]


def caret_column(quote: list[str]) -> int:
    """The 1-based column of the quoted line the caret stands under."""
    return quote[1].index("^") - quote[1].index("|") - 1


# -- the debugger, .vasm ---------------------------------------------------------------------
def test_a_debugger_stop_on_an_error_quotes_the_line_with_a_caret():
    out = io.StringIO()
    assert debug(OVERLAP, stdin=io.StringIO("continue\nstep\n"), out=out) == 0
    lines = out.getvalue().splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith(OVERLAP_HEAD))
    assert lines[k + 1:k + 4] == [*OVERLAP_QUOTE, STOPPED]
    assert lines[k + 1][8 + 30 - 1] == "x"  # the caret is under column 30: x[16]
    again = [i for i, ln in enumerate(lines) if ln.startswith(OVERLAP_HEAD)]
    assert len(again) == 2 and lines[again[1] + 1:again[1] + 4] == [*OVERLAP_QUOTE, STOPPED]


def test_debug_no_source_keeps_one_line_per_diagnostic():
    for args in (["debug", "--no-source", OVERLAP], ["--no-source", "debug", OVERLAP]):
        r = CliRunner().invoke(main, [*map(str, args), "--batch", "--ex", "continue"])
        lines = r.stdout.splitlines()
        k = next(i for i, ln in enumerate(lines) if ln.startswith(OVERLAP_HEAD))
        assert lines[k + 1] == STOPPED, lines
        assert not any(" | " in ln for ln in lines)
    r = CliRunner().invoke(main, ["debug", str(OVERLAP), "--batch", "--ex", "continue"])
    assert quote_of(r.stdout.splitlines(), OVERLAP_HEAD) == OVERLAP_QUOTE


def test_a_program_that_cannot_be_loaded_quotes_its_line_on_stderr():
    prog = ROOT / "programs" / "tutorial" / "misaligned_bug.vasm"
    head = f"{prog}:16:20: error: select.f16 dst address 0x848 is not 32-byte aligned"
    r = CliRunner().invoke(main, ["debug", str(prog)], input="")
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith(head)
    assert lines[1:] == ["   16 |     select.f16     z[4], m, x, y, mode=2, count=512",
                         "      | " + " " * 19 + "^"]
    r = CliRunner().invoke(main, ["debug", "--no-source", str(prog)], input="")
    assert r.exit_code == 1 and len(r.stderr.splitlines()) == 1


def test_the_debugger_object_replies_like_the_prompt_or_without_the_quote():
    quoted = pipev.debug(OVERLAP).execute("continue")  # by default, as at the prompt
    assert quoted[0].startswith(OVERLAP_HEAD) and quoted[1:4] == [*OVERLAP_QUOTE, STOPPED]
    plain = pipev.debug(OVERLAP, show_source=False).execute("continue")
    assert plain[0] == quoted[0] and plain[1] == STOPPED


def test_a_warning_in_a_session_is_quoted_too(tmp_path):
    prog = tmp_path / "w.vasm"
    prog.write_text(".chip ascend910b\n.ub z f32[64] = zeros\n"
                    "    vadds.f32 z, z, 1.0, repeat=0\n    nop\n")
    r = CliRunner().invoke(main, ["debug", str(prog), "--batch", "--ex", "continue"])
    lines = r.stdout.splitlines()
    k = next(i for i, ln in enumerate(lines) if ": warning: " in ln)
    assert lines[k].startswith(f"{prog}:3:")
    quote = lines[k + 1:k + 3]
    assert quote[0] == "    3 |     vadds.f32 z, z, 1.0, repeat=0"
    assert caret_column(quote) == int(lines[k].split(":")[2])


def test_checks_note_is_quoted_at_the_instruction_it_could_not_decide(tmp_path):
    from test_ci_gates import DATA_ADDRESS

    prog = tmp_path / "d.vasm"
    prog.write_text(DATA_ADDRESS)
    lines = CliRunner().invoke(main, ["check", str(prog)]).stderr.splitlines()
    assert lines[0].startswith(f"{prog}:10:5: note: 4 checks need run-time values")
    assert lines[1:3] == ["   10 |     vsel.f16       z, x, x, mode=2, repeat=1", "      |     ^"]
    lines = CliRunner().invoke(main, ["check", "--no-source", str(prog)]).stderr.splitlines()
    assert len(lines) == 2 and lines[1].endswith(": ok (5 statements, chip ascend910b)")


# -- --json, files that cannot be read -------------------------------------------------------
def test_json_failure_carries_the_source_line_and_no_quote(tmp_path):
    r = CliRunner().invoke(main, ["run", str(OVERLAP), "--json", "--output-dir", str(tmp_path)])
    assert r.exit_code == 1 and r.stderr == ""
    obj = json.loads(r.stdout)
    first = obj["diagnostics"][0]
    assert first["source"] == OVERLAP_QUOTE[0][8:] and first["column"] == 30
    assert "^" not in r.stdout


def test_an_output_that_cannot_be_written_quotes_its_declaration(tmp_path):
    prog = ROOT / "programs" / "tutorial" / "maximum.vasm"
    (tmp_path / "out.npy").mkdir()
    r = CliRunner().invoke(main, ["run", str(prog), "--output-dir", str(tmp_path), "--quiet"])
    lines = r.stderr.splitlines()
    assert r.exit_code == 1 and lines[0].startswith(f"{prog}:5:6: error: cannot write output ")
    assert lines[1:] == ["    5 | .gm  out  f16[512]  output", "      |      ^"]
    r = CliRunner().invoke(main, ["run", str(prog), "--output-dir", str(tmp_path), "--json"])
    assert json.loads(r.stdout)["reason"] == lines[0] and r.stderr == ""


def test_a_file_that_cannot_be_read_or_was_rewritten(tmp_path):
    gone = Diagnostic("error", str(tmp_path / "deleted.cpp"), 3, 5, "bad")
    assert render(gone) == str(gone)
    assert render(Diagnostic("error", "<stream>", 1, 1, "bad")) == "<stream>:1:1: error: bad"
    f = tmp_path / "k.vasm"
    f.write_text("    first line\n")
    d = Diagnostic("error", str(f), 1, 5, "bad")
    assert render(d).splitlines()[1] == "    1 |     first line"
    f.write_text("    the line, edited\n")  # a new size: read again, not the cached text
    assert render(d).splitlines()[1] == "    1 |     the line, edited"


# -- the C++ front end -----------------------------------------------------------------------
@pytest.fixture
def pipev_cpp(env, tmp_path):  # noqa: F811
    def run(*args):
        proc = subprocess.run([sys.executable, "-m", "simulator.cli", *map(str, args)],
                              cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120)
        assert "Traceback" not in proc.stderr, proc.stderr
        return proc
    return run


def cpp_quote(src: Path, needle: str, stderr: str, head: str) -> list[str]:
    """The quote after the diagnostic HEAD, checked to be SRC's own line with NEEDLE."""
    n = line_of(src, needle)
    quote = quote_of(stderr.splitlines(), head)
    assert quote[0] == f"{n:>5} | " + src.read_text().splitlines()[n - 1]
    return quote


def test_a_misaligned_cpp_call_quotes_the_kernels_line(pipev_cpp):
    src = RUN / "misaligned.cpp"
    proc = pipev_cpp("run", src)
    assert proc.returncode == 1
    n = line_of(src, "Select(dstLocal[1]")
    head = f"{src}:{n}:5: error: vsel.f32 dst tbuf0 address 0x404"
    quote = cpp_quote(src, "Select(dstLocal[1]", proc.stderr, head)
    assert quote[0] == f"   {n} |     AscendC::Select(dstLocal[1], mask, src, src, " \
        "AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 128);"
    assert quote[1] == "      |     ^" and caret_column(quote) == 5
    quiet = pipev_cpp("run", "--no-source", src)
    assert quiet.returncode == 1
    assert [ln for ln in quiet.stderr.splitlines() if ": error: " in ln] == \
        [ln for ln in proc.stderr.splitlines() if ": error: " in ln]
    assert not any(" | " in ln for ln in quiet.stderr.splitlines())


def test_an_out_of_bounds_datacopy_quotes_the_kernels_line(pipev_cpp):
    src = RUN / "datacopy_overrun.cpp"
    n = line_of(src, "DataCopy(t, xGm, 512)")
    proc = pipev_cpp("run", src)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert lines[0] == (f"{src}:{n}:5: error: copy_gm_to_ub dst tbuf0 needs 2048 bytes, tensor "
                        "has 1024 (burst 0, block 32)")  # no header registers
    assert lines[1:3] == [f"   {n} |     AscendC::DataCopy(t, xGm, 512);", "      |     ^"]
    assert pipev_cpp("--no-source", "run", src).stderr.splitlines() == lines[:1]


def test_a_race_in_a_cpp_debugging_session_is_quoted(pipev_cpp):
    src = RUN / "missing_flag.cpp"
    n = line_of(src, "AscendC::Muls")
    head = f"{src}:{n}:5: warning: race: vmuls.f32 on V"
    proc = pipev_cpp("debug", src, "--batch", "--ex", "continue")
    assert proc.returncode == 0, proc.stderr
    quote = cpp_quote(src, "AscendC::Muls", proc.stdout, head)  # the session's reply
    assert quote == [f"   {n} |     AscendC::Muls(t, t, 2.0f, 256);", "      |     ^"]
    cpp_quote(src, "AscendC::Muls", proc.stderr, head)  # and the recording run's report
    quiet = pipev_cpp("debug", "--no-source", src, "--batch", "--ex", "continue")
    assert any(ln.startswith(head) for ln in quiet.stdout.splitlines())
    assert not any(" | " in ln for ln in (quiet.stdout + quiet.stderr).splitlines())


def test_compiler_output_stays_as_the_compiler_printed_it(pipev_cpp):
    src = RUN / "compile_error.cpp"
    proc = pipev_cpp("run", src)
    plain = pipev_cpp("run", "--no-source", src)
    assert proc.returncode == plain.returncode == 1
    assert proc.stderr == plain.stderr  # the compiler's own quote, not pipev's, either way
    assert "Selekt" in proc.stderr


# -- the TIK front end -----------------------------------------------------------------------
MISALIGNED_TIK = """from tbe import tik

tik_instance = tik.Tik()
src_gm = tik_instance.Tensor("float16", (256,), name="src_gm", scope=tik.scope_gm)
dst_gm = tik_instance.Tensor("float16", (256,), name="dst_gm", scope=tik.scope_gm)
a_ub = tik_instance.Tensor("float16", (256,), name="a_ub", scope=tik.scope_ubuf)
b_ub = tik_instance.Tensor("float16", (256,), name="b_ub", scope=tik.scope_ubuf)
tik_instance.data_move(a_ub, src_gm, 0, 1, 16, 0, 0)
tik_instance.vec_abs(128, b_ub[4], a_ub, 2, 8, 8)
tik_instance.data_move(dst_gm, b_ub, 0, 1, 16, 0, 0)
tik_instance.BuildCCE(kernel_name="k", inputs=[src_gm], outputs=[dst_gm])
"""
TIK_QUOTE = ["    9 | tik_instance.vec_abs(128, b_ub[4], a_ub, 2, 8, 8)", "      | ^"]


@pytest.fixture
def no_source_env(monkeypatch):
    """PIPEV_NO_SOURCE (which `--no-source` sets for a script's subprocesses) undone after."""
    monkeypatch.delenv("PIPEV_NO_SOURCE", raising=False)


def test_a_tik_misuse_quotes_the_scripts_line(cli, tmp_path, no_source_env):  # noqa: F811
    script = tmp_path / "k.py"
    script.write_text(MISALIGNED_TIK)
    head = f"{script}:9:1: error: vec_abs: abs.f16 dst address 0x208 is not 32-byte aligned"
    for command in ("run", "check", "asm"):
        r = cli(command, script)
        assert r.exit_code == 1
        lines = r.stderr.splitlines()
        assert lines[0].startswith(head) and lines[1:] == TIK_QUOTE, (command, lines)
        quiet = cli(command, "--no-source", script)
        assert quiet.stderr.splitlines() == lines[:1], command


def test_a_tik_run_time_error_in_the_debugger_quotes_the_scripts_line(cli, tmp_path,  # noqa: F811
                                                                         no_source_env):
    script = tmp_path / "k.py"
    script.write_text(MISALIGNED_TIK.replace("b_ub[4]", "b_ub[64]").replace("2, 8, 8)",
                                                                           "4, 8, 8)"))
    data = tmp_path / "s.npy"
    import numpy as np

    np.save(data, np.ones(256, np.float16))
    head = f"{script}:9:1: error: vabs.f16 dst b_ub needs 1152 bytes, tensor has 512"
    quote = ["    9 | tik_instance.vec_abs(128, b_ub[64], a_ub, 4, 8, 8)", "      | ^"]
    r = cli("debug", script, "--input", f"src_gm={data}", "--batch", "--ex", "continue")
    lines = r.stdout.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith(head))
    assert lines[k + 1:k + 4] == [*quote, STOPPED]
    r = cli("debug", "--no-source", script, "--input", f"src_gm={data}", "--batch", "--ex",
            "continue")
    lines = r.stdout.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith(head))
    assert lines[k + 1] == STOPPED
    r = cli("run", script, "--input", f"src_gm={data}", "--output-dir", tmp_path / "o")
    assert r.exit_code == 1 and r.stderr.splitlines()[1:] == quote


START_DEBUG = """import numpy as np
from tbe import tik

tik_instance = tik.Tik()
src_gm = tik_instance.Tensor("float16", (256,), name="src_gm", scope=tik.scope_gm)
dst_gm = tik_instance.Tensor("float16", (256,), name="dst_gm", scope=tik.scope_gm)
a_ub = tik_instance.Tensor("float16", (256,), name="a_ub", scope=tik.scope_ubuf)
b_ub = tik_instance.Tensor("float16", (256,), name="b_ub", scope=tik.scope_ubuf)
tik_instance.vec_abs(128, b_ub, a_ub, 2, 8, 8)
tik_instance.data_move(dst_gm, b_ub, 0, 1, 16, 0, 0)
tik_instance.BuildCCE(kernel_name="k", inputs=[src_gm], outputs=[dst_gm])
tik_instance.tikdb.start_debug({"src_gm": np.ones(256, np.float16)}, interactive=False)
"""


def test_start_debug_warnings_are_quoted_and_no_source_reaches_the_script(tmp_path):
    """Real processes: `pipev python` (and its --no-source, group or command) in a script."""
    script = tmp_path / "sd.py"
    script.write_text(START_DEBUG)
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIPEV_NO_SOURCE")}
    head = f"{script}:9:1: warning: vabs.f16 src a_ub reads byte 0x0, which was never written"

    def python(*args):
        proc = subprocess.run([sys.executable, "-m", "simulator.cli", *map(str, args)],
                              capture_output=True, text=True, env=clean, cwd=ROOT, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stderr.splitlines()

    lines = python("python", script)
    assert lines[0].startswith(head)
    assert lines[1:] == ["    9 | tik_instance.vec_abs(128, b_ub, a_ub, 2, 8, 8)", "      | ^"]
    assert python("python", "--no-source", script) == lines[:1]
    assert python("--no-source", "python", script) == lines[:1]
