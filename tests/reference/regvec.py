"""Issue 34: an independent numpy expression of the Reg API pages, element by element: what a
vector function of the reg-based unit leaves in UB (docs/semantics.md §15)."""

from __future__ import annotations

import numpy as np

CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "gt": np.greater, "le": np.less_equal,
       "ge": np.greater_equal}


def mask_first(n: int, count: int) -> np.ndarray:
    """UpdateMask / CreateMask VLn: the first min(count, n) of n elements."""
    return np.arange(n) < min(count, n)


def compare_select(a: np.ndarray, b: np.ndarray, op: str, active: np.ndarray,
                   old: np.ndarray) -> np.ndarray:
    """Compare(cmp, a, b, mask) then Select(z, a, b, cmp), stored under mask over OLD: each
    element by itself (bf16 compares the widened values; NaN compares false but for ne)."""
    out = old.copy()
    for k in range(a.size):
        if not active[k]:
            continue
        x, y = a[k], b[k]
        wx = np.float32(x) if a.dtype.name == "bfloat16" else x
        wy = np.float32(y) if a.dtype.name == "bfloat16" else y
        with np.errstate(invalid="ignore"):
            keep = bool(CMP[op](wx, wy))
        out[k] = x if keep else y
    return out
