"""Bulk vector layouts and the block-granular hazard checks, differentially.

1. Random programs of many-repeat vector instructions in the layouts the bulk paths treat
   specially — destination repeats that overlap (repeat stride below 8 blocks, 0 included: the
   later repeat wins), zero and small source repeat strides, source block stride 0 — under
   random MASK and counter mode, run bit-exact against tests/reference/model.py (raw bytes, or
   the same rejection at the same line).
2. Random multi-pipe programs (DMA in and out, byte-granular padded copies, flags, barriers,
   CMPMASK moves on half blocks, partially masked vector operands, uninitialised tensors) give
   exactly the diagnostics — races and uninitialised reads, same lines, same words — of the
   per-byte hazard checks kept in tests/reference/hazards.py, and the same UB.
3. Pinned hazard diagnostics on overlapping and partial-block accesses.
"""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
import simulator.builder
from isa.diagnostics import AssemblyError
from simulator.errors import SimulationError
from simulator.events import Observer
from simulator.hazards import HazardChecks
from simulator.semantics import bulk, select
from tests.differential.test_random_programs import SETTINGS, SIZE, Gen, check
from tests.reference.hazards import ByteHazardChecks

DST_REP = (8, 2, 1, 0, 4, 7, 3, 16)  # below 8: the repeats overlap
SRC_BLK = (1, 0, 0, 2, 1)
SRC_REP = (8, 0, 1, 2, 3, 8, 16)


