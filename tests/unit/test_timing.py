"""The timing model (docs/timing.md): the worked example, bank examples, cost rules, sync, DMA."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import isa
import pipev
import simulator
from isa.chip import CHIP_DIR
from isa.decode import decode_vector
from isa.families import SCALAR, Family
from isa.table import InstrDef
from simulator.events import Observer
from simulator.semantics.issued import Issued
from simulator.summary import summary_dict
from simulator.timing.banks import bank_model
from simulator.timing.config import load_config

ROOT = Path(__file__).resolve().parents[2]
ONES = (1 << 64) - 1


class Records(Observer):
    """(event, InstrTiming) of every executed instruction."""

    def __init__(self) -> None:
        self.rows = []

    def on_event(self, event) -> None:
        self.rows.append((event, event.timing))


def timed(program, chip=None, checks="error"):
    rec = Records()
    result = simulator.run(program, chip=chip, observers=[rec], checks=checks)
    return result, [t for _, t in rec.rows], rec.rows


def prog(body: str, decls: str = "", chip: str = "ascend910b") -> str:
    return f".chip {chip}\n{decls}\n" + "\n".join("    " + ln.strip()
                                                  for ln in body.strip().splitlines()) + "\n"


def occupancy(line: str, decls: str = "", chip=None) -> int:
    _, recs, _ = timed(prog(line, decls), chip=chip, checks="warn")
    return recs[-1].end - recs[-1].start


# -- docs/timing.md §T6: the worked example --------------------------------------------------------
WORKED = [  # index: (pipe, issue, start, end) — every instruction, S ones included
    ("MTE2", 0, 0, 242), ("MTE2", 1, 242, 484), ("MTE2", 2, 484, 485), ("V", 3, 3, 486),
    ("V", 4, 486, 494), ("S", 5, 5, 6), ("S", 6, 6, 7), ("V", 7, 494, 497), ("V", 8, 497, 498),
    ("S", 9, 9, 10), ("S", 10, 10, 11), ("V", 11, 498, 506), ("S", 12, 12, 13),
    ("S", 13, 13, 14), ("V", 14, 506, 507), ("MTE3", 15, 15, 508), ("MTE3", 16, 508, 664),
]


def test_worked_example_every_instruction():
    result, recs, _ = timed(ROOT / "programs" / "quickstart.vasm")
    assert [(t.pipe, t.issue, t.start, t.end) for t in recs] == WORKED
    assert result.cycles == 664
    assert result.pipes == {"S": 17, "V": 22, "MTE2": 485, "MTE3": 157}
    assert recs[2].fire == 485 and recs[14].fire == 507
    assert recs[3].wait_flag == 482 and recs[3].busy == 1
    assert [(r.start, r.end, r.bank_beats) for r in recs[4].repeats] == [
        (486, 488, 2), (488, 490, 2), (490, 492, 2), (492, 494, 2)]
    assert [(r.start, r.end, r.bank_beats) for r in recs[7].repeats] == [(494, 497, 1)]
    assert round(result.time_us, 3) == 0.359


def test_report_stalls_and_hot_lines_in_summary():
    result = simulator.run(ROOT / "programs" / "quickstart.vasm")
    d = summary_dict(result)
    assert d["stalls"] == {"flag_wait": 482 + 492, "queue_full": 0, "bank_conflict": 0,
                           "barrier": 0}
    assert [(h["line"], h["cycles"]) for h in d["hot_lines"]] == [(12, 242), (13, 242), (20, 156)]
    assert d["hot_lines"][2]["text"] == "copy_ub_to_gm  out, z, nburst=1, burst=32"


# -- docs/timing.md §T3: the six vendor bank examples ----------------------------------------------
def vector_op(line: str, addrs: dict, chip: str = "ascend910b"):
    p = isa.assemble(f".chip {chip}\n    {line}\n", checks="off")
    instr = p.statements[0].hw[0]
    return decode_vector(instr, addrs, dict(instr.fields), (ONES, ONES), False)


def banks(chip: str = "ascend910b"):
    return bank_model(load_config(isa.chip.get_chip(chip)).bank)


@pytest.mark.parametrize("src, dst, beats", [
    (0x10020, 0x10000, 1),  # no conflict
    (0x10020, 0x10E20, 2),  # read/write in the same bank (17): a one-source copy pays
])
def test_bank_examples_read_write(src, dst, beats):
    vop = vector_op("vcopy.f32 @0x0, @0x100", {"dst": dst, "src": src})
    assert banks().beats(vop, 1).tolist() == [beats]


@pytest.mark.parametrize("src1, cross", [(0x20020, 2), (0x10000, 1)])
def test_bank_examples_read_read(src1, cross):
    vop = vector_op("vadd.f32 @0x0, @0x100, @0x200", {"dst": 0x0, "src0": 0x10020,
                                                      "src1": src1})
    intra, crs = banks().terms(vop)
    assert crs.tolist() == [cross] and intra.tolist() == [1]
    assert banks().beats(vop, 1).tolist() == [cross]  # a slope-1 instruction would pay
    assert banks().beats(vop, 2).tolist() == [2]  # vadd's slope 2 hides it


@pytest.mark.parametrize("blk, beats", [(16, 8), (8, 4)])
def test_bank_examples_dst_block_stride(blk, beats):
    vop = vector_op(f"vector_dup.f32 @0x0, 1.0, repeat=3, stride={blk},1,{blk * 8},8",
                    {"dst": 0x1FE00})
    assert banks().beats(vop, 1).tolist() == [beats] * 3


def test_bank_950_groups_serve_two_reads_or_read_plus_write():
    dup = vector_op("vector_dup.f32 @0x0, 1.0, stride=16,1,128,8", {"dst": 0x1FE00},
                    "ascend950")
    assert banks("ascend950").beats(dup, 1).tolist() == [8]
    copy = vector_op("vcopy.f32 @0x0, @0x100", {"dst": 0x1000, "src": 0x0}, "ascend950")
    assert banks("ascend950").beats(copy, 1).tolist() == [1]  # 1 read + 1 write per group
    add = vector_op("vadd.f32 @0x0, @0x100, @0x200", {"dst": 0x1000, "src0": 0x0,
                                                      "src1": 0x2000}, "ascend950")
    assert banks("ascend950").beats(add, 1).tolist() == [2]  # 2 reads + 1 write per group


def test_bank_conflict_program_costs_eight_beats_per_repeat():
    result, recs, rows = timed(ROOT / "programs" / "timing" / "bank_conflict.vasm")
    copies = [t for ev, t in rows if ev.instr.name == "vcopy"]
    assert [c.busy for c in copies] == [16, 128]
    assert {r.bank_beats for r in copies[1].repeats} == {8}
    assert result.stalls["bank_conflict"] == 112
    assert result.outputs["flat"].tobytes() == np.arange(1024, dtype=np.float32).tobytes()


# -- docs/timing.md §T2: cost classes --------------------------------------------------------------
@pytest.mark.parametrize("line, cycles", [
    ("vsel.f32 @0x20000, @0x0, @0x10100", 3),  # min_cycles
    ("vsel.f32 @0x20000, @0x0, @0x10100, repeat=4", 8),
    ("vsel.f32 @0x20000, @0x0, @0x10020, repeat=4, mode=1", 4),  # vsel_scalar slope 1
    ("vsel.f32 @0x20000, @0x0, @0x10100, repeat=4, mode=1", 6),  # mask row and src0 clash
    ("vcmp.lt.f16 @0x0, @0x10100", 4),  # f16 vcmp minimum
    ("vcmp.lt.f32 @0x0, @0x10100", 3),
    ("vcmpv.lt.f16 @0x20000, @0x0, @0x10100", 7),  # 16 bytes out: partial-block penalty 5
    ("vcmpv.lt.f16 @0x20000, @0x0, @0x10100, repeat=2", 4),  # 32 bytes: none
    ("vcmpv.lt.f32 @0x20000, @0x0, @0x10100, repeat=2", 9),
    ("vcmpvs.lt.f16 @0x20000, @0x0, 0.0", 7),  # penalty 6
    ("vcmpvs.lt.f16 @0x20000, @0x0, 0.0, repeat=16", 16),
    ("vadds.f32 @0x20000, @0x0, 1.0, repeat=16", 16),
    ("vadd.f32 @0x20000, @0x0, @0x10100, repeat=0", 0),  # repeat 0: occupancy 0
    ("set_cmpmask @0x0", 1),
    ("copy_ub_to_ub @0x1000, @0x0, nburst=1, burst=32", 4),  # ceil(32/8)·slope
    ("copy_ub_to_ub @0x1000, @0x0, nburst=1, burst=8", 3),  # min_cycles
])
def test_vector_occupancy(line, cycles):
    assert occupancy(line) == cycles


def test_count_zero_is_free_but_still_issues():
    _, recs, _ = timed(prog("""
        set_mask_count
        set_vector_mask 0, 0
        vadd.f32 @0x20000, @0x0, @0x10100
    """), checks="warn")
    assert (recs[2].issue, recs[2].start, recs[2].end, recs[2].busy) == (2, 2, 2, 0)
    assert recs[2].repeats == ()


def _profile(tmp_path: Path, **binary: int) -> str:
    text = (CHIP_DIR / "ascend910b.toml").read_text()
    row = ", ".join(f"{k} = {v}" for k, v in binary.items())
    text = text.replace("binary = {slope = 2, min_cycles = 3, head = 0, tail = 0}",
                        f"binary = {{{row}}}")
    path = tmp_path / "custom910b.toml"
    path.write_text(text)
    return str(path)


ABC = ".ub a f32[64] @0x0 = zeros\n.ub b f32[64] @0x10100 = zeros\n.ub c f32[64] @0x20000"


def test_head_when_idle_and_tail_before_set_flag(tmp_path):
    chip = _profile(tmp_path, slope=2, min_cycles=3, head=5, tail=4)
    result, recs, _ = timed(prog("""
        vadd.f32 c, a, b
        vadd.f32 c, a, b
        set_flag V, MTE3, 0
        wait_flag V, MTE3, 0
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        vadd.f32 c, a, b
    """, ABC), chip=chip)
    first, second, setf, waitf, last = recs[0], recs[1], recs[2], recs[3], recs[-1]
    assert (first.start, first.head, first.end) == (0, 5, 8)  # V idle: head
    assert (second.start, second.head, second.end) == (8, 0, 11)  # back to back: none
    assert (setf.start, setf.end, setf.fire) == (15, 16, 16)  # tail 4 before set_flag
    assert (waitf.start, waitf.end) == (3, 17)
    assert (last.issue, last.start, last.head, last.end) == (14, 16, 5, 24)  # idle again
    assert result.cycles == 24 + 4  # the tail of the last instruction counts


def test_min_cycles_padding_extends_last_repeat(tmp_path):
    chip = _profile(tmp_path, slope=2, min_cycles=9, head=1, tail=0)
    _, recs, _ = timed(prog("vadd.f32 c, a, b, repeat=2", ABC.replace("[64]", "[128]")),
                       chip=chip)
    t = recs[0]
    assert (t.head, t.pad, t.busy) == (1, 5, 10)
    assert [(r.start, r.end, r.bank_beats) for r in t.repeats] == [(1, 3, 2), (3, 10, 2)]


# -- docs/timing.md §T1: issue, queues, synchronisation --------------------------------------------
def test_pipe_barrier_drains_only_a_busy_pipe():
    _, recs, _ = timed(prog("pipe_barrier V\nvadd.f32 c, a, b\npipe_barrier V\n" + "nop\n" * 20
                            + "pipe_barrier V", ABC))
    assert recs[0].busy == 0  # V idle
    assert (recs[2].start, recs[2].end) == (4, 20)  # busy up to it: drain 16
    assert (recs[-1].issue, recs[-1].start, recs[-1].busy) == (23, 23, 0)  # idle since 20


def test_pipe_barrier_all_stops_s_until_queues_drain():
    result, recs, _ = timed(prog("""
        copy_gm_to_ub x, g, nburst=1, burst=32
        pipe_barrier ALL
        nop
    """, ".gm g f32[256] input = zeros\n.ub x f32[256]"))
    assert (recs[1].pipe, recs[1].issue, recs[1].start, recs[1].end) == ("S", 1, 242, 243)
    assert recs[2].issue == 243
    assert result.stalls["barrier"] == 241


def test_queue_depth_stalls_s():
    body = ["copy_gm_to_ub x, g, nburst=1, burst=32", "set_flag MTE2, V, 0",
            "wait_flag MTE2, V, 0"] + ["vadds.f32 y, z, 1.0"] * 40
    result, recs, _ = timed(prog("\n".join(body), ".gm g f32[256] input = zeros\n"
                                 ".ub x f32[256]\n.ub y f32[64] @0x10100\n"
                                 ".ub z f32[64] @0x20000 = zeros"))
    assert [t.issue for t in recs[3:34]] == list(range(3, 34))  # 31 vadds fit after the wait
    assert (recs[34].issue, recs[34].wait_issue) == (244, 210)  # the 32nd waits for a slot
    assert result.stalls["queue_full"] >= 210


def test_s_as_flag_source_and_destination():
    _, recs, _ = timed(prog("""
        nop
        set_flag S, V, 0
        wait_flag S, V, 0
        copy_gm_to_ub x, g, nburst=1, burst=32
        set_flag MTE2, S, 1
        wait_flag MTE2, S, 1
        nop
    """, ".gm g f32[256] input = zeros\n.ub x f32[256]"))
    assert (recs[1].pipe, recs[1].start, recs[1].fire) == ("S", 1, 2)
    assert (recs[2].pipe, recs[2].issue, recs[2].end) == ("V", 2, 3)
    assert recs[4].fire == 3 + 242 + 1
    assert (recs[5].pipe, recs[5].start, recs[5].end, recs[5].wait_flag) == ("S", 5, 247, 241)
    assert recs[6].issue == 247


def test_taken_branches_cost_more():
    result, recs, _ = timed(prog("""
        li x1, 0
    loop:
        add x1, x1, 1
        blt x1, 3, loop
    """))
    assert [t.busy for t in recs] == [1, 1, 3, 1, 3, 1, 1]
    assert result.cycles == 11 and result.pipes["S"] == 11


def test_dma_latency_bandwidth_rounds_up_exactly():
    decls = ".gm g f32[800] input = zeros\n.gm o f32[800] output\n.ub x f32[800]"
    _, recs, _ = timed(prog("""
        copy_gm_to_ub x, g, nburst=1, burst=100
        copy_gm_to_ub x, g, nburst=4, burst=25
        copy_ub_to_gm o, x, nburst=1, burst=100
    """, decls))
    assert [t.busy for t in recs] == [266, 266, 180]  # 230 + 0.36·100; 144 + 36
    big = ".gm g f32[32768] input = zeros\n.ub x f32[32768]"
    _, recs, _ = timed(prog("copy_gm_to_ub x, g, nburst=1, burst=4096", big))
    assert recs[0].busy == 2868  # bandwidth bound: ceil(0.70 · 4096)


def test_missing_timing_key_is_a_diagnostic(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text((CHIP_DIR / "ascend910b.toml").read_text().replace("mte2_latency = 230\n",
                                                                        ""))
    with pytest.raises(simulator.SimulationError) as e:
        simulator.run(ROOT / "programs" / "quickstart.vasm", chip=str(path))
    assert "mte2_latency" in str(e.value.diagnostics[0])


# -- functional results never depend on timing; double buffering pays -------------------------
@pytest.mark.parametrize("name", ["quickstart.vasm", "timing/double_buffer.vasm",
                                  "timing/bank_conflict.vasm"])
def test_timing_off_gives_identical_bytes(name):
    on = simulator.run(ROOT / "programs" / name)
    off = simulator.run(ROOT / "programs" / name, timing=False)
    assert off.cycles == 0 and on.cycles > 0
    assert on.outputs.keys() == off.outputs.keys()
    for k in on.outputs:
        assert on.outputs[k].tobytes() == off.outputs[k].tobytes()
    assert on.ub.tobytes() == off.ub.tobytes()


def test_double_buffering_overlaps_mte2_with_v():
    double, drecs, drows = timed(ROOT / "programs" / "timing" / "double_buffer.vasm")
    single, _, srows = timed(ROOT / "programs" / "timing" / "single_buffer.vasm")
    assert double.outputs["out"].tobytes() == single.outputs["out"].tobytes()
    assert double.cycles < 0.9 * single.cycles
    loads = [t for ev, t in drows if ev.instr.name == "copy_gm_to_ub"]
    compute = [t for ev, t in drows if ev.vop is not None]
    overlap = sum(max(0, min(a.end, b.end) - max(a.start, b.start))
                  for a in loads for b in compute)
    assert overlap > 0.5 * sum(b.busy for b in compute)
    sloads = [t for ev, t in srows if ev.instr.name == "copy_gm_to_ub"]
    scompute = [t for ev, t in srows if ev.vop is not None]
    assert all(min(a.end, b.end) <= max(a.start, b.start) for a in sloads for b in scompute)


def test_calibration_points_within_five_percent():
    import importlib.util

    spec = importlib.util.spec_from_file_location("calibration",
                                                  ROOT / "benchmarks" / "calibration.py")
    cal = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cal)
    table = cal.rows()
    assert len(table) == 26
    assert sum(e for *_, e in table) / len(table) <= cal.LIMIT
    assert max(e for *_, e in table) < 3.0


def test_vector_costs_are_shared_by_runs_of_one_profile_and_model_class():
    """Runs of one chip share their vector cost cache (simulator/timing/model.py `_costs_of`):
    a run whose layouts an earlier run timed books the cycles it books alone, and a model
    class of its own (one that costs differently) has its own cache."""
    from simulator.timing import model

    text = prog("vadd.f32 x, x, y, repeat=4\nvcmpv.lt.f32 d, x, y, repeat=3, stride=1,2,2,8,8,8",
                ".ub x f32[4096] = random(1)\n.ub y f32[4096] = random(2)\n.ub d u8[512]")
    model._COSTS.clear()
    alone = timed(text)[1]
    again = timed(text)[1]
    assert [(t.start, t.end, t.beats.tolist() if t.beats is not None else None)
            for t in again] == [(t.start, t.end, t.beats.tolist() if t.beats is not None
                                 else None) for t in alone]
    chip = isa.chip.get_chip("ascend910b")
    cfg = model.config_of(chip)

    class Costlier(model.TimingModel):
        pass

    assert model.TimingModel(chip)._cache is model._costs_of(model.TimingModel, cfg)[0]
    assert model.TimingModel(chip)._cache, "the runs above filled it"
    assert Costlier(chip)._cache is not model.TimingModel(chip)._cache
    assert not Costlier(chip)._cache


def test_a_kept_decoding_keeps_its_cost_under_its_model_class_and_profile(monkeypatch):
    """A decoding keeps its vector cost between runs (and programs of its content) under a
    key naming the model class's and profile's cost cache (`_costs_of`, a PureKey): the next
    run of the program, or of the same text assembled again, works out no cost, and books
    what the first booked; a model class of its own, or a cache made afresh, has other keys."""
    from simulator import decodings
    from simulator.timing import model

    text = prog("vcmpv.lt.f32 d, x, y, repeat=3, stride=1,2,2,8,8,8\nvadd.f32 x, x, y",
                ".ub x f32[4096] = random(1)\n.ub y f32[4096] = random(2)\n.ub d u8[512]")
    program = isa.assemble(text)
    first = timed(program)[1]
    timed(text)  # (a text run assembles it in a build context of its own: its first content)
    worked: list = []
    real = model.TimingModel._vector_cost_by_layout
    monkeypatch.setattr(model.TimingModel, "_vector_cost_by_layout",
                        lambda self, vop, cls: worked.append(vop) or real(self, vop, cls))
    for again in (program, text):
        assert [(t.start, t.end) for t in timed(again)[1]] == [(t.start, t.end) for t in first]
    assert worked == []
    chip = isa.chip.get_chip("ascend910b")

    class Costlier(model.TimingModel):
        pass

    key = model.TimingModel(chip)._cost_keys["vcmpv"]
    assert decodings.pure(key) and key is model.TimingModel(chip)._cost_keys["vcmpv"]
    assert Costlier(chip)._cost_keys["vcmpv"] != key
    model._COSTS.clear()
    assert model.TimingModel(chip)._cost_keys["vcmpv"] != key
    timed(program)
    assert len(worked) == 2  # (a new cache's keys: each decoding's cost worked out again)


def test_handlers_are_the_models_own_class_functions():
    """The model times each kind with its class's function (`_handlers`: no bound methods kept
    on the instance, which held it in a cycle); a subclass's own handler is the one used."""
    from isa import families
    from simulator.timing import model as tm

    class Sub(tm.TimingModel):
        def _vector(self, ev):
            return super()._vector(ev)

    assert tm.TimingModel(isa.chip.get_chip("ascend910b"))._by_kind[families.VECTOR] is \
        tm.TimingModel._vector
    handlers = Sub(isa.chip.get_chip("ascend910b"))._by_kind
    assert handlers[families.VECTOR] is Sub._vector
    assert handlers[families.BARRIER] is tm.TimingModel._barrier
    assert set(handlers) == set(tm._KINDS)


