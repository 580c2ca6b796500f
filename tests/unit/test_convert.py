"""vconv's element conversion (simulator/semantics/convert.py) against the exact rational
reference (tests/reference/convert.py), bit for bit: every pair and round mode any chip
profile lists, over normals, subnormals, exact halfway cases, signed zeros, NaNs, ±inf,
overflow and random bit patterns; plus the vendor's worked examples."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from isa.chip import chip_names, get_chip
from isa.types import TYPES
from simulator.semantics.convert import convert
from tests.reference.convert import (
    FLOATS,
    INTS,
    convert_one,
    decode,
    encode_float,
    max_finite,
    width,
)


def _pairs() -> list[tuple[str, str, str]]:
    out = {}
    for name in chip_names():
        for pair, modes in get_chip(name).conversions.items():
            dst, src = pair.split(".")
            for mode in modes:
                out[(dst, src, mode)] = None
    return sorted(out)


def _halfways(src: str, dst: str) -> list[int]:
    """Source bit patterns of values exactly halfway between two neighbours of DST (and a hair
    either side), where SRC can hold them."""
    out = []
    if dst in FLOATS and src in FLOATS and FLOATS[src][0] > FLOATS[dst][0]:
        m = FLOATS[dst][0]
        ms = FLOATS[src][0]
        step = 1 << (ms - m - 1)  # half a destination ulp, in source ulps
        for base in (0x3C00, 0x3C01, 0x0001, 0x0002, 0x03FF, 0x7BFF, 0x4000) if dst == "f16" \
                else (0x3F80, 0x3F81, 0x0001, 0x7F7F):
            value = decode(dst, base)[2]  # the destination value, exactly
            if value > max_finite(src):
                continue
            try:
                lo = encode_float(src, False, value)
            except AssertionError:
                continue  # SRC cannot hold it
            for d in (step, step - 1, step + 1):
                for sign in (0, 1 << (width(src) - 1)):
                    out.append(sign | (lo + d))
    if dst in INTS and src in FLOATS:
        for v in ("0.5", "1.5", "2.5", "3.5", "127.5", "128.5", "255.5", "-0.5", "-1.5",
                  "-2.5", "-127.5", "-128.5", "32767.5", "-32768.5", "0.49", "-0.51"):
            value = Fraction(v)
            if abs(value) < 60000:
                try:
                    out.append(encode_float(src, value < 0, abs(value)))
                except AssertionError:
                    pass  # not exactly representable in SRC
    return out


def _specials(src: str) -> list[int]:
    n = width(src)
    sign = 1 << (n - 1)
    if src in INTS:
        bits, signed = INTS[src]
        vals = [0, 1, 2, 3, 127, 128, 255, 2049, 2051, 4097, 65504, 65505, 65520, 70000,
                (1 << 24) + 1, (1 << 24) + 3, (1 << 31) - 1, -1, -2, -2049, -(1 << 31),
                -(1 << 24) - 1, -70000, -128, -129]
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        return [v % (1 << bits) for v in vals if lo <= v <= hi] + [lo % (1 << bits), hi]
    m, e = FLOATS[src]
    top = ((1 << e) - 1) << m
    quiet = 1 << (m - 1)
    pats = [0, 1, 2, 3, (1 << m) - 1, 1 << m, (1 << m) + 1, top - 1, top, top | quiet,
            top | 1, top | quiet | 5, top | ((1 << m) - 1)]
    pats += [((1 << (e - 1)) - 1) << m, (((1 << (e - 1)) - 1) << m) | 1]  # 1.0, 1 + ulp
    if src == "f32":  # around f16's range, subnormals and overflow; around the integers' ranges
        pats += [0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001, 0x47800000, 0x49742400,
                 0x33800000, 0x33000000, 0x33000001, 0x32FFFFFF, 0x33C00000, 0x38800000,
                 0x387FC000, 0x4F000000, 0x4EFFFFFF, 0xCF000000, 0xCF000001, 0x5F000000,
                 0x7F7FFFFF, 0x00800000, 0x007FFFFF]
    if src == "f16":
        pats += [0x57F8, 0x5800, 0x5BF8, 0x5C00, 0x7800, 0x7BFF, 0x5BFC, 0x5BFF]
    return pats + [p | sign for p in pats]


@pytest.mark.parametrize(("dst", "src", "mode"), _pairs())
def test_convert_matches_exact_reference(dst, src, mode):
    rng = np.random.default_rng(hash((dst, src, mode)) & 0xFFFF)
    n = width(src)
    pats = _specials(src) + _halfways(src, dst)
    pats += [int(x) for x in rng.integers(0, 1 << n, 120, dtype=np.uint64)]
    raw = np.array(pats, dtype=TYPES[src].raw)
    got = convert(raw, TYPES[src], TYPES[dst], mode)
    want = [convert_one(src, dst, int(p), mode) for p in raw]
    bad = [(hex(int(p)), hex(int(g)), hex(w)) for p, g, w in zip(raw, got, want, strict=True)
           if int(g) != w]
    assert not bad, f"{src}->{dst} {mode}: (input, simulator, reference) {bad[:8]}"


# the vendor's worked examples (AscendC Cast, table 1): 0.5 + 2^-12 from f32 to f16, and
# 2^22 + 0.5 to s32, in each mode
F16_HALF, F16_HALF_ULP = 0x3800, 0x3801


@pytest.mark.parametrize(("mode", "want"), [("rint", F16_HALF), ("floor", F16_HALF),
                                             ("ceil", F16_HALF_ULP), ("round", F16_HALF_ULP),
                                             ("trunc", F16_HALF), ("odd", F16_HALF_ULP)])
def test_vendor_example_f32_to_f16(mode, want):
    x = np.array([0.5 + 2.0 ** -12], np.float32).view(np.uint32)
    assert int(convert(x, TYPES["f32"], TYPES["f16"], mode)[0]) == want


@pytest.mark.parametrize(("mode", "want"), [("rint", 1 << 22), ("floor", 1 << 22),
                                             ("ceil", (1 << 22) + 1), ("round", (1 << 22) + 1),
                                             ("trunc", 1 << 22)])
def test_vendor_example_f32_to_s32(mode, want):
    x = np.array([2.0 ** 22 + 0.5], np.float32).view(np.uint32)
    assert int(convert(x, TYPES["f32"], TYPES["s32"], mode).view(np.int32)[0]) == want


def test_rint_agrees_with_numpy_on_every_f16_from_f32_sample():
    """A cross-check on a third implementation: numpy's f32 → f16 is rint (IEEE), except that
    it overflows to inf where pipev saturates."""
    rng = np.random.default_rng(7)
    x = rng.integers(0, 1 << 32, 4000, dtype=np.uint64).astype(np.uint32)
    got = convert(x, TYPES["f32"], TYPES["f16"], "rint")
    with np.errstate(over="ignore"):
        want = x.view(np.float32).astype(np.float16)
    finite = np.isfinite(want) | ~np.isfinite(x.view(np.float32))
    nan = np.isnan(want)
    assert (got[finite & ~nan] == want.view(np.uint16)[finite & ~nan]).all()
    assert (got[~finite] & 0x7FFF == 0x7BFF).all()  # overflow saturates at 65504
