"""vconv's numpy path (simulator/semantics/convert_fast.py) against the exact integer path
(`exact_convert`), bit for bit, for every pair and mode of its table: every bit pattern of an
8- or 16-bit source, and for a 32- or 64-bit source the specials, halfway cases and boundaries
of tests/unit/test_convert.py with many random patterns; a sample against the element-by-element
reference (tests/reference/convert.py) too. test_convert.py checks `convert`, which takes this
path, against the reference on every pair a chip lists."""

from __future__ import annotations

import numpy as np
import pytest

from isa.chip import chip_names, get_chip
from isa.types import TYPES
from simulator.semantics.convert import exact_convert
from simulator.semantics.convert_fast import FAST, fast_convert
from tests.reference.convert import convert_one
from tests.unit.test_convert import _halfways, _specials

ENTRIES = sorted((src, dst, mode) for (src, dst), (modes, _) in FAST.items() for mode in modes)


def _patterns(src: str, dst: str) -> np.ndarray:
    t = TYPES[src]
    bits = 4 if t.nibble else 8 * t.size
    if bits <= 16:
        return np.arange(1 << bits, dtype=np.uint64).astype(t.raw)
    rng = np.random.default_rng(bits)
    pats = [*_specials(src), *_halfways(src, dst)]
    near = [int(p) + d for p in pats for d in (-2, -1, 1, 2) if 0 <= int(p) + d < 1 << bits]
    rand = rng.integers(0, 1 << 63, 40_000, dtype=np.uint64) >> np.uint64(64 - bits)
    if t.size == 4:  # values near 1 and near the integer ranges: exponents 0x7e..0xa0
        mid = rng.integers(0x3F000000, 0x50000000, 20_000, dtype=np.uint64)
        rand = np.concatenate([rand, mid, mid | np.uint64(0x80000000)])
    return np.concatenate([np.array(pats + near, np.uint64), rand]).astype(t.raw)


@pytest.mark.parametrize(("src", "dst", "mode"), ENTRIES)
def test_fast_path_equals_the_exact_path(src, dst, mode):
    raw = _patterns(src, dst)
    s, d = TYPES[src], TYPES[dst]
    got = fast_convert(raw, s, d, mode)
    want = exact_convert(raw, s, d, mode)
    assert got is not None and got.dtype == want.dtype and got.shape == want.shape
    bad = np.flatnonzero(got != want)
    assert not bad.size, f"{src}->{dst} {mode}: (input, numpy path, exact) " + str(
        [(hex(int(raw[i])), hex(int(got[i])), hex(int(want[i]))) for i in bad[:6]])


@pytest.mark.parametrize(("src", "dst", "mode"), ENTRIES)
def test_fast_path_equals_the_reference_on_a_sample(src, dst, mode):
    raw = _patterns(src, dst)
    sample = raw[np.random.default_rng(1).integers(0, raw.size, 300)]
    got = fast_convert(sample, TYPES[src], TYPES[dst], mode)
    want = [convert_one(src, dst, int(p), mode) for p in sample]
    assert [int(g) for g in got] == want


def test_every_pair_of_the_table_is_one_a_chip_converts():
    listed = {tuple(reversed(pair.split("."))) for name in chip_names()
              for pair in get_chip(name).conversions}
    assert set(FAST) <= listed


def test_other_modes_and_pairs_take_the_exact_path():
    raw = np.array([0x3F800001], np.uint32)
    assert fast_convert(raw, TYPES["f32"], TYPES["f16"], "floor") is None  # no numpy rounding
    assert fast_convert(raw, TYPES["f32"], TYPES["s64"], "rint") is None  # not in the table
    assert fast_convert(raw, TYPES["s32"], TYPES["f32"], "trunc") is None
