"""#27 the two-type composites, one element at a time, written from the vendor's pages — not
from the simulator (nothing from `isa` or `simulator`):

- AddReluCast / SubReluCast / MulCast (vaddreluconv, vsubreluconv, vmulconv): the element
  computed in the source type SRC as AddRelu / SubRelu / Mul compute it
  (tests/reference/elementwise.py), then converted to DST as Cast round=none does
  (tests/reference/convert.py: exact rational rounding, saturation, NaN → 0 for integers);
- the mixed forms of Axpy / MulAddDst (vaxpy.f32.f16, vmla.f32.f16): each f16 value widened
  exactly to f32, then the f32 multiply-add.
"""

from __future__ import annotations

import numpy as np

from tests.reference import elementwise
from tests.reference.convert import convert_one

NAMES = ("vaddreluconv", "vsubreluconv", "vmulconv")
# the pairs DST.SRC of the A2/A3 tables (AddReluCast/SubReluCast; MulCast)
PAIRS = {"vaddreluconv": (("f16", "f32"), ("s8", "f16"), ("s8", "s16")),
         "vsubreluconv": (("f16", "f32"), ("s8", "f16"), ("s8", "s16")),
         "vmulconv": (("s8", "f16"), ("u8", "f16"))}


def in_source(name: str, src: str, a: bytes, b: bytes) -> bytes:
    """The element in SRC: relu(a ± b) or a · b (an overflow to ±inf is the expected value,
    not a warning: numpy's nextafter past the largest f16 says so)."""
    with np.errstate(over="ignore"):
        if name == "vmulconv":
            return elementwise.mul(src, a, b)
        return elementwise.add_relu("vaddrelu" if name == "vaddreluconv" else "vsubrelu", src,
                                    a, b)


def element(name: str, dst: str, src: str, a: bytes, b: bytes) -> bytes:
    """One destination element (DST's bytes) from source elements A and B (SRC's bytes)."""
    x = int.from_bytes(in_source(name, src, a, b), "little")
    size = {"f16": 2, "s8": 1, "u8": 1}[dst]
    return convert_one(src, dst, x, "none").to_bytes(size, "little")


def mixed(name: str, dst: str, src: str, a: bytes, b: bytes, old: bytes) -> bytes:
    """vaxpy / vmla.DST.SRC: A (src or src0) and B (the scalar or src1) of SRC, OLD of DST."""
    size = {"f32": 4}[dst]

    def wide(raw: bytes) -> bytes:
        return convert_one(src, dst, int.from_bytes(raw, "little"), "none").to_bytes(size,
                                                                                    "little")
    with np.errstate(over="ignore"):
        return elementwise.element(name, dst, wide(a), wide(b), old)
