"""`pipev debug` with gdb's habits: expressions over tensors and registers, print formats,
display, set var (undone by back), conditional/temporary breakpoints, register watches,
reverse by repeat into instructions that ran in bulk, --ex/--batch/--output-dir/--werror,
completion and history at a terminal, and the undo log's size accounting."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pexpect
import pytest

import pipev
from simulator.debugger import PROMPT, CommandError, Commands, Session, debug
from simulator.debugger.complete import candidates
from simulator.debugger.valuefmt import format_value
from simulator.run import load_program

ROOT = Path(__file__).resolve().parents[2]
DATA = Path("tests/data/debugger")  # relative: the transcript names the program as given
LOOP = DATA / "loop.vasm"
STATE = DATA / "state.vasm"


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator.cli", "debug", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def session(program: Path = LOOP) -> tuple[Session, Commands]:
    s = Session(load_program(ROOT / program))
    return s, Commands(s)


def full_state(s: Session) -> tuple:
    s.sync()
    m = s.machine
    inside = s.inside()
    return (m.ub.tobytes(), {k: v.tobytes() for k, v in m.gm.items()}, m.mask, m.counter,
            m.cmpmask.tobytes(), {k: v.pc for k, v in m.flags.items()}, list(m.x), s.index(),
            inside.repeat if inside is not None else None, s.cycle())


# -- the scripted session: every command, its expected transcript ----------------------------

def test_scripted_session_exercising_every_command_gives_the_expected_transcript():
    r = cli(str(LOOP), "--commands", str(DATA / "gdb_session.txt"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == (ROOT / DATA / "gdb_session.expected").read_text()


def test_the_transcript_shows_what_the_issue_asks_for():
    text = (ROOT / DATA / "gdb_session.expected").read_text()
    # registers; a conditional break on $x1 == 3 in a loop; tbreak; display
    assert "$cmpmask   0x55555555555555555555555555555555" in text
    assert "breakpoint 1 at line 18, pc 8; stops only if $x1 == 3" in text
    assert "temporary breakpoint 2, label top (line 15)" in text
    assert "breakpoint 1, line 18\ntests/data/debugger/loop.vasm:18: blt            x1, 3, top" \
        "\n  pc 8  cycle 21\n1: $x1 = 3\n2: $x2 = 0xc0" in text
    # backr restores the previous repeat's bytes; set var undone by back
    assert "z[60:68] = [60. -1. 62. -1. 64. -1. 66. -1.]\n(pipev) backr" in text
    assert "z[60:68] = [60. -1. 62. -1.  0.  0.  0.  0.]" in text
    assert "undid set var $x1 = 5" in text and "undid set var z[3] = 1.5" in text
    assert "(pipev) print z[3]\nz[3] = 99.0" in text


# -- expressions and formats ------------------------------------------------------------------

def test_expressions_over_tensors_and_registers():
    s, c = session()
    c.execute("step 5")  # x1 = 0, x2 = 0, z filled by the vsel
    z = np.frombuffer(s.machine.ub[s.program.tensors["z"].addr:][:1024].tobytes(), np.float32)
    assert c.execute("print z[3] + 1.5") == [f"z[3] + 1.5 = {z[3] + 1.5}"]
    assert c.execute("print z[2] > z[3]") == [f"z[2] > z[3] = {z[2] > z[3]}"]
    assert c.execute("print $x1 == 0 and $mode == 'norm'") == \
        ["$x1 == 0 and $mode == 'norm' = True"]
    assert c.execute("print $mask_hi >> 60") == ["$mask_hi >> 60 = 15"]
    assert c.execute("print/x $mask") == ["$mask = 0x" + "f" * 32]
    assert c.execute("print $pc") == ["$pc = 5"]
    assert c.execute("print z[-1]") == [f"z[-1] = {z[-1]}"]
    for bad, why in (("print nope", "no tensor 'nope'"), ("print $x99", "no register '$x99'"),
                     ("print z[9999]", "outside the tensor"), ("print 1 +", "cannot parse"),
                     ("print __import__('os')", "not supported"), ("print/q 1", "formats")):
        with pytest.raises(CommandError) as e:
            c.execute(bad)
        assert why in str(e.value), bad


@pytest.mark.parametrize("value, fmt, bits, want", [
    (np.float32(1.0), "x", 64, "0x3f800000"),
    (np.float16(-2.0), "t", 64, "0b1100000000000000"),
    (np.float32(-2.75), "d", 64, "-2"),
    (np.int16(-1), "x", 64, "0xffff"),
    (-2, "x", 64, "0xfffffffffffffffe"),
    (5, "t", 64, "0b101"),
    (7, "f", 64, "7.0"),
    (np.uint8(200), "d", 64, "200"),
    (True, "x", 64, "0x1"),
    (np.array([1, 2], np.uint16), "x", 64, "[0x1 0x2]"),
])
def test_print_formats_show_raw_bits_at_the_elements_width(value, fmt, bits, want):
    assert format_value(value, fmt, bits) == want


def test_print_formats_of_a_bf16_tensor_show_its_encoding(tmp_path):
    prog = tmp_path / "bf.vasm"
    prog.write_text(".chip ascend910b\n.ub t bf16[16] = fill(1.0)\n    nop\n")
    c = Commands(Session(load_program(prog)))
    assert c.execute("print/x t[0:2]") == ["t[0:2] = [0x3f80 0x3f80]"]


# -- set var ----------------------------------------------------------------------------------

def test_set_var_is_one_undo_record_back_undoes_and_the_run_goes_on_from_it():
    s, c = session()
    c.execute("step 5")
    before = full_state(s)
    c.execute("set var z[0:2] = 7")
    c.execute("set var $x1 = 2")  # the loop now runs once
    assert c.execute("print z[0:3]")[0].startswith("z[0:3] = [7. 7.")
    assert c.execute("back 2")[:2] == ["undid set var $x1 = 2", "undid set var z[0:2] = 7"]
    assert full_state(s) == before
    c.execute("set var z[0:2] = 7")
    c.execute("set var $x1 = 2")
    c.execute("continue")
    assert s.finished and s.machine.x[1] == 3
    out = s.machine.gm["out"].view(np.float32)
    plain = pipev.run(ROOT / LOOP).outputs["out"].view(np.float32)
    # one iteration from x1 = 2: z[0:64] got +100 (from 7 at z[0:2]), z[64:192] did not
    assert out[0:2].tolist() == [107.0, 107.0]
    assert out[2:64].tobytes() == plain[2:64].tobytes()
    assert out[64:192].tobytes() == (plain[64:192] - np.float32(100)).tobytes()
    assert out[192:].tobytes() == plain[192:].tobytes()


def test_set_var_only_at_the_newest_point():
    s, c = session()
    c.execute("step 5")
    c.execute("back")
    with pytest.raises(CommandError, match="only at the newest point"):
        c.execute("set var $x1 = 1")
    c.execute("step")
    with pytest.raises(CommandError, match=r"\$x0\.\.\$x31"):
        c.execute("set var $mask = 0")
    with pytest.raises(CommandError, match="f32"):
        c.execute("set var z[0] = 'a'")


# -- breakpoints ------------------------------------------------------------------------------

def test_ignore_disable_enable_delete_and_hit_counts():
    s, c = session()
    c.execute("break top")
    c.execute("ignore 1 1")
    c.execute("continue")
    assert c.execute("print $x1") == ["$x1 = 1"]  # the first crossing was passed
    c.execute("disable 1")
    assert c.execute("continue")[0].startswith("program finished")
    table = c.execute("info breakpoints")
    assert table[1].split()[:3] == ["1", "breakpoint", "n"] and table[1].split()[-1] == "2"
    c.execute("enable")
    c.execute("run")
    assert c.execute("print $x1") == ["$x1 = 0"]
    assert c.execute("delete 1") == ["deleted 1"]
    assert c.execute("info break") == ["no breakpoints or watchpoints"]


def test_conditional_watchpoint_and_break_on_file_line():
    s, c = session()
    c.execute(f"break {LOOP.name}:15 if $x2 == 128")
    c.execute("continue")
    assert c.execute("print $x2") == ["$x2 = 128"]
    with pytest.raises(CommandError, match="no file"):
        c.execute("break other.vasm:3")
    c.execute("delete")
    c.execute("run")
    c.execute("watch z[0:1] if z[0] > 150")
    c.execute("continue")
    c.execute("continue")  # z[0] is written once by vsel (0.0) and once by vadds (100.0)
    assert s.finished


def test_register_watch_stops_when_the_register_changes():
    s, c = session()
    c.execute("watch $x2")
    out = c.execute("continue")
    assert out[0] == "watchpoint 1 ($x2) changed by line 16 (pc 6) add x2, x2, 64"
    assert out[1:3] == ["  old 0", "  new 64"]
    c.execute("continue")  # the second iteration's add
    assert c.execute("print $x2") == ["$x2 = 128"]
    back = c.execute("rcontinue")  # back to right after the first change
    assert back[0] == out[0]
    assert c.execute("print $x2") == ["$x2 = 64"]


# -- motion -----------------------------------------------------------------------------------

def test_finish_runs_to_the_end_of_the_api_statements_expansion():
    s, c = session(STATE)
    c.execute("break 19")
    c.execute("continue")
    c.execute("step 2")  # inside select.f32's expansion
    out = c.execute("finish")
    assert out[0] == "run till the end of line 19 (pc 5)"
    assert out[-2].startswith(f"{ROOT / STATE}:20: vcmp.gt.f32")


def test_until_without_argument_leaves_the_loop_from_its_last_line():
    s, c = session()
    c.execute("until 18")  # blt of the first iteration
    out = c.execute("until")
    assert out[-2].startswith(f"{ROOT / LOOP}:19: set_flag")
    assert c.execute("print $x1") == ["$x1 = 3"]


@pytest.mark.parametrize("program", [STATE, LOOP])
def test_backr_into_instructions_run_in_bulk_matches_a_run_split_into_repeats(program):
    """`continue` runs vector instructions in bulk; `backr` then re-runs each one repeat by
    repeat from its recorded pre-state: every point equals the one stepping by repeats made."""
    stepped, _ = session(program)
    states = [full_state(stepped)]
    while not stepped.finished:
        stepped.forward(stepped.steps_done(1, boundaries=False), by_repeat=True)
        states.append(full_state(stepped))
    bulk, c = session(program)
    c.execute("continue")
    assert len(bulk.hist.records) < len(states) - 1  # it did run in bulk
    assert full_state(bulk) == states[-1]
    for want in reversed(states[:-1]):
        c.execute("backr")
        assert full_state(bulk) == want
    for want in states[1:]:
        c.execute("stepr")
        assert full_state(bulk) == want


def test_continue_runs_in_bulk_and_stepr_at_the_newest_point_splits():
    s, c = session()
    c.execute("step 2")
    c.execute("continue")
    recs = s.hist.records
    vsel4 = [r for r in recs if r.instr.line == 11]
    assert len(vsel4) == 1 and vsel4[0].bulk and vsel4[0].repeats == 4
    s2, c2 = session()
    c2.execute("step 2")
    c2.execute("stepr")
    assert [r.repeat for r in s2.hist.records if r.instr.line == 11] == [0, 1, 2, 3]


# -- the undo log's size ----------------------------------------------------------------------

def test_undo_log_counts_what_its_records_hold():
    s, c = session()
    c.execute("continue")
    for rec in s.hist.records:
        data = sum(len(w.before) + len(w.after) for w in rec.writes)
        assert rec.nbytes >= data + sys.getsizeof(rec)
    assert s.hist.nbytes == sum(r.nbytes + 8 for r in s.hist.records)
    c.execute("backr 3")  # splitting keeps the account right
    assert s.hist.nbytes == sum(r.nbytes + 8 for r in s.hist.records)


# -- the front end ----------------------------------------------------------------------------

def test_ex_commands_run_first_and_batch_exits():
    r = cli(str(LOOP), "--ex", "break top", "--ex", "continue", "--ex", "print $x1", "--batch")
    assert r.returncode == 0, r.stderr
    got = [chunk.split("\n")[0] for chunk in r.stdout.split(PROMPT)[1:]]
    assert got == ["break top", "continue", "print $x1", ""]
    assert "$x1 = 0" in r.stdout
    bad = cli(str(LOOP), "--ex", "print nope", "--batch")
    assert bad.returncode == 1 and "error: no tensor 'nope'" in bad.stdout
    # without --batch the session goes on with standard input
    more = cli(str(LOOP), "--ex", "step", stdin="print $pc\n")
    assert more.returncode == 0 and "$pc = 1" in more.stdout


def test_output_dir_writes_the_outputs_of_a_finished_program(tmp_path):
    r = cli(str(LOOP), "--ex", "continue", "--batch", "--output-dir", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    got = np.load(tmp_path / "o" / "out.npy")
    assert got.tobytes() == pipev.run(ROOT / LOOP).outputs["out"].tobytes()
    r = cli(str(LOOP), "--ex", "step", "--batch", "--output-dir", str(tmp_path / "p"))
    assert r.returncode == 0 and not (tmp_path / "p").exists()
    assert "the program did not finish" in r.stderr


def test_werror_stops_at_a_warning_and_fails_the_session(tmp_path):
    prog = tmp_path / "w.vasm"
    prog.write_text(".chip ascend910b\n.ub z f32[64] = zeros\n    vadds.f32 z, z, 1.0, "
                    "repeat=0\n    nop\n    nop\n")
    plain = cli(str(prog), "--ex", "continue", "--batch")
    assert plain.returncode == 0 and "warning:" in plain.stdout
    r = cli(str(prog), "--ex", "continue", "--ex", "print $pc", "--batch", "--werror",
            "--output-dir", str(tmp_path / "o"))
    assert r.returncode == 1
    assert ": error: vadds.f32 with repeat=0 does nothing" in r.stdout
    assert "stopped: --werror makes that warning an error" in r.stdout
    assert "$pc = 1" in r.stdout
    assert not (tmp_path / "o").exists()


def test_completion_candidates():
    s, c = session()
    assert candidates(c, "wa") == ["watch"]
    assert candidates(c, "print o") == ["out"]
    assert candidates(c, "print $cm") == ["$cmpmask"]
    assert candidates(c, "break to") == ["top"]
    assert candidates(c, "info reg") == ["registers"]
    assert candidates(c, "print z[0] + $mask_") == ["$mask_hi", "$mask_lo"]


@pytest.mark.parametrize("term", ["xterm", "dumb"])  # prompt_toolkit; readline
def test_tab_completes_a_tensor_name_at_a_terminal_and_history_is_kept(tmp_path, term):
    env = dict(os.environ, TERM=term, COLUMNS="200", PROMPT_TOOLKIT_NO_CPR="1",
               XDG_CACHE_HOME=str(tmp_path))
    for attempt in range(2):  # the second session keeps the first one's history
        child = pexpect.spawn(sys.executable, ["-m", "simulator.cli", "debug", str(LOOP)],
                              cwd=str(ROOT), env=env, encoding="utf-8", timeout=30,
                              dimensions=(50, 200))
        try:
            prompt = "(pipev)"  # prompt_toolkit draws the space as a cursor move
            child.expect_exact("pc 0  cycle 0")
            child.expect_exact(prompt)  # keys typed before the prompt would meet a cooked tty
            if attempt == 0:
                child.send("step 3\r")
                child.expect_exact("pc 3")
                child.expect_exact(prompt)
                child.send("print ou\t")
                # Tab completed the tensor name: "out" on the screen, or (prompt_toolkit
                # redrawing only what changed) "ou", cursor and colour codes, then "t"
                child.expect(r"ou(\x1b\[[0-9;?]*[A-Za-z])*t")
                child.send("[0:2]\r")
                child.expect_exact("out[0:2] = [0. 0.]")
                child.expect_exact(prompt)
            else:  # Up twice: the first session's `print out[0:2]` (then its `quit`)
                child.send("\x1b[A")
                child.expect_exact("quit")
                child.send("\x1b[A")
                child.expect_exact("out[0:2]")  # (prompt_toolkit redraws only what changed)
                child.send("\r")
                child.expect_exact("out[0:2] = [0. 0.]")
                child.expect_exact(prompt)
            child.send("quit\r")
            child.expect(pexpect.EOF)
        finally:
            child.close()
        assert child.exitstatus == 0
    history = (tmp_path / "pipev" / "debug_history").read_text()
    assert "print out[0:2]" in history and "step 3" in history


def test_debugger_object_takes_the_new_commands():
    d = pipev.debug(ROOT / LOOP)
    d.execute("break 18 if $x1 == 2")
    d.execute("continue")
    assert d.execute("print $x1") == ["$x1 = 2"]
    assert d.evaluate("$x2") == 128
    assert d.evaluate("z[0:2]").tolist() == [100.0, 99.0]
    d.execute("backr")
    assert d.registers[1] == 1  # back over `add x1, x1, 1`


def test_debug_function_writes_a_transcript():
    out = io.StringIO()
    rc = debug(ROOT / LOOP, stdin=io.StringIO(""), out=out, ex=["print/x $mask_lo"],
               batch=True)
    assert rc == 0 and "$mask_lo = 0xffffffffffffffff" in out.getvalue()
