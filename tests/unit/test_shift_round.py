"""#27 vshr round_en=1 (ShiftRight's roundEn): the page's example, counts 0, 1, the width and
past it, unsigned types unrounded, the chips that take it only as false, and the statement."""

from __future__ import annotations

import numpy as np
import pytest

import simulator
from isa.diagnostics import AssemblyError
from tests.reference.shift_round import shift_right_round

VALUES = {"s16": [17, -17, 16, 15, -1, 31, 32767, -32768, 100, 0, 1, -2, 2, -3, 3, 12345],
          "s32": [17, -17, (1 << 31) - 1, -(1 << 31), -1, 1, 0, 99999, -99999, 3, -3, 2,
                  65535, -65536, 7, -8],
          "u16": [17, 16, 65535, 1, 0, 32768, 31, 3, 2, 100, 7, 8, 9, 10, 11, 12]}
NP = {"s16": np.int16, "s32": np.int32, "u16": np.uint16}


def _run(t: str, n: int, chip: str = "ascend910b", stmt: str = "vshr") -> np.ndarray:
    a = np.resize(np.array(VALUES[t], NP[t]), 256 // np.dtype(NP[t]).itemsize)
    keys = "repeat=1, round_en=1" if stmt == "vshr" else "count=16, round_en=1"
    text = (f".chip {chip}\n.ub a {t}[{len(a)}] @0x0 = bits(\"{a.tobytes().hex()}\")\n"
            f".ub d {t}[{len(a)}] @0x100\n{stmt}.{t} d, a, {n}, {keys}\n")
    res = simulator.run(text)
    return np.frombuffer(bytes(res.ub[0x100:0x200]), NP[t])[:16], a[:16]


@pytest.mark.parametrize("t", sorted(VALUES))
@pytest.mark.parametrize("n", [0, 1, 5, 15, 16, 31])
def test_against_the_reference(t, n):
    got, a = _run(t, n)
    s = np.asarray(n, NP[t]).tobytes()
    want = b"".join(shift_right_round(t, x.tobytes(), s) for x in a)
    assert got.tobytes() == want


def test_the_page_example():
    got, _ = _run("s16", 5, stmt="shift_right")
    assert got[0] == 1 and got[1] == -1  # 17 >> 5 = 0 + bit 4; -17 >> 5 = -1, bit 4 clear


@pytest.mark.parametrize("chip", ["ascend310b", "ascend950"])
def test_chips_without_rounding_shifts_refuse_it(chip):
    with pytest.raises(AssemblyError, match=rf"round_en=1 is not supported on {chip}"):
        _run("s16", 5, chip=chip, stmt="shift_right")


@pytest.mark.parametrize(("t", "n", "want"), [("s16", 1, 0xD554), ("s16", 3, 0xD550),
                                              ("u16", 1, 0x5554), ("s16", 16, 0x8000)])
def test_shift_left_is_the_pages_arithmetic_shift(t, n, want):
    """ShiftLeft's page: int16_t 1010101010101010 << 1 = 1101010101010100 (the sign bit stays,
    the bits below shift), << 3 = 1101010101010000; uint16_t << 1 = 0101010101010100."""
    text = (f".chip ascend910b\n.ub a {t}[128] @0x0 = bits(\"{'aaaa' * 128}\")\n"
            f".ub d {t}[128] @0x100\nvshl.{t} d, a, {n}\n")
    res = simulator.run(text)
    assert int.from_bytes(bytes(res.ub[0x100:0x102]), "little") == want