STATE_ON_V = """.chip ascend910b
.ub x f16[256] = random(1)
.ub y f16[256]
.ub t u8[128] = random(2)
    vadd.f16       x, x, x, repeat=2
    set_va         va0, y[0], y[16], y[32], y[48], y[64], y[80], y[96], y[112]
    set_va         va1, y[128], y[144], y[160], y[176], y[192], y[208], y[224], y[240]
    set_va         va2, x[0], x[16], x[32], x[48], x[64], x[80], x[96], x[112]
    set_va         va3, x[128], x[144], x[160], x[176], x[192], x[208], x[224], x[240]
    set_deqscale   t
    li             x1, 0x3c00
    set_deqscale   x1
    vnchwconv_va.f16 va0, va2, repeat=1, stride=0,0
"""


@pytest.mark.parametrize("fast", [True, False])
def test_set_va_and_set_deqscale_are_issued_to_v_at_their_class_cycles(fast):
    """set_va and set_deqscale go to V, as their C API pages say (PIPE_V), each its class's
    min_cycles there (docs/decisions.md, "set_va on V"): their events and records name V,
    V's busy cycles count them, and each waits for V's queue in order behind the vadd."""
    cfg = load_config(isa.chip.get_chip("ascend910b"))
    records = Records()
    result = simulator.run(STATE_ON_V, observers=[records], fast=fast)
    rows = {ev.instr.line: (ev, t) for ev, t in records.rows}
    vadd_end = rows[5][1].end
    state = [rows[line] for line in (6, 7, 8, 9, 10, 12)]
    for ev, t in state:
        cls = cfg.classes[ev.instr.defn.family.cost]
        assert ev.pipe == t.pipe == "V" and t.busy == cls.min_cycles == t.end - t.start
        assert t.start >= vadd_end
    assert [t.start for _, t in state] == sorted(t.start for _, t in state)
    assert rows[11][1].pipe == "S"  # li
    assert result.pipes["V"] == sum(t.busy for ev, t in records.rows if t.pipe == "V")


@pytest.mark.parametrize("cost, pipe", [("set_va", "V"), ("no_such_class", "S")])
def test_an_extended_state_write_issued_to_v_takes_v_only_with_a_class(cost, pipe):
    """A scalar-kind family of an extended instruction set issued to V is booked on V at its
    class's min_cycles when the chip's profile has that class, and as S executing it when it
    has none (no class, no V figure to take)."""
    def issue(ex, instr):
        return Issued(instr.defn.family.pipe)
    made_up = pipev.instruction_set().extended(
        InstrDef("set_foo", (), Family("foo", SCALAR, "V", cost), level="scalar",
                 doc="a made-up state write issued to V"),
        semantics={"foo": issue})
    records = Records()
    simulator.run(".chip ascend910b\n    set_foo\n", observers=[records], isa=made_up)
    (_, t), = records.rows
    assert t.pipe == pipe
    if pipe == "V":
        assert t.busy == load_config(isa.chip.get_chip("ascend910b")).classes[cost].min_cycles
