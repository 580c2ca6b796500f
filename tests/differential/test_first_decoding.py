"""The fast paths of a line's first decoding, each against the general path it shortcuts.

1. The bank cost's layout key (simulator/timing/banks.py `bank_layout`): two layouts with the
   same key cost the same beats, on every bank model — random strides (block stride 0 included),
   repeats, partial MASK and counter mode, vector and bit operands, operands moved apart by
   whole bank periods and across 64 KB regions.
2. `checks.extent` of an operand all of whose elements are touched, by arithmetic, against the
   offset table (`checks._offsets_extent`).
3. `span_footprint` of whole blocks against the bytes [lo, hi).
4. `decode_vector`'s remembered plan against a decoding made with no plan remembered.
"""

from __future__ import annotations

import attrs
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import isa
import isa.chip
import isa.decode
from isa.decode import Access, BlockBytes, _whole_block_bytes, decode_vector
from simulator import checks, footprints
from simulator.footprints import BLOCK, index_footprint, span_footprint
from simulator.timing.banks import bank_model
from simulator.timing.config import load_config

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)
ONES = (1 << 64) - 1
UB = 1 << 18
CHIPS = ("ascend910b", "ascend950")
# (line, roles): a three-operand vector op, a one-source one, vsel mode 1 (a bit operand)
LINES = (("vadd.{t} @0x0, @0x100, @0x200", ("dst", "src0", "src1")),
         ("vcopy.{t} @0x0, @0x100", ("dst", "src")),
         ("vsel.{t} @0x0, @0x100, @0x200, mode=1", ("dst", "src0", "src1")))
_PROGRAMS: dict = {}


def instruction(line: str, fields: str, chip: str = "ascend910b"):
    key = (line, fields, chip)
    if key not in _PROGRAMS:
        text = f".chip {chip}\n    {line}{', ' + fields if fields else ''}\n"
        _PROGRAMS[key] = isa.assemble(text, checks="off").statements[0].hw[0]
    return _PROGRAMS[key]


