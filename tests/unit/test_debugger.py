"""`pipev debug` (docs/format.md §13): scripted sessions covering every command, exact reverse
execution, and a real pseudo-terminal session typed as a person would."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pexpect
import pytest

import simulator
from simulator.debugger import PROMPT, Commands, Session, debug
from simulator.executor import Executor
from simulator.machine import Machine
from simulator.run import gm_arrays, load_program
from simulator.sources import ProgramSource
from tests.support.signals import ctrl_c_live

DATA = Path(__file__).resolve().parents[1] / "data" / "debugger"
LOOP = DATA / "loop.vasm"
STATE = DATA / "state.vasm"
SPIN = DATA / "spin.vasm"
ROOT = Path(__file__).resolve().parents[2]


def transcript(program: Path, *commands: str, **kw) -> str:
    """The session's output for COMMANDS read from a pipe (not a terminal)."""
    out = io.StringIO()
    rc = debug(program, stdin=io.StringIO("".join(c + "\n" for c in commands)), out=out, **kw)
    assert rc == 0
    return out.getvalue()


def replies(text: str) -> list[tuple[str, list[str]]]:
    """(command, output lines) for each prompt of a transcript."""
    out = []
    for chunk in text.split(PROMPT)[1:]:
        lines = chunk.split("\n")
        out.append((lines[0], [x for x in lines[1:] if x]))
    return out


def reply(text: str, k: int) -> str:
    return "\n".join(replies(text)[k][1])


def session(program: Path = LOOP) -> Session:
    return Session(load_program(program))


def ub_bytes(s: Session, name: str) -> bytes:
    s.sync()
    t = s.program.tensors[name]
    return s.machine.ub[t.addr:t.addr + t.nbytes].tobytes()


def full_state(s: Session) -> tuple:
    """Everything reverse execution must restore, compared as bytes and integers."""
    s.sync()
    m = s.machine
    inside = s.inside()
    return (m.ub.tobytes(), {k: v.tobytes() for k, v in m.gm.items()}, m.mask_hi, m.mask_lo,
            m.counter, m.cmpmask.tobytes(), dict(m.flags), list(m.x), s.index(),
            inside.repeat if inside is not None else None)


def one_uop(s: Session) -> None:
    s.forward(s.steps_done(1, boundaries=False), by_repeat=True)


# -- input sources, echo, repeat, quit --------------------------------------------------------

