"""Random API-level conversions and bit operations against the exact references, element by
element: `cast.DST.SRC … count=N` in every pair and round mode of ascend910b (counter mode) and
ascend910 (chunks of full repeats and a masked tail), `abs` / `not` / `and` / `or`, and the
padded copies' byte layout; the elements past N must be untouched."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simulator
from isa.chip import get_chip
from tests.reference.convert import FLOATS, convert_one, width

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
SPECIAL = {"f16": [0x0000, 0x8000, 0x0001, 0x83FF, 0x3C00, 0x3800, 0x3E00, 0x7BFF, 0x7C00,
                   0xFC00, 0x7E00, 0xFD01, 0x5BF8, 0x5800],
           "f32": [0x00000000, 0x80000000, 0x00000001, 0x3F000000, 0x3FC00000, 0x40200000,
                   0x477FF000, 0x477FEFFF, 0x4F000000, 0xCF000001, 0x7F800000, 0xFF800000,
                   0x7FC00001, 0x33000000, 0x33400000, 0xBF000000],
           "bf16": [0x0000, 0x8000, 0x3F80, 0x3FC0, 0x7F80, 0xFF80, 0x7FC1, 0x0001]}


def _pairs(chip: str) -> list[tuple[str, str, str]]:
    # s4 (two elements a byte) has its own byte-level test: tests/differential/test_int4.py
    return [(*pair.split("."), m) for pair, modes in get_chip(chip).conversions.items()
            for m in modes if "s4" not in pair.split(".")]


@st.composite
def casts(draw):
    chip = draw(st.sampled_from(("ascend910b", "ascend910b", "ascend910")))
    dst, src, mode = draw(st.sampled_from(_pairs(chip)))
    n = draw(st.sampled_from((1, 63, 64, 65, 128, 129, 300, 513)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    bits = rng.integers(0, 1 << width(src), n, dtype=np.uint64)
    if src in SPECIAL:
        pick = rng.random(n) < 0.5
        bits[pick] = rng.choice(SPECIAL[src], int(pick.sum()))
    elif src not in FLOATS:  # integers: mostly small, some at the range's ends
        small = (rng.integers(-300, 300, n).astype(np.uint64)
                 & np.uint64((1 << width(src)) - 1))
        bits = np.where(rng.random(n) < 0.6, small, bits).astype(np.uint64)
        if src == "s64":  # around 2^62, 2^63 and float's 24 bits (the sticky-bit shortcut)
            edges = np.array([1 << 62, (1 << 62) + 1, (1 << 63) - 1, 1 << 63, (1 << 63) + 1,
                              (1 << 24) + 1, (1 << 62) - 1, (1 << 64) - (1 << 62) - 3],
                             np.uint64)
            pick = rng.random(n) < 0.3
            bits[pick] = rng.choice(edges, int(pick.sum()))
    return chip, dst, src, mode, n, [int(b) for b in bits]


@SETTINGS
@given(casts())
def test_cast_count_form_matches_the_exact_reference(case):
    chip, dst, src, mode, n, bits = case
    count = -(-n // 64) * 64 + 64  # room for elements past N
    ws, wd = width(src) // 8, width(dst) // 8
    data = np.zeros(count, RAW[ws])
    data[:n] = bits
    at = -(-count * ws // 32) * 32
    text = (f".chip {chip}\n"
            f'.ub x {src}[{count}] @0x0 = bits("{data.tobytes().hex()}")\n'
            f'.ub y {dst}[{count}] @{at:#x} = bits("{"5a" * count * wd}")\n'
            f"cast.{dst}.{src} y, x, round={mode}, count={n}\n")
    res = simulator.run(text)
    got = np.frombuffer(bytes(res.ub[at:at + count * wd]), RAW[wd])
    want = [convert_one(src, dst, b, mode) for b in bits]
    bad = [(hex(b), hex(int(g)), hex(w)) for b, g, w in zip(bits, got[:n], want, strict=True)
           if int(g) != w]
    assert not bad, f"{chip} cast.{dst}.{src} round={mode}: (in, got, want) {bad[:6]}"
    assert (got[n:].view(np.uint8) == 0x5a).all(), "elements past count were written"


@SETTINGS
@given(st.sampled_from(("abs.f16", "abs.f32", "not.s16", "not.u16", "and.s16", "or.u16",
                        "copy.f32", "copy.u16", "copy.s32")),
       st.integers(1, 700), st.integers(0, 2**32 - 1), st.sampled_from(("ascend910b",
                                                                        "ascend910")))
def test_bit_operations_count_form(op, n, seed, chip):
    name, t = op.split(".")
    size = 2 if t in ("f16", "s16", "u16") else 4
    raw = RAW[size]
    count = -(-n // 128) * 128 + 128
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 1 << (8 * size), count, dtype=np.uint64).astype(raw)
    b = rng.integers(0, 1 << (8 * size), count, dtype=np.uint64).astype(raw)
    nbytes = count * size
    srcs = "y, a, b" if name in ("and", "or") else "y, a"
    text = (f".chip {chip}\n"
            f'.ub a {t}[{count}] @0x0 = bits("{a.tobytes().hex()}")\n'
            f'.ub b {t}[{count}] @{nbytes:#x} = bits("{b.tobytes().hex()}")\n'
            f".ub y {t}[{count}] @{2 * nbytes:#x} = bits(\"{'5a' * nbytes}\")\n"
            f"{op} {srcs}, count={n}\n")
    res = simulator.run(text)
    got = np.frombuffer(bytes(res.ub[2 * nbytes:3 * nbytes]), raw)
    want = {"abs": a & raw((1 << (8 * size - 1)) - 1), "not": ~a, "and": a & b,
            "or": a | b, "copy": a}[name]
    assert (got[:n] == want[:n]).all()
    assert (got[n:].view(np.uint8) == 0x5a).all()


@SETTINGS
@given(st.integers(1, 4), st.integers(1, 70), st.integers(0, 40), st.integers(0, 2),
       st.integers(0, 3), st.integers(0, 3), st.booleans())
def test_padded_copy_layout(nburst, length, src_gap, dst_gap, left, right, with_pad):
    """copy_gm_to_ub_pad.u16: every byte where the layout rule puts it, written bytes only;
    the bytes up to each burst's block boundary ("dummy" data) are the pad value, or without
    one the burst's first element, repeated (issue #27: copy_gm_to_ubuf_align's rule)."""
    gm = np.arange(1024, dtype=np.uint16)
    length *= 2  # whole u16 elements
    pad = ", pad_value=0xbeef" if with_pad else ""
    text = (".chip ascend910b\n.gm g u16[1024] input = arange(0)\n.gm o u16[1024] output\n"
            '.ub u u16[2048] @0x0 = bits("' + "11" * 4096 + '")\n'
            f"copy_gm_to_ub_pad.u16 u, g[3], nburst={nburst}, len={length}, "
            f"src_gap={src_gap}, dst_gap={dst_gap}, left_pad={left}, right_pad={right}{pad}\n")
    res = simulator.run(text)
    ub = bytearray(b"\x11" * 4096)
    src = gm.view(np.uint8)
    run = 2 * left + length + 2 * right
    pitch = (-(-run // 32) + dst_gap) * 32
    end = -(-run // 32) * 32  # each burst's bytes up to the block boundary
    for k in range(nburst):
        s = 6 + k * (length + src_gap)
        d = k * pitch
        if with_pad:
            ub[d:d + end] = b"\xef\xbe" * (end // 2)
        else:  # right padding and dummy bytes: the burst's first element
            tail = d + 2 * left + length
            ub[tail:d + end] = src[s:s + 2].tobytes() * ((d + end - tail) // 2)
        ub[d + 2 * left:d + 2 * left + length] = src[s:s + length].tobytes()
    assert bytes(res.ub[:4096]) == bytes(ub)
