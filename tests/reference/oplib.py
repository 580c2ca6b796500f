"""The reference for pipev's operator-library-style test kernel (tests/data/ascendc/oplib, issue
34), element by element with numpy; nothing from `isa` or `simulator`.

- sign: (x > 0) - (x < 0) in the source's type (NaN and -0.0 give +0.0, as the kernel's two
  compares and a subtraction define it);
- nonzero bits: one bit an element, element k in bit k % 8 of byte k // 8, set where x != 0
  (NaN is not equal to zero)."""

from __future__ import annotations

import numpy as np


def sign(x: np.ndarray) -> np.ndarray:
    return ((x > 0).astype(np.float32) - (x < 0).astype(np.float32)).astype(x.dtype)


def nonzero_bits(x: np.ndarray) -> np.ndarray:
    return np.packbits(x != 0, bitorder="little")


def widen(x: np.ndarray) -> np.ndarray:
    """half -> float, exactly: each value, ±inf and NaN (sign and payload shifted into place)
    kept, as numpy's conversion does."""
    return np.array([np.float32(v) for v in x], np.float32)


def natural_log(x: np.ndarray) -> np.ndarray:
    """ln of positive float32 values (and +inf), correctly rounded: each computed in float64 and
    rounded to float32 (the correctly rounded value unless ln(x) lies within a float64 ulp of a
    float32 tie)."""
    return np.array([np.float32(np.log(np.float64(v))) for v in x], np.float32)
