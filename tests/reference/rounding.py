"""The reference for the rounding advanced APIs (Floor, Ceil, Trunc, Rint, Round, Frac; #32
class 4), element by element from the documentation's definitions in float64, where every
half and float value and its integer neighbours are exact. It imports nothing from `isa` or
`simulator`.

- floor / ceil / trunc / rint: numpy's functions of those names in float64 (exact);
- round: to nearest, ties away from zero: copysign(floor(|x| + 0.5), x) (|x| + 0.5 is exact
  in float64 for every half and float x);
- a zero result keeps the source's sign (-0.3 → -0.0), as IEEE rounding to an integer does;
- ±inf stays ±inf; NaN stays NaN with its payload and the quiet bit set (docs/decisions.md:
  a conversion keeps a NaN's sign and top payload bits, quietened);
- frac: x - trunc(x), computed in the source's type (exact: the difference is representable);
  ±inf gives NaN, as inf - inf does.
"""

from __future__ import annotations

import numpy as np

QUIET = {np.dtype(np.float16): np.uint16(0x0200), np.dtype(np.float32): np.uint32(0x00400000)}
RAW = {np.dtype(np.float16): np.uint16, np.dtype(np.float32): np.uint32}


def _round_away(x: np.ndarray) -> np.ndarray:
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


FUNCTIONS = {"floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "rint": np.rint,
             "round": _round_away}


def rounded(name: str, x: np.ndarray) -> np.ndarray:
    """NAME (floor ceil trunc rint round) of X (float16 or float32), in X's type."""
    with np.errstate(invalid="ignore"):  # NaN sources: set below
        wide = x.astype(np.float64)
        out = np.copysign(FUNCTIONS[name](wide), wide).astype(x.dtype)
    nan = np.isnan(x)
    raw = out.view(RAW[x.dtype])
    raw[nan] = x.view(RAW[x.dtype])[nan] | QUIET[x.dtype]
    return out


def frac(x: np.ndarray) -> np.ndarray:
    """x - trunc(x) in X's type."""
    with np.errstate(invalid="ignore"):
        return (x - rounded("trunc", x)).astype(x.dtype)


def reference(name: str, x: np.ndarray) -> np.ndarray:
    return frac(x) if name == "frac" else rounded(name, x)
