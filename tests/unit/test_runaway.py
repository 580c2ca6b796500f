"""A loop that can never end is reported at its branch once a probe has watched one pass of it
come back unchanged (simulator/runaway.py), in both loops and under the debugger's stepping;
a loop whose pass changes a register, reads memory into one, or is longer than a probe
watches, runs on as before (to its end, or to --max-steps)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import simulator
from isa.diagnostics import AssemblyError
from simulator import runaway
from simulator.cli import main
from simulator.errors import SimulationError

HEAD = ".chip ascend910b\n.ub x f32[64] = random(1)\n.ub y f32[64] = random(2)\n" \
       ".ub z f32[64]\n.ub w u32[8] = zeros\n"
# a tiled loop whose `add x1, x1, 64` went missing: x1 stays 0, so `blt` always jumps back
STUCK = HEAD + """    li   x1, 0
    li   x2, 256
tile:
    vadd.f32 z, x[x1], y
    set_flag V, MTE3, 0
    wait_flag V, MTE3, 0
    blt  x1, x2, tile
"""
STUCK_BRANCH = 12  # the `blt` line


def error_of(text: str, **kw):
    with pytest.raises((SimulationError, AssemblyError)) as e:
        simulator.run(text, **kw)
    return next(d for d in e.value.diagnostics if d.severity == "error")


@pytest.mark.parametrize("fast", [True, False])
def test_a_loop_that_never_ends_fails_at_its_branch_at_the_first_probe(fast, monkeypatch):
    steps = []
    real = runaway.LoopProbe.at
    monkeypatch.setattr(runaway.LoopProbe, "at", lambda self, instr, index, step: (
        steps.append(step), real(self, instr, index, step))[1])
    d = error_of(STUCK, fast=fast)
    assert (d.line, d.column) == (STUCK_BRANCH, 5), d
    assert d.message.startswith("this loop never ends: each pass comes back with every "
                                "register as it was (x1 = 0, x2 = 256) and nothing in it reads "
                                "memory into a register"), d.message
    assert d.message.endswith("(on the chip the core hangs here)"), d.message
    # the probe's first look, then one pass of four instructions: no --max-steps run
    assert steps[0] == runaway.FIRST_PROBE and len(steps) == 5, steps


def test_both_loops_and_the_command_line_say_the_same(tmp_path: Path):
    fast, ref = error_of(STUCK), error_of(STUCK, fast=False)
    assert (fast.line, fast.column, fast.message) == (ref.line, ref.column, ref.message)
    prog = tmp_path / "stuck.vasm"
    prog.write_text(STUCK)
    for cmd in (["run", str(prog), "--output-dir", str(tmp_path / "o")], ["check", str(prog)]):
        r = CliRunner().invoke(main, cmd)
        assert r.exit_code == 1, r.output
        assert r.stderr.startswith(f"{prog}:{STUCK_BRANCH}:5: error: this loop never ends"), \
            r.stderr
        assert "Traceback" not in r.stderr
    assert not (tmp_path / "o").exists()  # (a failed run writes no outputs)


def test_a_loop_whose_counter_moves_runs_past_the_probes_to_its_end():
    text = HEAD + "    li x1, 0\nl:  vadd.f32 z, x, y\n    add x1, x1, 1\n" \
        "    blt x1, 50000, l\n"  # 150,001 steps: two probes, each seeing x1 move
    for fast in (True, False):
        r = simulator.run(text, fast=fast, timing=False)
        assert r.instructions == 1 + 3 * 50000 and r.registers[1] == 50000


def test_a_pass_that_loads_a_register_from_memory_is_not_called_endless():
    # the same path every pass, but through a load: data could end it (here it never does)
    text = HEAD + "    li x1, 0\nl:  ld.u32 x3, w\n    blt x1, 1, l\n"
    d = error_of(text, max_steps=200_000)
    assert d.message.startswith("--max-steps 200000 reached"), d.message


def test_a_pass_longer_than_a_probe_watches_is_not_looked_at(monkeypatch):
    monkeypatch.setattr(runaway, "PROBE_STEPS", 3)  # STUCK's pass is four steps
    d = error_of(STUCK, max_steps=300_000)
    assert d.message.startswith("--max-steps 300000 reached"), d.message


def test_a_pass_that_changes_mask_or_a_flag_set_is_not_called_endless():
    # MASK alternates between passes, so no pass comes back to the state it started from
    text = HEAD + "    li x1, 0\n    li x2, 1\nl:  set_vector_mask 0, x2\n" \
        "    xor x2, x2, 3\n    vadd.f32 z, x, y\n    blt x1, 1, l\n"
    d = error_of(text, max_steps=200_000)
    assert d.message.startswith("--max-steps 200000 reached"), d.message


def test_steps_going_back_start_the_probe_afresh():
    """A debugger stepping back returns to the probe's first instruction with the state it had
    then: that is no pass, and the probe starts again from there."""
    from isa import assemble
    from simulator.machine import Machine
    from simulator.semantics import BUILTIN
    from simulator.sources import ProgramSource

    prog = assemble(STUCK)
    src = ProgramSource(prog)
    m = Machine(prog.chip, {}, prog)
    probe = runaway.LoopProbe(m, BUILTIN)
    flat = src.flat
    first = next(i for i, ins in enumerate(flat) if ins.text.startswith("vadd"))
    assert probe.at(flat[first], first, 100) is None
    assert probe.at(flat[first + 1], first + 1, 101) is None
    assert probe.at(flat[first], first, 100) is None  # back a step: afresh, not a pass
    for k, step in ((1, 101), (2, 102), (3, 103)):
        assert probe.at(flat[first + k], first + k, step) is None
    assert probe.at(flat[first], first, 104) is not None  # a pass: found
    assert probe.closing is flat[first + 3]
