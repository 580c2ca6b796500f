"""Issue 34: ascend950's NDDMA from a kernel of ours in the vendor's sample style
(tests/data/ascendc/nddma/nddma_950.asc) through both faces — AscendC DataCopy with NdDmaParams
(constant and nearest-value padding, MultiCopyParams with a MultiCopyConfig's uniform padding)
and the C API's asc_ndim_copy_gm2ub with its setters — bit-exact against the independent
reference (tests/reference/nddma.py), race-free and without warnings."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reference.nddma import nddma

KERNEL = Path(__file__).resolve().parents[1] / "data" / "ascendc" / "nddma" / "nddma_950.asc"
H_SRC, F_SRC, S_SRC = 0, 128, 216  # byte offsets of the half, float and int16 inputs


def _expected(x: bytes) -> bytes:
    """What the two kernels write, in the kernel's order (h f s, then c n)."""
    def copy(n, esize, src, sizes, ss, ds, lps, rps, pad, fill=0):
        out = bytearray(np.full(n, fill, f"u{esize}").tobytes())
        nddma(out, x, esize, 0, src, sizes, ss, ds, lps, rps, pad)
        return bytes(out)

    h = copy(96, 2, H_SRC + 4, [5, 3, 2], [1, 10, 30], [1, 8, 32], [1, 1, 0], [2, 0, 1],
             np.float16(-2.5).tobytes())
    f = copy(96, 4, F_SRC, [4, 3], [1, 7], [1, 16], [2, 1], [3, 2], None)
    s = copy(80, 2, S_SRC, [4, 6], [6, 1], [1, 8], [1, 1], [2, 2], np.int16(7).tobytes())
    c = copy(56, 4, F_SRC, [3, 4, 1, 1, 1], [1, 3, 0, 0, 0], [1, 6, 0, 0, 0], [2, 2, 0, 0, 0],
             [1, 3, 0, 0, 0], np.float32(88.0).tobytes())
    n = copy(64, 2, H_SRC, [3, 3, 2, 1, 1], [1, 10, 30, 0, 0], [1, 4, 16, 0, 0],
             [0, 0, 1, 0, 0], [1, 1, 0, 0, 0], None)
    return h + f + s + c + n


def test_both_faces_are_bit_exact(pipev, tmp_path):
    proc = pipev("run", "--chip", "ascend950", "--werror", KERNEL, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "copy_gm_to_ub_nd.f16" in proc.stderr  # the hot lines of the summary
    x = (tmp_path / "nd_in.bin").read_bytes()
    out = (tmp_path / "nd_out.bin").read_bytes()
    assert out == _expected(x)
    halves = np.frombuffer(out[:192], np.uint16)
    assert {0x7E01, 0x8000, 0xFC00, 0x7C00} <= set(halves.tolist())  # the specials came through


def test_the_simt_integer_min_max_on_ascend950(pipev, tmp_path):
    """The operator library's arch35 kernels call `min(a, b)` on int64_t / uint64_t scalars (the
    SIMT API's integer math: min, max, llmin, ullmax, umin ...); third-party A2 kernels call
    `min` too, so kernel_operator.h has them on every chip."""
    src = tmp_path / "k.cpp"
    src.write_text('#include <cstdio>\n#include "kernel_operator.h"\n'
                   "int main() {\n"
                   "    int64_t a = -5, b = 3; uint64_t c = 7, d = 9;\n"
                   '    printf("%lld %llu %lld %llu %u\\n", (long long)min(a, b), '
                   "(unsigned long long)max(c, d), llmin(4, -4), ullmax(1, 2), umin(8u, 6u));\n"
                   "    return 0;\n}\n")
    for chip in ("ascend950", "ascend910b"):
        proc = pipev("run", "--chip", chip, src)
        assert proc.returncode == 0, proc.stderr
        assert "-5 9 -4 2 6" in proc.stdout
