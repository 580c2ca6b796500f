"""#34: ascend950's And, Or and Not take 8- and 64-bit integers (the pages' 950 tables: int8_t
... uint64_t, those four through the count form only), as the operator library's invert kernel
uses them; checked byte for byte against tests/reference/bitwise64.py."""

from __future__ import annotations

import numpy as np
import pytest

import isa
import simulator
from isa.diagnostics import DiagnosticError
from tests.reference.bitwise64 import bytewise


@pytest.mark.parametrize(("t", "dtype", "n"), [("s8", np.int8, 500), ("u8", np.uint8, 300),
                                               ("s64", np.int64, 60), ("u64", np.uint64, 33)])
def test_and_or_not_of_8_and_64_bit_types(t, dtype, n):
    size = 2048 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(n)
    a = rng.integers(0, 256, 2048, dtype=np.uint8).view(dtype)
    b = rng.integers(0, 256, 2048, dtype=np.uint8).view(dtype)
    text = f""".chip ascend950
.gm a {t}[{size}] input
.gm b {t}[{size}] input
.gm y {t}[{3 * size}] output
.ub ua {t}[{size}]
.ub ub {t}[{size}]
.ub uy {t}[{3 * size}] = zeros
    copy_gm_to_ub ua[0], a[0], nburst=1, burst=64
    copy_gm_to_ub ub[0], b[0], nburst=1, burst=64
    set_flag MTE2, V, 0
    wait_flag MTE2, V, 0
    and.{t} uy[0], ua[0], ub[0], count={n}
    or.{t} uy[{size}], ua[0], ub[0], count={n}
    not.{t} uy[{2 * size}], ua[0], count={n}
    set_flag V, MTE3, 0
    wait_flag V, MTE3, 0
    copy_ub_to_gm y[0], uy[0], nburst=1, burst=192
"""
    y = simulator.run(text, inputs={"a": a, "b": b}).outputs["y"].view(np.uint8)
    k = n * np.dtype(dtype).itemsize
    ab, bb = a.view(np.uint8)[:k].tobytes(), b.view(np.uint8)[:k].tobytes()
    for part, want in enumerate((bytewise("and", ab, bb), bytewise("or", ab, bb),
                                 bytewise("not", ab))):
        got = y[part * 2048:part * 2048 + 2048].tobytes()
        assert got[:k] == want and got[k:] == bytes(2048 - k), (t, part)


def test_the_high_dimensional_form_still_refuses_8_bit_types():
    with pytest.raises(DiagnosticError) as e:
        isa.assemble(".chip ascend950\n.ub a s8[256]\n    vnot.s8 a[0], a[0], repeat=1\n")
    assert "only through the count= form" in str(e.value)