def test_commands_file_echoes_each_command_and_exits_at_its_end(tmp_path):
    cmds = tmp_path / "cmds.txt"
    cmds.write_text("break top\ncontinue\nregs\n")
    r = subprocess.run([sys.executable, "-m", "simulator.cli", "debug", str(LOOP), "--commands",
                        str(cmds)], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    got = replies(r.stdout)
    assert [c for c, _ in got] == ["break top", "continue", "regs", ""]
    assert got[1][1][0] == "breakpoint 1, label top (line 15)"
    assert got[1][1][1].startswith(f"{LOOP}:15: vadds.f32")


def test_stdin_that_is_not_a_terminal_is_read_and_echoed():
    r = subprocess.run([sys.executable, "-m", "simulator.cli", "debug", str(LOOP)],
                       input="step 2\nquit\nstep\n", capture_output=True, text=True, timeout=60,
                       cwd=ROOT)
    assert r.returncode == 0, r.stderr
    got = replies(r.stdout)
    assert [c for c, _ in got] == ["step 2", "quit"]  # quit ends the session
    assert got[0][1][0] == f"{LOOP}:11: vsel.f32       z, x, y, repeat=4           " \
        "; z = cmpmask ? x : y, four repeats"
    assert got[0][1][1] == "  pc 2  cycle " + got[0][1][1].split("cycle ")[1]


def test_every_stop_prints_path_line_source_then_pc_and_cycle():
    text = transcript(LOOP, "step", "stepr", "stepr")
    for _, lines in replies(text)[:3]:
        assert re.fullmatch(rf"{re.escape(str(LOOP))}:\d+: \S.*", lines[-2])
        assert re.match(r"  pc \d+  cycle \d+", lines[-1])
    # inside an instruction the repeat is shown too
    s = transcript(LOOP, "break 11", "continue", "stepr", "stepr")
    last = replies(s)[3][1]
    assert last[-2].startswith(f"{LOOP}:11: vsel.f32")
    assert re.fullmatch(r"  pc 2  cycle \d+  repeat 1 of 4 done  in vsel\.f32 z, x, y, "
                        r"repeat=4, mode=0", last[-1])


def test_empty_line_repeats_the_last_command():
    text = transcript(LOOP, "stepr", "", "")
    pcs = [lines[-1].split()[1] for _, lines in replies(text)[:3]]
    assert pcs == ["1", "2", "2"]  # pc 2 has four repeats: the third stepr is inside it
    assert "repeat 0 of 4 done" in reply(text, 2)


def test_bad_commands_print_one_line_and_the_session_goes_on():
    text = transcript(LOOP, "frobnicate", "break nowhere", "step -1", "x/abc z", "print q",
                      "watch @0x7 0", "until nowhere", "delete 9", "info", "back 0",
                      "print z[1:2:x]", "break pc 99", "step")
    got = replies(text)
    for cmd, lines in got[:12]:
        assert len(lines) == 1 and lines[0].startswith("error: "), (cmd, lines)
    assert got[12][1][-1].startswith("  pc 1")


def test_help_covers_every_command():
    text = transcript(LOOP, "help", "help x", "help rc", "help nope")
    listing = reply(text, 0)
    for name in ("break", "delete", "info", "step", "stepr", "continue", "run", "until", "back",
                 "rcontinue", "regs", "x[/COUNT]", "print", "watch", "list", "help", "quit"):
        assert re.search(rf"^{re.escape(name)}[ \[]", listing, re.M), name
    assert reply(text, 1).startswith("x[/COUNT] [TYPE] ADDR|NAME[I]")
    assert reply(text, 2).startswith("rcontinue")
    assert reply(text, 3).startswith("error: no command 'nope'")


# -- breakpoints ------------------------------------------------------------------------------

def test_break_on_a_label_inside_a_loop_stops_on_every_iteration():
    text = transcript(LOOP, "break top", "continue", "print x1", "continue", "print x1",
                      "continue", "print x1", "info loops", "continue", "info break")
    got = replies(text)
    for k, want in ((1, 0), (3, 1), (5, 2)):
        assert got[k][1][0] == "breakpoint 1, label top (line 15)"
        assert got[k + 1][1] == [f"x1 = {want} ({want:#x})"]
    assert got[7][1][0].startswith("innermost loop: lines 15-18 (blt at line 18, pc 8): "
                                   "iteration 3 (2 backward branches taken)")
    assert got[8][1][0].startswith("program finished")
    assert got[9][1][1].split()[-1] == "3"  # hits


def test_break_on_line_and_pc_and_until():
    text = transcript(LOOP, "break 14", "break pc 9", "continue", "continue", "run", "delete",
                      "until 18", "until 21", "list")
    got = replies(text)
    assert got[0][1] == ["breakpoint 1 at line 15, pc 5 (line 14 has no statement)"]
    assert got[1][1] == ["breakpoint 2 at pc 9, line 19"]
    assert got[2][1][0] == "breakpoint 1, line 15"
    assert got[3][1][0] == "breakpoint 1, line 15"  # the second iteration comes first
    assert got[4][1][:2] == ["restarted", "breakpoint 1, line 15"]
    assert got[6][1][-1].startswith("  pc 8 ")
    assert got[7][1][-1].startswith("  pc 11 ")
    listing = got[8][1]
    assert any(line.startswith(" =>   21  ") for line in listing)


def test_break_by_cycle_stops_after_the_first_micro_op_reaching_it():
    s = session(STATE)
    cycles, states = [], []
    while not s.finished:
        one_uop(s)
        cycles.append(s.cycle())
        states.append(full_state(s))
    target = cycles[len(cycles) // 2]
    first = next(k for k, c in enumerate(cycles) if c >= target)
    text = transcript(STATE, f"break cycle {target}", "continue", "continue", "run")
    got = replies(text)
    assert got[1][1][0].startswith(f"breakpoint 1: cycle {target} reached")
    assert f"cycle {cycles[first]}" in got[1][1][-1]
    assert got[2][1][0].startswith("program finished")  # once per pass
    assert got[3][1][1].startswith(f"breakpoint 1: cycle {target} reached")
    # the same point as micro-op `first`, though the run went in bulk up to there
    s2 = session(STATE)
    s2.add(kind="cycle", what="", cycle=target)
    s2.forward(lambda rec: False)
    assert full_state(s2) == states[first]


# -- stepping ---------------------------------------------------------------------------------

def test_step_counts_instructions_and_stepr_counts_micro_ops():
    s = session()
    Commands(s).execute("step 2")
    assert s.index() == 2 and s.inside() is None
    Commands(s).execute("stepr 3")
    assert s.index() == 2 and s.inside().repeat == 2
    Commands(s).execute("step")  # finishes the instruction already begun
    assert s.index() == 3 and s.inside() is None
    Commands(s).execute("back")
    assert s.index() == 2 and s.inside() is None
    Commands(s).execute("back 2")
    assert s.index() == 0


def test_api_statement_steps_through_its_expansion():
    text = transcript(STATE, "break 19", "continue", "step", "step 5")
    got = replies(text)
    assert got[1][1][-1].endswith("next set_mask_norm (1 of 9)")
    assert got[2][1][-1].endswith("next set_vector_mask 0, 255 (2 of 9)")
    assert got[3][1][-1].endswith("next vsel.f32 z, x, y, repeat=1, mode=2 (7 of 9)")
    assert all(lines[-2].startswith(f"{STATE}:19: select.f32") for _, lines in got[1:4])


# -- reverse execution ------------------------------------------------------------------------

def test_back_over_vsel_that_overwrote_its_own_source_restores_it_exactly():
    s = session()
    c = Commands(s)
    before_x = ub_bytes(s, "x")
    c.execute("step 2")  # set_cmpmask, then vsel x, x, y (dst = src0)
    after_x = ub_bytes(s, "x")
    assert after_x != before_x
    assert np.frombuffer(after_x, np.float32)[1] == -1.0  # x[1] took y[1]
    c.execute("back")
    assert ub_bytes(s, "x") == before_x
    # through the REPL as well: print shows the original values again
    text = transcript(LOOP, "step 2", "print x[0:4]", "back", "print x[0:4]")
    assert reply(text, 1) == "x[0:4] = [ 0. -1.  2. -1.]"
    assert reply(text, 3) == "x[0:4] = [0. 1. 2. 3.]"


def test_reverse_restores_every_piece_of_state_exactly_at_every_micro_op():
    s = session(STATE)
    states = [full_state(s)]
    while not s.finished:
        one_uop(s)
        states.append(full_state(s))
    assert len(states) > 40
    for want in reversed(states[:-1]):
        s.backward(lambda rec: True)
        assert full_state(s) == want
    for want in states[1:]:  # and forward again, now replayed from the log
        one_uop(s)
        assert full_state(s) == want


def test_debugger_runs_the_same_executor_as_pipev_run():
    """Instruction by instruction the debugger's machine equals a plain executor's; the outputs
    equal simulator.run's."""
    program = load_program(STATE)
    plain = Executor(Machine(program.chip, gm_arrays(program, None), program),
                     ProgramSource(program))
    s = Session(program)
    while not plain.done:
        plain.step()
        s.forward(s.steps_done(1, boundaries=True))
        s.sync()
        assert s.machine.ub.tobytes() == plain.m.ub.tobytes()
        assert s.machine.x == plain.m.x and s.machine.mask == plain.m.mask
        assert s.machine.cmpmask.tobytes() == plain.m.cmpmask.tobytes()
    assert s.finished
    result = simulator.run(STATE)
    for name, arr in result.outputs.items():
        assert s.machine.gm[name].tobytes() == arr.tobytes()


def test_rcontinue_stops_at_breakpoints_watchpoints_and_the_start():
    text = transcript(LOOP, "continue", "break top", "rcontinue", "rcontinue", "delete",
                      "watch z[0:1]", "rcontinue", "delete", "rcontinue", "rcontinue")
    got = replies(text)
    assert got[2][1][0] == "breakpoint 1, label top (line 15)"
    assert got[3][1][0] == "breakpoint 1, label top (line 15)"
    assert got[2][1][-1] != got[3][1][-1]  # an earlier iteration: the cycle differs
    watch = got[6][1]
    assert watch[0].startswith("watchpoint 2 (z[0:1]) written by line 15 (pc 5) vadds.f32")
    assert watch[1] == "  old [0.0]" and watch[2] == "  new [100.0]"
    assert got[8][1][0] == "reached the start of the program"
    assert got[9][1][0] == "reached the start of the program"


def test_history_is_bounded_by_what_was_written():
    s = session()
    Commands(s).execute("step 2")
    rec = s.record()
    assert sum(len(w.before) for w in rec.writes) == 256  # vsel f32 repeat 1: 256 bytes
    small = Session(load_program(STATE), history_bytes=20_000)
    small.forward(lambda rec: False)
    assert small.hist.first > 0 and small.hist.nbytes <= 20_000 + 16_384
    stop = small.backward(lambda rec: False)
    assert stop.message == "reached the oldest point still in the history"
    assert small.hist.boundary(small.pos)


# -- watchpoints ------------------------------------------------------------------------------

def test_watchpoint_hit_inside_the_third_repeat_of_an_instruction():
    text = transcript(LOOP, "watch z[150:152]", "continue", "print z[148:152]")
    got = replies(text)
    assert got[0][1] == ["watchpoint 1: z[150:152] (UB bytes 0xa78..0xa7f)"]
    hit = got[1][1]
    assert hit[0] == ("watchpoint 1 (z[150:152]) written by line 11 (pc 2) vsel.f32 z, x, y, "
                      "repeat=4, mode=0, repeat 2, block 2")
    assert hit[1] == "  old [0.0 0.0]"
    assert hit[2] == "  new [150.0 -1.0]"
    assert re.fullmatch(r"  pc 2  cycle \d+  repeat 2 of 4 done  in vsel\.f32 z, x, y, "
                        r"repeat=4, mode=0", hit[-1])
    # the machine is right after repeat 2: repeats 0-2 written, repeat 3 not yet
    s = session()
    s.add(kind="watch", what="z", space=None, lo=s.program.tensors["z"].addr + 600,
          hi=s.program.tensors["z"].addr + 608)
    s.forward(lambda rec: False)
    z = np.frombuffer(ub_bytes(s, "z"), np.uint32)
    assert z[192:].tobytes() == bytes(256) and z[128:192].any()


def test_watch_by_address_and_on_a_gm_tensor():
    z = load_program(LOOP).tensors["z"].addr
    text = transcript(LOOP, f"watch @{z + 64 * 4:#x} 4", "continue", "watch out[1:3]",
                      "delete 1", "continue", "info break", "x/2 out[1]")
    got = replies(text)
    assert got[1][1][0].startswith("watchpoint 1 (@") and "repeat 1, block 0" in got[1][1][0]
    assert got[1][1][1] == "  old [0x00 0x00 0x00 0x00]"
    assert got[4][1][0] == ("watchpoint 2 (out[1:3]) written by line 21 (pc 11) copy_ub_to_gm "
                            "out, z, nburst=1, burst=32, burst 0, block 0")
    assert got[4][1][2] == "  new [99.0 102.0]"
    assert got[5][1][1].split() == ["2", "watchpoint", "y", "out[1:3]", "1"]
    assert got[6][1][0].split() == ["out+4", "out[1]:", "99.0", "102.0"]


# -- inspection -------------------------------------------------------------------------------

def test_regs_shows_mask_cmpmask_mode_flags_cycle_pc_and_registers():
    text = transcript(STATE, "break 33", "continue", "regs", "until 34", "regs")
    regs = replies(text)[2][1]
    assert regs[0] == "MASK      hi 0xffffffffffffffff  lo 0xffffffffffffffff"
    assert regs[1] == "mode      norm"
    assert re.fullmatch(r"CMPMASK   0x[0-9a-f]{32}", regs[2])
    assert re.fullmatch(r"cycle     \d+", regs[3])
    assert regs[4] == "pc        18 (line 33)"
    assert regs[5] == "flags     V->MTE3 id 1 (set at pc 17)"
    assert regs[6] == "x         x3=4  x4=256 (0x100)"
    assert replies(text)[4][1][5] == "flags     none set"


def test_regs_shows_counter_mode_and_mask_inside_an_api_select():
    s = session(STATE)
    c = Commands(s)
    c.execute("break 19")
    c.execute("continue")
    c.execute("step 6")
    regs = c.execute("regs")
    assert regs[0] == "MASK      hi 0x0000000000000000  lo 0x0000000000000100"
    assert regs[1] == "mode      count"


def test_x_dumps_typed_values_from_ub():
    text = transcript(LOOP, "step 3", "x/16 f32 z", "x/4 u16 @0x800", "x m", "x/2 s32 z[64]",
                      "x/300 f32 @0x2ff00")
    got = replies(text)
    z = load_program(LOOP).tensors["z"].addr
    rows = got[1][1]
    assert len(rows) == 2
    assert rows[0].split()[:3] == [f"{z:#07x}", "z[0]:", "0.0"]
    assert rows[0].split()[3] == "-1.0" and rows[1].split()[1] == "z[8]:"
    assert got[2][1] == ["0x00800 @0x800:    21845  21845  21845  21845"]
    assert got[3][1][0].split()[2:4] == ["85", "85"]  # m holds 0x55 bytes, shown as u8
    assert got[4][1][0].split()[1:] == ["z[64]:", "1115684864", "-1082130432"]
    assert got[5][1] == ["error: 300 f32 from 0x2ff00 run past UB (196608 bytes)"]


def test_print_formats_like_numpy():
    s = session()
    Commands(s).execute("step 3")
    z = np.frombuffer(ub_bytes(s, "z"), np.float32)
    out = Commands(s).execute("print z[60:70]")
    assert out == ("z[60:70] = " + np.array2string(z[60:70], prefix="z[60:70] = ")).split("\n")
    assert Commands(s).execute("print z[2]") == [f"z[2] = {z[2]}"]
    big = Commands(s).execute("print z")
    assert big[0].startswith("z = [") and "..." not in "".join(big)


def test_info_pipes_shows_queues_busy_until_and_pending_flags():
    text = transcript(STATE, "break 17", "continue", "info pipes", "info loops")
    pipes = replies(text)[2][1]
    assert pipes[0].startswith("S last issued at cycle 2; cycle ")
    names = [line.split()[0] for line in pipes[1:5]]
    assert names == ["S", "V", "MTE2", "MTE3"]
    mte2 = pipes[3]
    assert "busy-until" in mte2 and "queued 3" in mte2 and "copy_gm_to_ub" in mte2
    assert any(line.startswith("  MTE2->V id 0: set at line 16, fires at cycle") for line in pipes)
    assert any(line.startswith("timing model") for line in pipes)
    assert replies(text)[3][1][0] == "pc 3 is not inside a loop"


def test_info_pipes_after_going_back_reports_that_point():
    s = session(STATE)
    c = Commands(s)
    c.execute("continue")
    at_end = c.execute("info pipes")
    c.execute("rcontinue")
    at_start = c.execute("info pipes")
    assert at_start[0] == "the timing model reported no per-instruction figures up to here"
    assert any("micro-ops ahead" in line for line in at_start)
    assert at_end[0].startswith("S last issued at cycle")


def test_program_errors_are_shown_and_back_leaves_them(tmp_path):
    bad = tmp_path / "bad.vasm"
    bad.write_text(".chip ascend910b\n.ub z f32[64] = zeros\n    li x1, 8\n"
                   "    vadds.f32 @x1, z, 1.0, repeat=1\n")
    text = transcript(bad, "continue", "step", "back", "print x1", "run")
    got = replies(text)
    assert got[0][1][0] == (f"{bad}:4:15: error: vadds.f32 dst address 0x8 (x1 = 0x8) is not "
                            "32-byte aligned (vector operands must be 32-byte aligned)")
    assert got[1][1][0] == got[0][1][0]
    assert got[2][1][-1].startswith("  pc 0 ")
    assert got[3][1] == ["x1 = 0 (0x0)"]
    assert got[4][1][1] == got[0][1][0]


def test_load_errors_exit_1_without_a_session(tmp_path):
    bad = tmp_path / "broken.vasm"
    bad.write_text("    vsel.f32 nowhere, x, y\n")
    r = subprocess.run([sys.executable, "-m", "simulator.cli", "debug", str(bad)],
                       input="", capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert re.match(rf"{re.escape(str(bad))}:1:\d+: error: ", r.stderr)
    assert PROMPT not in r.stdout
    r = subprocess.run([sys.executable, "-m", "simulator.cli", "debug", str(LOOP), "--chip",
                        "nope"], input="", capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 2


def test_executor_hook_is_off_unless_a_debugger_attaches():
    program = load_program(LOOP)
    ex = Executor(Machine(program.chip, gm_arrays(program, None), program),
                  ProgramSource(program))
    assert ex._before == [] and not ex.split_repeats
    s = Session(program)
    assert s.ex._before and not s.ex.split_repeats  # bulk unless stepping by repeats
    s.recorder.split = True
    assert s.ex.split_repeats


# -- a real terminal --------------------------------------------------------------------------

def _spawn(program: Path) -> pexpect.spawn:
    env = dict(os.environ, TERM="dumb", COLUMNS="200")
    child = pexpect.spawn(sys.executable, ["-m", "simulator.cli", "debug", str(program)],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=30,
                          dimensions=(50, 200), preexec_fn=ctrl_c_live)
    child.expect_exact(PROMPT)
    return child


def test_terminal_session_typed_by_a_person():
    child = _spawn(LOOP)
    try:
        child.sendline("break top")
        child.expect_exact("breakpoint 1 at label top: line 15, pc 5")
        child.expect_exact(PROMPT)
        child.sendline("continue")
        child.expect_exact(f"{LOOP}:15: vadds.f32")
        child.expect_exact(PROMPT)
        child.sendline("")  # an empty line repeats `continue`
        child.expect_exact("breakpoint 1, label top (line 15)")
        child.expect_exact(PROMPT)
        child.sendline("print x1")
        child.expect_exact("x1 = 1 (0x1)")
        child.expect_exact(PROMPT)
        child.sendline("back")
        child.expect(r"pc 8  cycle \d+")
        child.expect_exact(PROMPT)
        screen = child.before
        child.sendline("regs")
        child.expect_exact(PROMPT)
        screen = child.before
        # typed commands are echoed once, by the terminal, not again by the debugger
        assert screen.count("regs") == 1
        assert "x         x1=1  x2=64 (0x40)" in screen
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_ctrl_c_during_continue_returns_to_the_prompt():
    child = _spawn(SPIN)
    try:
        child.sendline("continue")
        time.sleep(1.0)
        child.sendintr()
        child.expect_exact("interrupted")
        child.expect(r"pc \d+  cycle \d+")
        child.expect_exact(PROMPT)
        child.sendline("print x1")
        child.expect(r"x1 = (\d+) ")
        assert int(child.match.group(1)) > 10  # it ran, and stopped long before the end
        child.expect_exact(PROMPT)
        child.sendintr()  # at the prompt Ctrl-C only clears the line
        child.expect_exact(PROMPT)
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("cmd", ["x/4 f32 z", "list", "info break", "info loops"])
def test_inspection_commands_leave_the_position_alone(cmd):
    s = session()
    c = Commands(s)
    c.execute("stepr 4")
    before = full_state(s)
    c.execute(cmd)
    assert full_state(s) == before


def test_inputs_and_chip_options_reach_the_session(tmp_path):
    a = (np.arange(256, dtype=np.float32) * 0.5)
    np.save(tmp_path / "a.npy", a)
    cmds = tmp_path / "cmds.txt"
    cmds.write_text("step\nprint x[0:4]\n")
    r = subprocess.run([sys.executable, "-m", "simulator.cli", "debug", str(STATE), "--input",
                        f"a={tmp_path / 'a.npy'}", "--commands", str(cmds), "--chip",
                        "ascend910b", "--checks", "warn"],
                       capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert reply(r.stdout, 1) == "x[0:4] = [0.  0.5 1.  1.5]"
    bad = subprocess.run([sys.executable, "-m", "simulator.cli", "debug", str(STATE), "--input",
                          "nope=x.npy"], input="", capture_output=True, text=True, timeout=60,
                         cwd=ROOT)
    assert bad.returncode == 1
    assert bad.stderr.startswith(f"{STATE}:1:1: error: --input nope: the program declares no")


def test_finish_reports_the_figures_pipev_run_reports():
    result = simulator.run(LOOP)
    text = transcript(LOOP, "continue", "back 3", "continue")
    want = (f"program finished: {result.instructions} instructions, {result.uops} micro-ops, "
            f"cycle {result.cycles}")
    assert reply(text, 0).split("\n")[0] == want
    assert reply(text, 2).split("\n")[0] == want  # replayed from the log, same figures
