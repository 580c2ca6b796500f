"""The reference for the Ascend 950 predicate and select advanced APIs (#32 class 4), written
from the documentation's rules with numpy, element by element; nothing from `isa` or
`simulator`.

- IsNan / IsInf / IsFinite: 1 where the source is NaN / ±inf / neither, else 0, in the
  destination's type (bool: the bytes 1 and 0);
- LogicalAnd / LogicalOr / LogicalNot: an element is true when it is not zero (-0.0 is zero,
  NaN is not), the result bool;
- Where: the first source where the condition byte is not zero, else the second;
- Clamp: "values other than NaN greater than max become max, less than min become min; when
  min > max every value other than NaN becomes max" (min and max per element or scalars).
"""

from __future__ import annotations

import numpy as np


def as_result(truth: np.ndarray, dtype) -> np.ndarray:
    return truth.astype(np.uint8 if np.dtype(dtype) == np.bool_ else dtype).astype(dtype)


def is_nan(x: np.ndarray) -> np.ndarray:
    return np.isnan(x)


def is_inf(x: np.ndarray) -> np.ndarray:
    return np.isinf(x)


def is_finite(x: np.ndarray) -> np.ndarray:
    return np.isfinite(x)


def truthy(x: np.ndarray) -> np.ndarray:
    return x != 0


def where(cond: np.ndarray, a, b) -> np.ndarray:
    return np.where(cond != 0, a, b)


def clamp(x: np.ndarray, lo, hi) -> np.ndarray:
    lo, hi = np.broadcast_to(lo, x.shape), np.broadcast_to(hi, x.shape)
    with np.errstate(invalid="ignore"):
        out = np.where(x > hi, hi, x)
        out = np.where(x < lo, lo, out)
        return np.where((lo > hi) & ~np.isnan(x), hi, out).astype(x.dtype)
