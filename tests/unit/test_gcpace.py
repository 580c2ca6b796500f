"""simulator/gcpace.py: a run collects the youngest generation less often, and leaves the
caller's collector as it found it."""

from __future__ import annotations

import gc
import weakref

import pytest

import isa
import pipev
from simulator.gcpace import RUN_THRESHOLD, paced_collections

PROGRAM = """.chip ascend910b
.ub x f32[64] = random(1)
    vadd.f32 x, x, x
"""


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


class Seen(pipev.Observer):
    def __init__(self):
        self.thresholds = []

    def on_event(self, event):
        self.thresholds.append(gc.get_threshold())


def test_a_run_paces_the_collector_and_restores_it(thresholds):
    gc.set_threshold(700, 9, 8)
    seen = Seen()
    pipev.run(PROGRAM, observers=[seen])
    assert seen.thresholds and set(seen.thresholds) == {(RUN_THRESHOLD, 9, 8)}
    assert gc.get_threshold() == (700, 9, 8)


class Fails(pipev.Observer):
    def on_event(self, event):
        raise RuntimeError("stop")


def test_a_failed_run_restores_the_collector(thresholds):
    gc.set_threshold(500, 10, 10)
    with pytest.raises(RuntimeError):
        pipev.run(PROGRAM, observers=[Fails()])
    assert gc.get_threshold() == (500, 10, 10)


@pytest.mark.parametrize("caller", [(0, 10, 10), (RUN_THRESHOLD * 2, 10, 10)])
def test_collection_off_or_rarer_stays_as_the_caller_set_it(thresholds, caller):
    gc.set_threshold(*caller)
    with paced_collections():
        assert gc.get_threshold() == caller
    assert gc.get_threshold() == caller


def test_a_threshold_set_within_the_block_is_kept(thresholds):
    gc.set_threshold(700, 10, 10)
    with paced_collections():
        with paced_collections():  # nested: the outer restores
            assert gc.get_threshold()[0] == RUN_THRESHOLD
        assert gc.get_threshold()[0] == RUN_THRESHOLD
        gc.set_threshold(1234, 10, 10)
    assert gc.get_threshold() == (1234, 10, 10)


LOOP = """.chip ascend910b
.gm  a  f32[1024] input = random(1)
.gm  b  f32[1024] output
.ub  x  f32[1024]
.ub  m  u8[128]
    copy_gm_to_ub  x, a, nburst=1, burst=128
    set_flag       MTE2, V, 0
    wait_flag      MTE2, V, 0
    li             x1, 0
top:
    vcmpvs.lt.f32  m, x, 0.5, repeat=16
    vadd.f32       x, x, x, repeat=16
    add            x1, x1, 1
    blt            x1, 4, top
    set_flag       V, MTE3, 0
    wait_flag      V, MTE3, 0
    copy_ub_to_gm  b, x, nburst=1, burst=128
"""


@pytest.mark.parametrize("block_dim", [1, 3])
def test_a_finished_run_is_freed_without_the_collector(block_dim):
    """A launch releases its runs once their result is made (`Run.release`): the program a
    result holds goes when the result goes, the collector off — no reference cycle among the
    executor, its plans, the decodings and the observers keeps it. Every core's run, with its
    plans (the loop repeats), and the results stay as they were."""
    expected = pipev.run(LOOP, block_dim=block_dim)
    gc.collect()
    gc.disable()
    try:
        result = pipev.run(LOOP, block_dim=block_dim)
        assert result.outputs["b"].tobytes() == expected.outputs["b"].tobytes()
        assert result.cycles == expected.cycles and result.hot_lines == expected.hot_lines
        program = weakref.ref(result.program)
        del result
        assert program() is None
    finally:
        gc.enable()


def test_a_dropped_debugger_session_frees_its_log_without_the_collector():
    """A session's fast loop refers back to it weakly (simulator/debugger/fast.py): a session
    dropped after a fast `continue` frees its undo log at once, the collector off, instead of
    leaving tens of thousands of records to a later full collection."""
    from simulator.debugger import Commands, Session

    gc.collect()
    gc.disable()
    try:
        s = Session(isa.assemble(LOOP))
        Commands(s).execute("continue")
        assert s._fast.planned > 0 and len(s.hist.records) > 10
        session, log = weakref.ref(s), weakref.ref(s.hist)
        del s
        assert session() is None and log() is None
    finally:
        gc.enable()


