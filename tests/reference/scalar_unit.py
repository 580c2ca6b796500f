"""Reference expressions for the scalar unit of #29 (docs/semantics.md §7.1), written apart from
simulator/semantics/scalar_unit.py: numpy over whole arrays where the simulator works on one
register."""

from __future__ import annotations

import numpy as np

FLOAT = {"f16": np.float16, "f32": np.float32}


def div(a: np.ndarray, b) -> np.ndarray:
    """C's a / b: the float64 quotient truncated (exact for |a| < 2^52 and |b| <= 2^20)."""
    return np.trunc(np.asarray(a, np.float64) / b).astype(np.int64)


def rem(a: np.ndarray, b) -> np.ndarray:
    """C's a % b: numpy's fmod keeps the dividend's sign, as C does."""
    return np.fmod(np.asarray(a, np.int64), b)


def falu(name: str, t: str, a, b):
    """fadd … fmin in float type T, IEEE in numpy's T arithmetic."""
    x, y = FLOAT[t](a), FLOAT[t](b)
    with np.errstate(all="ignore"):
        return {"fadd": x + y, "fsub": x - y, "fmul": x * y, "fdiv": x / y,
                "fmax": np.maximum(x, y), "fmin": np.minimum(x, y)}[name]


def clz(v: int) -> int:
    """Leading zero bits of a 64-bit value, counted from the top bit down."""
    v &= (1 << 64) - 1
    return next((k for k in range(64) if v >> (63 - k) & 1), 64)


def popcnt(v: int) -> int:
    return sum(((v & ((1 << 64) - 1)) >> k) & 1 for k in range(64))
