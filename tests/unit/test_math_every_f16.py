"""Every float16 input of vexp vln vsqrt vrec vrsqrt against the exact reference (decimal),
raw bytes: the correctly rounded model (docs/semantics.md §6.4) is exhaustive for half. It
found ln(0x1d78) rounded the wrong way: numpy casts longdouble to float16 through float32."""

from __future__ import annotations

import numpy as np
import pytest

from isa.types import TYPES
from simulator.semantics.math import correctly_rounded
from tests.reference.elementwise import unary

EVERY = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)


@pytest.mark.parametrize("name", ["vexp", "vln", "vsqrt", "vrec", "vrsqrt"])
def test_every_half_is_correctly_rounded(name):
    got = correctly_rounded(name, EVERY.copy(), TYPES["f16"])
    want = b"".join(unary(name, "f16", v.tobytes()) for v in EVERY)
    bad = np.flatnonzero(got.view(np.uint16) != np.frombuffer(want, np.uint16))
    assert [hex(int(EVERY.view(np.uint16)[i])) for i in bad[:8]] == []