@pytest.mark.parametrize("block_dim", [1, 3])
def test_a_run_releases_its_runs_before_the_callers_pacing_returns(thresholds, monkeypatch,
                                                                   block_dim):
    """The pacing covers assembly, every core's run and their release (`Run.release`): the
    caller's threshold comes back when the runs' cycles are broken, not while a run's whole
    working set is young and alive (before, the next allocation after `Run.execute` collected
    it all and found nothing: 50 ms after 4,000 distinct lines)."""
    from simulator.builder import Run

    seen, release = [], Run.release

    def released(run):
        seen.append(gc.get_threshold())
        release(run)
    monkeypatch.setattr(Run, "release", released)
    gc.set_threshold(700, 10, 10)
    pipev.run(PROGRAM, block_dim=block_dim)
    assert len(seen) == block_dim and set(seen) == {(RUN_THRESHOLD, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)


COMPARES = """.chip ascend910b
.ub x f32[16400] = random(1)
.ub y f32[16400] = random(2)
.ub d u8[2048] = random(3)
""" + "    vcmpv.lt.f32 d, x, y, repeat=255\n" * 20 + \
    "    vcmpvs.lt.f32 d, x, 0.5, repeat=255\n" * 5

_BODY = "vadd.f32 x, x, y\nvcmpv.lt.f32 m[128], x, y, repeat=2\n"
MASKS = """.chip ascend910b
.ub x f32[1024] = random(1)
.ub y f32[1024] = random(2)
.ub m u8[256] = random(3)
set_cmpmask m
""" + _BODY * 3 + "set_vector_mask 0, 0xff\n" + _BODY * 4 + "set_vector_mask 0, 0x3\n" + \
    _BODY * 3 + "li x5, 0\nloop:\nset_vector_mask 0, 0xf\n" + _BODY + \
    "set_vector_mask 0, 0xff\n" + _BODY + "add x5, x5, 1\nblt x5, 6, loop\n"


@pytest.mark.parametrize("block_dim", [1, 3])
@pytest.mark.parametrize("text", [COMPARES, LOOP, MASKS], ids=["compares", "loop", "masks"])
def test_a_finished_run_leaves_no_cyclic_garbage(text, block_dim):
    """A launch's released runs leave nothing in reference cycles (`Run.release`: the timing
    model's bookings, the hazard steps kept on their accesses, a MASK-following plan's
    tables), so what they held goes by reference counting and the caller's next collection
    has no run to traverse. Checked with the results (and their programs) alive, from a text
    and from an assembled program, after a first run made the program's kept decodings."""
    program = isa.assemble(text)
    pipev.run(text, block_dim=block_dim)
    pipev.run(program, block_dim=block_dim)
    gc.collect()
    gc.disable()
    try:
        results = []
        for source in (text, program):
            results.append(pipev.run(source, block_dim=block_dim))
            assert gc.collect() == 0
        assert results[0].cycles == results[1].cycles > 0
    finally:
        gc.enable()


def test_a_mask_following_plan_is_released(monkeypatch):
    """MASKS runs its lines through MASK-following plans that switch values (so the test
    above covers their tables)."""
    from simulator.fused import _Masked

    switched, switch = [], _Masked.switch

    def counted(self, instr, i):
        switched.append(instr.pc)
        return switch(self, instr, i)
    monkeypatch.setattr(_Masked, "switch", counted)
    pipev.run(MASKS)
    assert len(switched) > 4


def test_the_steps_noted_for_release_are_bounded(monkeypatch):
    """The hazard checks note each accesses given a kept step (for `release` to let go of),
    at most STEPPED of them: past it the noted ones are left to the collector, not kept alive
    after their decodings let go of them."""
    from simulator import hazards
    from simulator.builder import Run, load_program

    def noted(limit):
        monkeypatch.setattr(hazards, "STEPPED", limit)
        run = Run.of_program(load_program(MASKS), fast=False)
        run.execute()
        (checks,) = [c for c in run._checks if isinstance(c, hazards.HazardChecks)]
        return len(checks.stepped)
    assert noted(1 << 14) > 3
    assert 1 <= noted(2) <= 2


def test_runs_of_an_assembled_program_cause_no_collection(thresholds):
    """What a run of an assembled program leaves young is a few dozen objects (its result),
    no cyclic garbage: ten runs, their results dropped, stay under the caller's threshold of
    700 and the collector never runs (before, each left 268 objects in cycles, and every
    third run's end collected them)."""
    program = isa.assemble(COMPARES)
    for _ in range(3):  # (the caches a first run fills)
        pipev.run(program)
    gc.set_threshold(700, 10, 10)
    gc.collect()
    seen = []

    def collection(phase, info):
        seen.append(info["generation"])
    gc.callbacks.append(collection)
    try:
        for _ in range(10):
            pipev.run(program)
    finally:
        gc.callbacks.remove(collection)
    assert seen == []


def test_a_dropped_program_leaves_no_cyclic_garbage():
    """A program's kept decodings (simulator/decodings.py `kept`) refer back to the program
    weakly: a program dropped after its runs goes with its stores by reference counting,
    nothing left in a cycle for the collector (a store once held the dict that holds it)."""
    from simulator import decodings

    program = isa.assemble(LOOP)
    pipev.run(program)
    gc.collect()
    gc.disable()
    try:
        result = pipev.run(program)
        assert decodings._KEPT.get(program)
        store = weakref.ref(next(iter(decodings._KEPT[program].values())))
        del result, program
        assert store() is None
        assert gc.collect() == 0
    finally:
        gc.enable()
