"""#27 AddReluCast / SubReluCast / MulCast (vaddreluconv, vsubreluconv, vmulconv), one element
at a time, written from the vendor's pages — not from the simulator (nothing from `isa` or
`simulator`): the element computed in the source type SRC as AddRelu / SubRelu / Mul compute it
(tests/reference/elementwise.py), then converted to DST as Cast round=none does
(tests/reference/convert.py: the exact rational rounding, saturation, NaN → 0 for integers).
"""

from __future__ import annotations

from tests.reference import elementwise
from tests.reference.convert import convert_one

NAMES = ("vaddreluconv", "vsubreluconv", "vmulconv")
# the pairs DST.SRC of the A2/A3 tables (AddReluCast/SubReluCast; MulCast)
PAIRS = {"vaddreluconv": (("f16", "f32"), ("s8", "f16"), ("s8", "s16")),
         "vsubreluconv": (("f16", "f32"), ("s8", "f16"), ("s8", "s16")),
         "vmulconv": (("s8", "f16"), ("u8", "f16"))}


def in_source(name: str, src: str, a: bytes, b: bytes) -> bytes:
    """The element in SRC: relu(a ± b) or a · b."""
    if name == "vmulconv":
        return elementwise.mul(src, a, b)
    return elementwise.add_relu("vaddrelu" if name == "vaddreluconv" else "vsubrelu", src, a, b)


def element(name: str, dst: str, src: str, a: bytes, b: bytes) -> bytes:
    """One destination element (DST's bytes) from source elements A and B (SRC's bytes)."""
    x = int.from_bytes(in_source(name, src, a, b), "little")
    size = {"f16": 2, "s8": 1, "u8": 1}[dst]
    return convert_one(src, dst, x, "none").to_bytes(size, "little")
