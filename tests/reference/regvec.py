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


def load_dist(ub: np.ndarray, dist: str, e: int) -> np.ndarray:
    """The 256 register bytes LoadAlign's distribution DIST (element bytes E) makes of the UB
    bytes from the address on, written element by element from the LoadAlign page's table."""
    out = np.zeros(256, np.uint8)
    n = 256 // e
    for k in range(n):
        kind = dist.split("_")[0]
        if kind == "norm":
            src = k
        elif kind == "brc":
            src = 0
        elif kind == "us":
            src = k // 2
        elif kind == "ds":
            src = 2 * k
        elif kind == "unpack":
            src = k // 2 if k % 2 == 0 else None
        elif kind == "unpack4":
            src = k // 4 if k % 4 == 0 else None
        elif kind == "blk":
            src = k % (32 // e)
        else:  # e2b: element j of the source fills block j
            src = k // (32 // e)
        if src is not None:
            out[k * e:(k + 1) * e] = ub[src * e:(src + 1) * e]
    return out


def tree_sum(x: np.ndarray) -> object:
    """The Reduce page's SUM order: neighbours added pairwise, level by level, each sum in T."""
    level = list(x)
    while len(level) > 1:
        level = [x.dtype.type(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def int_div(a: np.ndarray, b: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Integer Div (#34): each enabled element's quotient truncated toward zero in exact Python
    integers, wrapped to T; a zero divisor gives 0 (pipev's stated choice); disabled elements 0
    (ZEROING)."""
    t = a.dtype
    bits = 8 * t.itemsize
    out = np.zeros(a.size, t)
    for k in range(a.size):
        x, y = int(a[k]), int(b[k])
        if not active[k] or y == 0:
            continue
        q = abs(x) // abs(y)
        q = q if (x < 0) == (y < 0) else -q
        q &= (1 << bits) - 1
        if t.kind == "i" and q >> (bits - 1):
            q -= 1 << bits
        out[k] = q
    return out


def shift(left: bool, x: int, n: int, bits: int, signed: bool) -> int:
    """One element of Reg ShiftLeft(s) / ShiftRight(s) (the pages), on Python integers: X (the
    element's value) shifted by N; the result as an unsigned BITS-bit pattern. Counts outside
    [0, BITS) shift every bit out (the pages past the width; pipev's model at the width and for
    negative counts)."""
    full = (1 << bits) - 1
    if not 0 <= n < bits:
        return full if (not left and signed and x < 0) else 0
    if not left:
        return (x >> n) & full
    if not signed:
        return (x << n) & full
    low = (x << n) & ((1 << (bits - 1)) - 1)  # the bits below the sign bit
    return low | ((1 << (bits - 1)) if x < 0 else 0)


def leaky_relu(x: float, s: float, numeric) -> object:
    """One element of Reg LeakyRelu: x > 0 ? x : x * s, the product rounded once in T."""
    x, s = numeric(x), numeric(s)
    if x > 0:
        return x
    with np.errstate(over="ignore"):  # the product overflows to inf as T does
        return numeric(float(x) * float(s))  # exact in double for half and float operands