@st.composite
def layouts(draw):
    """(instruction, MASK, counter, addresses by role) of a random vector layout."""
    k = draw(st.integers(0, len(LINES) - 1))
    line, roles = LINES[k]
    t = draw(st.sampled_from(("f32", "f16")))
    repeat = draw(st.integers(1, 6))
    strides = [f"repeat={repeat}"]
    for role in roles:
        if k == 2 and role == "src1":
            continue  # the select mask: a bit stream
        strides.append(f"{role}_blk={draw(st.sampled_from((1, 0, 2, 1, 3)))}")
        strides.append(f"{role}_rep={draw(st.sampled_from((8, 0, 1, 4, 8, 16)))}")
    instr = instruction(line.format(t=t), ", ".join(strides), draw(st.sampled_from(CHIPS)))
    counter = draw(st.booleans())
    if counter:
        mask = (0, draw(st.integers(1, repeat * (256 // int(t[1:]) * 8))))
    else:
        mask = draw(st.sampled_from(((ONES, ONES), (0, 0xFF), (ONES, 1 << 63), (5, 0xF0F0))))
    base = draw(st.integers(0, (UB - 8192) // 32)) * 32
    addrs = {role: base + draw(st.integers(-64, 64)) * 32 for role in roles}
    if k == 2:  # a select mask may start anywhere in a block
        addrs["src1"] += draw(st.integers(0, 31))
    return instr, mask, counter, {r: max(0, a) for r, a in addrs.items()}


def decode(instr, addrs, mask, counter):
    return decode_vector(instr, addrs, dict(instr.fields), mask, counter)


MODELS = {chip: bank_model(load_config(isa.chip.get_chip(chip)).bank) for chip in CHIPS}


@SETTINGS
@given(layouts(), st.data())
def test_same_bank_layout_key_same_beats(layout, data):
    """Moves that keep the key (operands shifted by whole bank periods, or all of them by a
    region) and moves that may not (parts of a period): equal keys, equal beats."""
    instr, mask, counter, addrs = layout
    vop = decode(instr, addrs, mask, counter)
    if vop.repeats == 0:
        return
    for model in MODELS.values():
        period = model.groups * 32
        # whole periods (the key kept), with now and then a part of one (it may change)
        moved = {role: a + period * data.draw(st.sampled_from((0, 0, 1, -1, 7, 64, 129)))
                 + data.draw(st.sampled_from((0, 0, 0, 0, 32, 128, 256)))
                 for role, a in addrs.items()}
        if data.draw(st.booleans()):
            moved = {r: a + (1 << 16) for r, a in moved.items()}
        if min(moved.values()) < 0 or max(moved.values()) > UB - 8192:
            continue
        other = decode(instr, moved, mask, counter)
        if model.layout_key(vop) == model.layout_key(other):
            assert model.beats(vop, 1).tolist() == model.beats(other, 1).tolist()


def test_bank_layout_key_is_shared_and_exact():
    """Not vacuous: many random moves keep the key; and the key tells apart layouts whose beats
    differ (operands in the same row, in one bank across the region boundary)."""
    rng = np.random.default_rng(7)
    shared = 0
    for _ in range(300):
        line, roles = LINES[int(rng.integers(0, 2))]
        instr = instruction(line.format(t="f32"), f"repeat={int(rng.integers(1, 5))}")
        addrs = {r: int(rng.integers(0, 4000)) * 32 for r in roles}
        for model in MODELS.values():
            vop = decode(instr, addrs, (ONES, ONES), False)
            moved = {r: a + model.groups * 32 * int(rng.integers(0, 3)) * 40
                     for r, a in addrs.items()}
            other = decode(instr, moved, (ONES, ONES), False)
            if model.layout_key(vop) == model.layout_key(other):
                shared += 1
                assert model.beats(vop, 1).tolist() == model.beats(other, 1).tolist()
    assert shared > 100
    vcopy = instruction("vcopy.f32 @0x0, @0x100", "")
    b910 = MODELS["ascend910b"]
    # a read and a write 16 groups apart: one bank within a region, two across the boundary
    same = decode(vcopy, {"dst": 0x10E20, "src": 0x10020}, (ONES, ONES), False)
    apart = decode(vcopy, {"dst": 0x0FE20, "src": 0x10020}, (ONES, ONES), False)
    assert b910.beats(same, 1).tolist() != b910.beats(apart, 1).tolist()
    assert b910.layout_key(same) != b910.layout_key(apart)


@st.composite
def accesses(draw):
    size = draw(st.sampled_from((1, 2, 4, 8)))
    count = draw(st.sampled_from((0, 0, 256 // size // 2, 256 // size // 4)))
    return isa.decode.Access("src0", draw(st.integers(0, 4096)) * 32, "vector", size,
                             draw(st.integers(0, 9)), draw(st.integers(0, 20)),
                             count=count if count * size >= 32 else 0)


class _AllActive:
    """What `extent` reads of a decoding whose elements are all touched."""

    def __init__(self, repeats: int):
        self.repeats, self.all_active, self.full_roles = repeats, True, ()


@SETTINGS
@given(accesses(), st.integers(1, 255))
def test_extent_by_arithmetic_matches_the_offset_table(acc, repeats):
    vop = _AllActive(repeats)
    assert checks.extent(vop, acc) == checks._offsets_extent(vop, acc)


@SETTINGS
@given(layouts())
def test_extent_of_decodings_matches_the_offset_table(layout):
    """Partial MASK and counter mode keep the general path; all-active decodings the fast."""
    instr, mask, counter, addrs = layout
    vop = decode(instr, addrs, mask, counter)
    for acc in vop.operands:
        if acc.kind == "vector" and vop.repeats:
            assert checks.extent(vop, acc) == checks._offsets_extent(vop, acc)


@SETTINGS
@given(st.integers(0, 4096), st.integers(0, 4096))
def test_span_footprint_is_the_bytes_of_the_span(lo, length):
    hi = lo + length  # as drawn, and widened to whole blocks (the fast path)
    for a, b in ((lo, hi), (lo // BLOCK * BLOCK, hi // BLOCK * BLOCK + BLOCK)):
        fp = span_footprint(a, b)
        got = set()
        if fp.full is not None:
            got |= {x for k in range(fp.full.start, fp.full.stop) for x in range(k * BLOCK,
                                                                                 (k + 1) * BLOCK)}
        if fp.part is not None:
            got |= set(fp.part.tolist())
            # sorted and distinct, as np.unique leaves them (Record._split takes them so)
            assert fp.blocks.dtype == np.int64 and fp.part.dtype == np.int64
            assert fp.blocks.tolist() == sorted({x // BLOCK for x in fp.part.tolist()})
        assert got == set(range(a, b))


@SETTINGS
@given(layouts(), layouts())
def test_decode_plan_matches_a_fresh_decoding(first, second):
    """The second decoding of a shape (new addresses, its plan remembered) is the decoding
    made afresh."""
    for instr, mask, counter, addrs in (first, second):
        decode(instr, {r: a + 4096 for r, a in addrs.items()}, mask, counter)  # plans it
        planned = decode(instr, addrs, mask, counter)
        isa.decode._PLANS.clear()
        fresh = decode(instr, addrs, mask, counter)
        assert planned.operands == fresh.operands
        assert (planned.repeats, planned.n, planned.last, planned.all_active, planned.mask,
                planned.counter) == (fresh.repeats, fresh.n, fresh.last, fresh.all_active,
                                     fresh.mask, fresh.counter)
        assert planned.row.tolist() == fresh.row.tolist()


@st.composite
def small_layouts(draw):
    """(instruction, roles) of a few repeats with small strides: where rows of two operands
    meet at some distances and not at others."""
    line, roles = LINES[draw(st.sampled_from((0, 2)))]
    strides = [f"repeat={draw(st.integers(1, 4))}"]
    for role in roles:
        if not (line.startswith("vsel") and role == "src1"):
            strides.append(f"{role}_blk={draw(st.sampled_from((0, 1, 2)))}")
            strides.append(f"{role}_rep={draw(st.sampled_from((0, 1, 8)))}")
    t = draw(st.sampled_from(("f32", "f16")))
    # near a 64 KB region's end, some operands straddle two regions
    base = draw(st.sampled_from((0x8000, 0x10000 - 96, 0x10000 - 32)))
    sel_offset = draw(st.sampled_from((0, 8, 24))) if line.startswith("vsel") else 0
    return instruction(line.format(t=t), ", ".join(strides)), roles, base, sel_offset


@settings(max_examples=80, deadline=None, derandomize=True)
@given(small_layouts())
def test_bank_layout_key_at_every_distance(layout):
    """Each pair of operands swept over every row distance across and past their spans, each
    layout against itself a bank period (and a region) farther: equal keys, equal beats —
    where the key keeps exact distances and where it drops them is where rows stop meeting."""
    instr, roles, base, sel_offset = layout
    for model in MODELS.values():
        period = model.groups * 32
        for p in roles:
            for q in roles:
                if p == q:
                    continue
                for d in range(-1024, 1024 + 1, 32):
                    at = dict.fromkeys(roles, base - 2048)
                    at.update({p: base, q: base + d})
                    at["src1"] += sel_offset  # vsel's select mask may start mid-block
                    vop = decode(instr, at, (ONES, ONES), False)
                    key, beats = model.layout_key(vop), model.beats(vop, 1).tolist()
                    for shift in (period, -period, 1 << 16, 8, 24):  # 8, 24: in its row
                        other = decode(instr, dict(at, **{q: at[q] + shift}), (ONES, ONES),
                                       False)
                        if model.layout_key(other) == key:
                            assert model.beats(other, 1).tolist() == beats


def test_bank_layout_key_of_an_operand_across_a_region_boundary():
    """910b: a source whose second repeat lies past a 64 KB boundary meets the destination's
    bank in its first repeat only; moved a period down (all of it in the first region) it
    meets it in both: the key tells the two apart."""
    vcopy = instruction("vcopy.f32 @0x0, @0x100", "repeat=2")
    model = MODELS["ascend910b"]
    across = decode(vcopy, {"dst": 0xF700, "src": 0xFF00}, (ONES, ONES), False)
    below = decode(vcopy, {"dst": 0xF700, "src": 0xFD00}, (ONES, ONES), False)
    assert model.beats(across, 1).tolist() != model.beats(below, 1).tolist()
    assert model.layout_key(across) != model.layout_key(below)


def _same_footprint(a, b) -> None:
    for x, y in ((a.full, b.full), (a.part, b.part), (a.blocks, b.blocks)):
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            assert isinstance(x, np.ndarray) and isinstance(y, np.ndarray)
            assert x.dtype == y.dtype and x.tolist() == y.tolist()
        else:
            assert x == y


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 200), st.sampled_from((32, 32, 32, 31, 5)),
                          st.sampled_from((0, 0, 0, 8))), min_size=1, max_size=12),
       st.booleans())
def test_index_footprint_of_whole_blocks_matches_counting(runs, shuffle):
    """Whole blocks in increasing order (the fast path) and anything near it — repeated or
    unordered blocks, part blocks, a run starting mid-block — against counting each block's
    bytes."""
    starts = sorted({b for b, *_ in runs}) if not shuffle else [b for b, *_ in runs]
    shape = {b: (n, shift) for b, n, shift in runs}
    idx = np.concatenate([np.arange(b * BLOCK + shape[b][1], b * BLOCK + shape[b][1] + shape[b][0])
                          for b in starts]).astype(np.int64)
    _same_footprint(index_footprint(idx), footprints._index_footprint(idx))


@SETTINGS
@given(st.integers(1, 255), st.integers(0, 4), st.integers(0, 16), st.sampled_from((1, 2, 4)),
       st.integers(0, 64))
def test_whole_block_bytes_are_the_footprint(repeats, blk, rep, size, base_block):
    """A whole-block operand's range (isa/decode.py `BlockBytes`): its bytes are the
    operand's footprint, numpy takes them as that array, and its hazard footprint is the
    one counted from the bytes."""
    vcopy = instruction("vcopy.f32 @0x0, @0x100", f"repeat={repeats}")
    vop = decode(vcopy, {"dst": 0x30000, "src": 0}, (ONES, ONES), False)
    src = Access("src", base_block * BLOCK, "vector", size, blk, rep)
    vop = attrs.evolve(vop, operands=(vop.access("dst"), src))
    got = _whole_block_bytes(vop, src)
    want = vop.footprint(src)
    assert isinstance(got, BlockBytes) and got.size == want.size == len(got)
    assert np.asarray(got, np.int64).tolist() == want.tolist() == got.bytes().tolist()
    assert int(got[0]) == int(want[0]) and int(got[-1]) == int(want[-1])
    ub = np.zeros(0x40000, bool)
    ub[got] = True
    assert np.flatnonzero(ub).tolist() == want.tolist()
    _same_footprint(index_footprint(got), footprints._index_footprint(want))
    moved, off = got + 2 * BLOCK, got + 3  # a moved decoding's (isa/decode.py _moved_ranges)
    assert isinstance(moved, BlockBytes) and np.asarray(moved).tolist() == (want + 64).tolist()
    assert isinstance(off, np.ndarray) and off.tolist() == (want + 3).tolist()
    ranges = {r[0]: r for r in vop.ub_ranges()}
    lo, hi, idx = ranges["src"][1:4]
    assert (lo, hi) == (int(want[0]), int(want[-1]) + 1)
    assert (idx is None) == (hi - lo == want.size)
