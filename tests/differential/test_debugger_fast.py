"""The debugger's fast `continue` (simulator/debugger/fast.py) against the reference path.

The same session is driven twice by the same commands — once with `continue` through the run's
plans, once with every motion on the reference path (`Session(fast=False)`) — and after every
command everything must be identical: its reply (stop messages, cycles, `info pipes`, `info
loops`, registers), the whole machine (UB, GM, MASK/CTRL, CMPMASK, flags, x registers), the
point (instruction, repeat inside it, cycle), the micro-op count, and every record of the undo
log (instruction, repeat, cycle figures, timing record, the bytes it overwrote, registers
around it). Backward motion after a fast `continue` (back, backr into a bulk record, rcontinue)
must land on identical state.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isa
from isa.diagnostics import AssemblyError
from simulator.debugger import CommandError, Commands, Session
from simulator.run import load_program
from tests.differential.test_fused import repeated_programs
from tests.differential.test_random_programs import SETTINGS

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests/data/debugger"

TIMING_FIELDS = ("pipe", "issue", "start", "end", "busy", "wait_flag", "wait_pipe", "head",
                 "fire", "wait_issue", "pad", "bank_extra", "issue_cost", "gm_wait")


def machine_state(s: Session) -> tuple:
    s.sync()
    m = s.machine
    inside = s.inside()
    return (m.ub.tobytes(), {k: v.tobytes() for k, v in m.gm.items()}, m.mask, m.counter,
            m.cmpmask.tobytes(), {k: v.pc for k, v in m.flags.items()}, list(m.x),
            s.index(), inside.repeat if inside is not None else None, s.cycle(), s.pos,
            s.uops, s.core, s.ex.steps, len(s.ex.diagnostics))


def timing_of(t) -> tuple | None:
    if t is None:
        return None
    beats = t.beats.tobytes() if t.beats is not None else None
    return tuple(getattr(t, f) for f in TIMING_FIELDS) + (beats,)


def log_of(s: Session) -> list[tuple]:
    """Every record of the undo log as the debugger reads it (the bytes a write left are
    taken only once it is undone on the fast path: the bytes it overwrote are compared)."""
    out = []
    for r in s.hist.records:
        ev = r.event
        out.append((r.index, r.instr.pc if r.instr is not None else None, r.repeat, r.repeats,
                    r.completes, r.next_index, r.end, r.cycle, r.bulk, r.label,
                    [(w.space, w.addr, w.before) for w in r.writes], r.regs_before,
                    r.regs_after, timing_of(r.timing),
                    ev.taken if ev is not None and r.instr.defn.family.kind == "control"
                    else None))
    return out


def drive(program, commands: list[str], fast: bool, **kw) -> list[tuple]:
    s = Session(program, fast=fast, **kw)
    c = Commands(s)
    out, loops = [], {}
    for cmd in commands:
        try:
            reply = c.execute(cmd)
        except CommandError as e:
            reply = ["error", str(e)]
        out.append((cmd, reply, machine_state(s), s.hist.first, s.hist.end))
        if s._fast is not None:  # one fast loop per core's executor
            loops[id(s._fast)] = s._fast
    out.append(("log", log_of(s)))
    if fast:
        planned.append(sum(loop.planned for loop in loops.values()))
    return out


planned: list[int] = []  # executions the last fast session recorded through plans


def same_both_ways(program, commands: list[str], **kw) -> list[tuple]:
    want = drive(program, commands, False, **kw)
    planned.clear()
    got = drive(program, commands, True, **kw)
    for g, w in zip(got, want, strict=True):
        if g != w:  # name the part that differs (the machine's bytes are long)
            parts = [k for k, (a, b) in enumerate(zip(g, w, strict=True)) if a != b]
            detail = [(k, _short(g[k]), _short(w[k])) for k in parts]
            pytest.fail(f"after {w[0]!r}: parts {detail} differ (fast, reference)")
    return got


def _short(v) -> str:
    if isinstance(v, tuple | list):
        return "[" + ", ".join(f"{k}: {str(a)[:200]}" for k, a in enumerate(v)) + "]"
    return str(v)[:300]


BACK_AND_FORTH = ["continue", "back 5", "backr 3", "stepr 2", "continue", "info pipes",
                  "info loops", "regs", "back 1000000", "continue", "rcontinue", "continue"]


@pytest.mark.parametrize("name", ["loop.vasm", "state.vasm"])
def test_the_debugger_kernels_step_back_identically(name):
    program = load_program(DATA / name)
    same_both_ways(program, BACK_AND_FORTH)
    same_both_ways(program, ["step 3", "continue", "back 4", "step", "continue",
                             "info pipes"])
    if name == "loop.vasm":  # its loop runs three times: the third iteration is planned
        assert planned[0] > 0


def test_a_long_loop_continues_and_steps_back_identically():
    text = (".chip ascend910b\n.ub x f32[1024] = random(1)\n.ub y f32[1024] = random(2)\n"
            ".ub m u8[128] = random(3)\n.ub z f32[1024]\n"
            "    set_cmpmask m\n    li x1, 0\n    li x2, 0\ntop:\n"
            "    vsel.f32 z, x, y, repeat=4\n"
            "    vadds.f32 z[x2], z[x2], 1.5, repeat=1\n"  # register-addressed: dynamic plans
            "    vcmpv.lt.f32 m, z, y, repeat=2\n"
            "    vcmp.gt.f32 x, z\n"  # writes CMPMASK: its register snapshot changes
            "    add x2, x2, 64\n    and x2, x2, 1023\n"
            "    add x1, x1, 1\n    blt x1, 200, top\n")
    program = isa.assemble(text)
    got = same_both_ways(program, BACK_AND_FORTH + ["back 37", "backr 5", "continue"])
    assert "program finished" in " ".join(got[0][1])
    assert planned[0] > 1000  # nearly all of the 1,600 instructions ran through plans


def test_breakpoints_and_watchpoints_stop_where_the_reference_path_stops():
    text = (".chip ascend910b\n.ub x f32[512] = random(1)\n.ub y f32[512] = random(2)\n"
            ".ub m u8[64] = random(3)\n.ub z f32[512]\n.ub w f32[64]\n"
            "    set_cmpmask m\n    li x1, 0\ntop:\n"
            "    vsel.f32 z, x, y, repeat=8\n"
            "    vadds.f32 x, x, 1.0, repeat=8\n"
            "    vadd.f32 w, w, x, repeat=1\n"  # line 12: the watched tensor's writer
            "    add x1, x1, 1\n"  # line 13
            "    blt x1, 50, top\n")
    program = isa.assemble(text)
    same_both_ways(program, ["break 13 if $x1 == 7", "continue", "continue", "back 3",
                             "continue", "delete", "tbreak 12", "continue", "continue"])
    same_both_ways(program, ["step 4", "break 11", "ignore 1 5", "continue", "continue",
                             "delete 1", "watch w[3]", "continue", "continue", "back 2",
                             "continue", "delete", "watch z[200]", "continue", "info break",
                             "delete", "continue", "back 100", "until 13", "advance 11",
                             "continue"])
    assert planned[0] > 100
    # a cycle breakpoint and a register watch keep continue on the reference path
    same_both_ways(program, ["break cycle 900", "continue", "delete", "watch $x1",
                             "continue", "continue", "delete", "continue", "rcontinue"])


def test_a_fault_in_a_planned_instruction_stops_identically():
    text = (".chip ascend910b\n.ub x f32[16384] = random(1)\n.ub y f32[64] = random(2)\n"
            "    li x1, 0\n    li x3, 250\ntop:\n"
            "    vadds.f32 y, y, 2.0, repeat=1\n"  # planned just before the fault: it stays
            "    vadds.f32 x, x, 1.0, repeat=x3\n"  # its plan reads repeat: 256 is an error
            "    add x3, x3, 1\n"
            "    add x1, x1, 1\n    blt x1, 100, top\n")
    program = isa.assemble(text)
    got = same_both_ways(program, ["continue", "back 3", "continue", "continue", "back 1000"])
    assert "repeat=256 is out of range" in " ".join(got[0][1]) and planned[0] > 5


def test_max_steps_stops_identically():
    program = load_program(DATA / "spin.vasm")
    got = same_both_ways(program, ["continue", "back 2", "continue"], max_steps=5_000)
    assert "max-steps" in " ".join(got[0][1]) and planned[0] > 4_000


def test_every_core_of_a_launch_continues_identically():
    text = (".chip ascend910b\n.block_dim 3\n.gm a f32[768] input = random(1)\n"
            ".gm out f32[768] output\n.ub x f32[256]\n"
            "    mul x3, block_idx, 1024\n"
            "    copy_gm_to_ub x, a[x3], nburst=1, burst=32\n"
            "    set_flag MTE2, V, 0\n    wait_flag MTE2, V, 0\n    li x1, 0\ntop:\n"
            "    vadds.f32 x, x, 1.0, repeat=4\n    add x1, x1, 1\n    blt x1, 30, top\n"
            "    set_flag V, MTE3, 0\n    wait_flag V, MTE3, 0\n"
            "    copy_ub_to_gm out[x3], x, nburst=1, burst=32\n")
    program = isa.assemble(text)
    same_both_ways(program, ["continue", "info cores", "back 10", "continue", "core 1",
                             "continue", "back 4", "continue"])
    assert planned[0] > 50


@settings(SETTINGS, max_examples=60)
@given(repeated_programs(), st.integers(1, 40))
def test_random_programs_continue_and_step_back_identically(text, back):
    try:
        program = isa.assemble(text)
    except AssemblyError:
        return
    same_both_ways(program, ["continue", f"back {back}", "backr 2", "continue", "rcontinue",
                             "continue"])


def test_mask_writers_in_a_loop_step_back_identically():
    """MASK/CTRL writers (which `pipev run` plans) take the reference path in a session: the
    vector instructions around them still run through plans."""
    text = (".chip ascend910b\n.ub x f32[1024] = random(1)\n.ub y f32[1024] = random(2)\n"
            "    li x1, 0\ntop:\n"
            "    set_vector_mask 0, 0xffff\n"
            "    vadds.f32 x, x, 1.0, repeat=2\n"
            "    set_vector_mask 0xffffffffffffffff, 0xffffffffffffffff\n"
            "    vadd.f32 y, x, y, repeat=2\n"
            "    set_vector_mask 0xffffffffffffffff, 0xffffffffffffffff\n"  # MASK as it was
            "    vmuls.f32 y, y, 0.5, repeat=2\n"
            "    add x1, x1, 1\n    blt x1, 60, top\n")
    program = isa.assemble(text)
    same_both_ways(program, BACK_AND_FORTH + ["back 9", "backr 1", "continue"])
    assert planned[0] > 100
