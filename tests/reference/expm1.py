"""e^x − 1 of a float16, correctly rounded to float16 (TIK vec_expm1_high_preci): the exact
value in `decimal` at 60 digits, rounded once (tests/reference/elementwise.py's `nearest`).
NaN gives itself quieted; +inf gives +inf, −inf gives −1, ±0 gives ±0."""

from __future__ import annotations

import decimal
import math
from fractions import Fraction

from tests.reference.elementwise import _nan_in, _pack, _value, nearest


def expm1(a: bytes) -> bytes:
    x = _value("f16", a)
    if math.isnan(x):
        return _nan_in("f16", a)
    if math.isinf(x):
        return _pack("f16", math.inf if x > 0 else -1.0)
    if x == 0:
        return a
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        return nearest("f16", Fraction(decimal.Decimal(x).exp() - 1))
