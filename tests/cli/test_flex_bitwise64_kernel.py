"""#27 (h27e) an AscendC kernel on ascend950: Ands / Ors on int64_t and uint64_t (count form, the
scalar last or first, a value or a tensor element) against tests/reference/bitwise64.py on raw
bytes; the elements past count keep their bytes."""

from __future__ import annotations

from pathlib import Path

from tests.reference.bitwise64 import element

DATA = Path(__file__).resolve().parents[1] / "data" / "elementwise"
N, NB = 100, 104


def test_flex_bitwise64_950_kernel(pipev, tmp_path):
    proc = pipev("run", "--chip", "ascend950", DATA / "flex_bitwise64_950.cpp", timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stdout + proc.stderr
    x = (tmp_path / "flex_bitwise64_950_in.bin").read_bytes()
    out = (tmp_path / "flex_bitwise64_950_out.bin").read_bytes()
    xs = [x[8 * i:8 * i + 8] for i in range(NB)]

    def word(k: int) -> int:
        return int.from_bytes(xs[k], "little", signed=True)
    cases = [  # (row, op, signed, scalar, scalar first)
        (0, "ands", True, 0x7FFFFFFF80000001, False),
        (1, "ors", True, word(3), True),
        (2, "ands", False, 0xF0F0F0F0F0F0F0F0, True),
        (3, "ors", False, word(7), False),
    ]
    for row, op, signed, s, first in cases:
        got = out[8 * NB * row:8 * NB * (row + 1)]
        want = b"".join(element(op, signed, xs[i], s, first) for i in range(N))
        assert got[:8 * N] == want, (row, op)
        assert got[8 * N:] == b"\x5a" * (8 * (NB - N)), "past count: untouched"