# -- 1. bulk layouts against the reference model ------------------------------------------------
class BulkGen(Gen):
    """Many-repeat vsel / arithmetic / copies in the layouts of the bulk paths."""

    def repeats_field(self) -> int:
        return self.draw(st.sampled_from((255, 255, 200, 64, 17, 2, 1)))

    def layout(self, r: int) -> list[tuple[int, int]]:
        """(blk, rep) of dst, src0, src1, kept inside the generator's UB budget."""
        cap = max(1, 40000 // (32 * max(r - 1, 1)))
        dst = (self.draw(st.sampled_from((1, 1, 2))), self.draw(st.sampled_from(DST_REP)))
        srcs = [(self.draw(st.sampled_from(SRC_BLK)), self.draw(st.sampled_from(SRC_REP)))
                for _ in range(2)]
        return [(b, min(p, cap)) for b, p in [dst, *srcs]]

    def bulk(self) -> None:
        self.new_state()
        name = self.draw(st.sampled_from(("vsel", "vsel", "vsel", "vadd", "vmax", "vcopy",
                                          "vadds")))
        t = self.draw(st.sampled_from(("f16", "f32") if name == "vsel" else
                                      ("f16", "f32", "s16", "s32")))
        n = 256 // SIZE[t]
        repeat = self.repeats_field()
        r = self.effective_repeats(repeat, n)
        (db, dr), (ab, ar), (bb, br) = self.layout(r)
        self.used, self.dst_region = set(), None
        mode = self.draw(st.sampled_from((0, 1, 2))) if name == "vsel" else 0
        if mode == 2:
            self.load_mode2(t, n, r)
        elif name == "vsel":
            self.load_cmpmask()
        ops = [self.shared_dst(t, r, db, dr), self.operand(t, self.extent(r, ab, ar))[0]]
        if name in ("vcopy", "vadds"):
            keys = [db, ab, dr, ar]
            if name == "vadds":
                ops.append(self.scalar(t))
        else:
            keys = [db, ab, bb, dr, ar, br]
            if mode == 1:
                ops.append(self.operand(t, max(r, 1) * n // 8, "bits")[0])
            else:
                ops.append(self.operand(t, self.extent(r, bb, br))[0])
        self.emit_vector(f"{name}.{t}", ops, repeat, keys)
        if name == "vsel":
            self.lines[-1] += f", mode={mode}"

    def program(self) -> str:
        for _ in range(self.draw(st.integers(1, 4))):
            self.draw(st.sampled_from((self.bulk, self.bulk, self.bulk, self.mask_mode)))()
        self.lines.append("get_cmpmask @0x2e040")
        return "\n".join([".chip ascend910b", *self.decls, *self.lines]) + "\n"


@pytest.fixture(scope="module", autouse=True)
def plan_at_the_first_execution():
    """The bulk path makes a decoding's plan at its second execution (select.PLAN_AT); these
    programs run each line once, so here it plans at the first, or the element path would be
    all they test."""
    with mock.patch.object(select, "PLAN_AT", 1):
        yield


@st.composite
def bulk_programs(draw) -> str:
    return BulkGen(draw, overlap=False).program()


@settings(SETTINGS, max_examples=100)
@given(bulk_programs())
def test_bulk_layouts_are_bit_exact(text):
    check(text, "error")


@settings(SETTINGS, max_examples=25)
@given(bulk_programs())
def test_bulk_layouts_are_bit_exact_with_checks_off(text):
    check(text, "off")


@settings(SETTINGS, max_examples=50)
@given(bulk_programs())
def test_the_bulk_path_gives_what_the_element_path_gives(text):
    """Bytes and diagnostics with semantics/bulk.py and without it (the element paths)."""
    got = outcome(text)
    with mock.patch.object(select, "_vsel_bulk", lambda m, vop: False):
        assert outcome(text) == got


BENCHMARK_LAYOUTS = {  # benchmarks/bulk_speed.py's: whether only surviving blocks are computed
    "vsel.f32 x, x, y, repeat=255": False,
    "vsel.f32 z, x, y, repeat=255, stride=1,1,1,2,8,8": True,
    "vsel.f32 x, y, z, repeat=255, stride=1,1,1,8,1,2": False,
    "vsel.f32 x, x, y, repeat=255, stride=1,1,0,8,8,1": False}


def test_the_benchmarked_layouts_take_the_bulk_path():
    text = """.chip ascend910b
.ub x f32[16320] = random(1)
.ub y f32[16320] = random(2)
.ub z f32[4128] = random(4)
.ub m u8[32] = random(3)
set_cmpmask m
"""
    plans = []
    real = bulk.plan_of

    def spy(m, vop, sources):
        plan = real(m, vop, sources)
        plans.append(plan)
        return plan

    for line, survivors in BENCHMARK_LAYOUTS.items():
        plans.clear()
        with mock.patch.object(select, "plan_of", spy):
            assert not simulator.run(text + line + "\n").diagnostics
        assert plans and plans[0] is not None, line
        assert (plans[0].positions is not None) == survivors, line


def test_a_decoding_is_planned_at_its_second_execution_with_the_same_bytes():
    """By default (PLAN_AT = 2) a line that runs once takes the element path and the second
    execution of the same decoding makes the plan; the bytes are the element path's."""
    text = """.chip ascend910b
.ub x f32[16320] = random(1)
.ub y f32[16320] = random(2)
.ub m u8[32] = random(3)
set_cmpmask m
.rept 3
vsel.f32 x, x, y, repeat=255, stride=1,1,0,8,8,1
.endr
"""
    calls = []
    real = bulk.plan_of

    def spy(m, vop, sources):
        calls.append(vop)
        return real(m, vop, sources)

    with mock.patch.object(select, "PLAN_AT", 2), mock.patch.object(select, "plan_of", spy):
        got = simulator.run(text)
    assert len(calls) == 1  # made once, at the second execution, and used by the third
    with mock.patch.object(select, "_vsel_bulk", lambda m, vop: False):
        want = simulator.run(text)
    assert got.ub.tobytes() == want.ub.tobytes()


# -- 2. block-granular hazard checks against the per-byte ones ----------------------------------
@contextmanager
def byte_hazards():
    """Runs within use the per-byte reference hazard checks instead of simulator/hazards.py."""
    with mock.patch.object(simulator.builder, "history_checks",
                           lambda checks: [] if checks == "off" else [ByteHazardChecks()]):
        yield


def outcome(text: str) -> tuple[list, bytes | None]:
    """Every diagnostic (line, col, severity, message) and the final UB (None on an error)."""
    try:
        res = simulator.run(text, checks="warn")
    except (SimulationError, AssemblyError) as e:
        return [(d.line, d.column, d.severity, d.message) for d in e.diagnostics], None
    return [(d.line, d.column, d.severity, d.message) for d in res.diagnostics], bytes(res.ub)


def same_as_byte_hazards(text: str) -> list:
    got = outcome(text)
    with byte_hazards():
        want = outcome(text)
    assert got[0] == want[0], f"diagnostics differ:\n{got[0]}\nper-byte:\n{want[0]}\n{text}"
    assert got[1] == want[1], f"UB differs\n{text}"
    return got[0]


PAIRS = (("MTE2", "V"), ("V", "MTE3"), ("V", "MTE2"), ("MTE3", "V"), ("MTE2", "MTE3"),
         ("MTE3", "MTE2"))


class PipeGen(BulkGen):
    """Vector instructions (partial masks, overlapping repeats) among DMA on MTE2/MTE3,
    byte-granular padded copies, flags and barriers, often unsynchronised."""

    def __init__(self, draw):
        super().__init__(draw, overlap=False)
        self.decls += [".gm g u8[4096] input = random(7)", ".gm o u8[4096] output"]
        self.pending: list[str] = []

    def repeats_field(self) -> int:
        return self.draw(st.sampled_from((1, 2, 3, 8, 64, 255)))

    def dma_in(self) -> None:
        nburst, gap = self.draw(st.integers(1, 3)), self.draw(st.integers(0, 2))
        self.used = set()
        if self.draw(st.booleans()):
            burst = self.draw(st.integers(1, 4))
            dst = self.operand("u8", nburst * (burst + gap) * 32, "bits")[0]
            self.lines.append(f"copy_gm_to_ub {dst}, g[{self.draw(st.integers(0, 64)) * 32}], "
                              f"nburst={nburst}, burst={burst}, dst_gap={gap}")
            return
        length, left, right = (self.draw(st.integers(1, 80)), self.draw(st.integers(0, 3)),
                               self.draw(st.integers(0, 3)))
        blocks = -(-(left + length + right) // 32)
        dst = self.operand("u8", nburst * (blocks + gap) * 32, "bits")[0]
        pad = f", pad_value={self.draw(st.integers(0, 255))}" if self.draw(st.booleans()) \
            else ""
        self.lines.append(f"copy_gm_to_ub_pad.u8 {dst}, g[{self.draw(st.integers(0, 900))}], "
                          f"nburst={nburst}, len={length}, src_gap={self.draw(st.integers(0, 5))}"
                          f", dst_gap={gap}, left_pad={left}, right_pad={right}{pad}")

    def dma_out(self) -> None:
        nburst, gap = self.draw(st.integers(1, 3)), self.draw(st.integers(0, 2))
        self.used = set()
        if self.draw(st.booleans()):
            burst = self.draw(st.integers(1, 4))
            src = self.operand("u8", nburst * (burst + gap) * 32, "bits")[0]
            self.lines.append(f"copy_ub_to_gm o[{self.draw(st.integers(0, 64)) * 32}], {src}, "
                              f"nburst={nburst}, burst={burst}, src_gap={gap}")
            return
        length = self.draw(st.integers(1, 80))
        src = self.operand("u8", nburst * (-(-length // 32) + gap) * 32, "bits")[0]
        self.lines.append(f"copy_ub_to_gm_pad.u8 o[{self.draw(st.integers(0, 900))}], {src}, "
                          f"nburst={nburst}, len={length}, src_gap={gap}")

    def sync(self) -> None:
        k = self.draw(st.integers(0, 4))
        if k == 4:
            self.lines.append(f"pipe_barrier {self.draw(st.sampled_from(('ALL', 'V', 'MTE2')))}")
        elif k == 3 and self.pending:
            self.lines.append(self.pending.pop(0))
        else:
            src, dst = self.draw(st.sampled_from(PAIRS))
            eid = self.draw(st.integers(0, 1))
            self.lines.append(f"set_flag {src}, {dst}, {eid}")
            wait = f"wait_flag {src}, {dst}, {eid}"
            if self.draw(st.booleans()):
                self.lines.append(wait)
            else:
                self.pending.append(wait)

    def program(self) -> str:
        steps = (self.bulk, self.binary, self.unary, self.dma_in, self.dma_in, self.dma_out,
                 self.sync, self.sync, self.cmpmask_move, self.mask)
        for _ in range(self.draw(st.integers(2, 9))):
            self.draw(st.sampled_from(steps))()
        self.lines += self.pending
        return "\n".join([".chip ascend910b", *self.decls, *self.lines]) + "\n"


@st.composite
def pipe_programs(draw) -> str:
    return PipeGen(draw).program()


@settings(SETTINGS, max_examples=120)
@given(pipe_programs())
def test_hazard_diagnostics_match_the_per_byte_checks(text):
    same_as_byte_hazards(text)


@settings(SETTINGS, max_examples=40)
@given(bulk_programs())
def test_bulk_layout_diagnostics_match_the_per_byte_checks(text):
    same_as_byte_hazards(text)


class NaiveFootprints(Observer):
    """Checks each vector event's UB ranges against its bytes worked out element by element."""

    def on_event(self, ev) -> None:
        vop = ev.vop
        if vop is None or not vop.repeats:
            return
        for role, lo, hi, idx, _ in ev.ub_ranges():
            acc = vop.access(role)
            if acc is None or acc.kind != "vector":
                continue
            addrs = vop.byte_addrs(acc)
            if not (vop.all_active or role in vop.full_roles):
                addrs = addrs[vop.active]
            want = np.unique((addrs.reshape(-1, 1) + np.arange(acc.size)).reshape(-1))
            got = np.arange(lo, hi) if idx is None else idx
            assert np.array_equal(got, want), (ev.text, role)


@settings(SETTINGS, max_examples=40)
@given(st.one_of(bulk_programs(), pipe_programs()))
def test_vector_footprints_are_the_bytes_of_the_active_elements(text):
    try:
        simulator.run(text, checks="warn", observers=[NaiveFootprints()])
    except (SimulationError, AssemblyError):
        pass


# -- 3. pinned diagnostics on partial blocks and overlapping repeats ----------------------------
HEAD = """.chip ascend910b
.gm g u8[4096] input = random(1)
.gm o u8[4096] output
.ub a u8[256] @0x0
.ub b f32[4128] @0x100 = random(2)
.ub z f32[4128] @0x4200
.ub m u8[32] @0x8300 = random(3)
"""
HEAD_LINES = HEAD.count("\n")


def warnings_of(body: str) -> list[tuple[int, str]]:
    diags = same_as_byte_hazards(HEAD + body)
    return [(line - HEAD_LINES, msg) for line, _, sev, msg in diags if sev == "warning"]


def test_a_read_past_a_padded_copy_warns_at_the_first_unwritten_byte():
    # 20 data bytes after 3 pad bytes: bytes 0..2 are skipped (no pad value), 3..22 written
    body = ("copy_gm_to_ub_pad.u8 a, g, len=20, left_pad=3\nset_flag MTE2, MTE3, 0\n"
            "wait_flag MTE2, MTE3, 0\ncopy_ub_to_gm o, a, burst=1\n")
    (line, msg), = warnings_of(body)
    assert line == 4 and msg.startswith("copy_ub_to_gm src a reads byte 0x0, which was never "
                                        "written")


def test_a_partial_block_written_then_read_in_full_finds_its_unwritten_head():
    # without a pad value the 3 bytes of left padding are not written (the data and the dummy
    # bytes up to the block boundary are: issue #27)
    body = ("copy_gm_to_ub_pad.u8 a, g, len=20, left_pad=3\n"
            "set_flag MTE2, MTE3, 0\nwait_flag MTE2, MTE3, 0\ncopy_ub_to_gm o, a, burst=1\n")
    (line, msg), = warnings_of(body)
    assert line == 4 and "reads byte 0x0, which was never written" in msg


def test_a_race_on_a_partial_block_names_the_first_shared_byte():
    # MTE2 writes bytes 0x100.. 0x113 of b; V then reads b unsynchronised
    body = ("copy_gm_to_ub_pad.u8 b, g, len=20, left_pad=0\n"
            "vadds.f32 z, b, 1.0, repeat=2\n")
    (line, msg), = warnings_of(body)
    assert line == 2 and msg.startswith("race: vadds.f32 on V reads src b byte 0x100, which "
                                        "copy_gm_to_ub_pad.u8 on MTE2 at line")


def test_a_masked_read_beside_a_partial_write_is_no_race():
    # MTE2 writes bytes 16..31 (elements 4..7 of b: 16 bytes of left padding without a pad
    # value are not written); V reads only elements 0..3 of each repeat
    body = ("copy_gm_to_ub_pad.u8 b, g, len=16, left_pad=16\nset_vector_mask 0, 0x0f\n"
            "vadds.f32 z, b, 1.0, repeat=2\n")
    assert warnings_of(body) == []


def test_overlapping_destination_repeats_then_an_unsynchronised_copy_out():
    # dst repeats 2 blocks apart: z's 16,512 bytes are written; MTE3 reads them with no flag
    body = ("set_cmpmask m\nvsel.f32 z, b, b, repeat=255, stride=1,1,1,2,2,0\n"
            "copy_ub_to_gm o, z[1000], burst=4\n")
    (line, msg), = warnings_of(body)
    assert line == 3 and msg.startswith("race: copy_ub_to_gm on MTE3 reads src z byte "
                                        "0x51a0, which vsel.f32 on V at line")
    assert "read-after-write" in msg


def test_a_half_block_cmpmask_move_after_a_partial_write():
    # get_cmpmask writes 16 bytes at 0x10 (half a block); MTE3 then reads the whole block
    body = ("set_cmpmask m\nget_cmpmask @0x10\nset_flag V, MTE3, 0\nwait_flag V, MTE3, 0\n"
            "copy_ub_to_gm o, a, burst=1\n")
    (line, msg), = warnings_of(body)
    assert line == 5 and "reads byte 0x0, which was never written" in msg


def test_block_records_match_per_byte_values_through_splits_and_joins():
    """A block split by a partial write and joined again by a whole-block write reads back
    as a per-byte array would."""
    from simulator.footprints import Record, index_footprint, span_footprint

    rec, ref = Record(256, -1), np.full(256, -1, np.int32)
    steps = [(span_footprint(3, 40), slice(3, 40), 5), (span_footprint(0, 64), slice(0, 64), 6),
             (index_footprint(np.array([1, 2, 33, 200])), [1, 2, 33, 200], 7),
             (span_footprint(32, 96), slice(32, 96), 8)]
    for fp, where, value in steps:
        rec.fill(fp, value)
        ref[where] = value
        assert (rec.values(0, 256, None) == ref).all()
    assert not rec.may_hold(span_footprint(64, 128), lambda v: v == 7)
    assert rec.may_hold(index_footprint(np.array([200])), lambda v: v == 7)


def test_a_record_is_made_at_its_first_use():
    """A record's arrays are made when it is first filled, asked or read (its methods, or its
    `block` / `mixed` read directly) — every byte its fill value until then — so a run leaves
    the records it never needed unmade (here every reader's: the pipes but V are idle, and
    V's read fill still waits when the run ends)."""
    from simulator.footprints import Record, span_footprint
    from simulator.hazards import PIPES

    read = Record(256, -1)
    assert not read.made
    assert (read.values(0, 256, None) == -1).all() and read.made
    asked = Record(256, 3)
    assert asked.may_hold(span_footprint(8, 40), lambda v: v == 3)
    assert not Record(256, 3).may_hold(span_footprint(0, 64), lambda v: v != 3)
    assert not Record(256, 3).may_hold(span_footprint(4, 9), lambda v: v != 3)  # (a split)
    filled, ref = Record(256, 0), np.zeros(256, np.int32)
    filled.fill(span_footprint(5, 70), 9)
    ref[5:70] = 9
    assert (filled.values(0, 256, None) == ref).all()
    rows = Record(256, 0)  # (a batch's rows of blocks)
    rows.fill_rows(np.array([[0, 1], [1, 2]], np.int64), np.array([4, 5], np.int32))
    assert (rows.values(0, 128, None) == np.repeat([4, 5, 5, 0], 32)).all()
    direct = Record(256, 7)
    assert (direct.block == 7).all() and direct.made and not Record(256, 7).mixed.any()

    def hazards_of(text: str) -> HazardChecks:
        made, history = [], simulator.builder.history_checks

        def spy(checks):
            observers = history(checks)
            made.extend(observers)
            return observers
        with mock.patch.object(simulator.builder, "history_checks", spy):
            simulator.run(text)
        hazards, = [ob for ob in made if isinstance(ob, HazardChecks)]
        return hazards
    hazards = hazards_of(".chip ascend910b\n.ub a f32[64] = random(1)\n.ub d f32[64]\n"
                         "vadd.f32 d, a, a\n")
    # every read lies within INIT's bytes (no look at the writer's record) and the write's
    # fill waits: the writer's record, INIT's bytes and all, is never made
    assert not hazards.writer.made
    assert [rec.made for rec in hazards.readers] == [False] * len(PIPES)
    assert (hazards.writer.values(0, 512, None) == np.repeat([0, -1], 256)).all()
    # no INIT: the writer is made by the first check that reads it
    hazards = hazards_of(".chip ascend910b\n.ub d f32[128]\n.ub e f32[64]\n"
                         "vadd.f32 e, d, d\n")
    assert hazards.writer.made and not any(rec.made for rec in hazards.readers)


def test_the_comparison_runs_the_block_granular_checks_against_the_per_byte_ones():
    assert [type(ob) for ob in simulator.builder.history_checks("error")] == [HazardChecks]
    with byte_hazards():
        assert [type(ob) for ob in simulator.builder.history_checks("error")] == \
            [ByteHazardChecks]
