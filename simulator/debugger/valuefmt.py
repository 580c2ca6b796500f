"""How `print`, `display` and watch reports show a value: as numpy prints it, or with a gdb
format letter — /x hex, /t binary (both of the raw bits at the element's width: a float shows
its encoding, a negative integer its two's complement), /d decimal (floats truncated toward
zero), /f float."""

from __future__ import annotations

import numpy as np

SHOWN = 256  # elements shown before `...`


def format_value(v, fmt: str | None, bits: int = 64, prefix: str = "") -> str:
    """V (a numpy array or scalar, a Python int, float, bool or str) as text. BITS is the
    width of a Python int (a register); numpy values carry their own."""
    if isinstance(v, np.ndarray) and v.ndim:
        if fmt is None:
            with np.printoptions(threshold=SHOWN, linewidth=100):
                return np.array2string(v, prefix=prefix)
        items = [scalar(e, fmt, bits) for e in v[:SHOWN]]
        more = f" ... ({v.size - SHOWN} more)" if v.size > SHOWN else ""
        return "[" + " ".join(items) + more + "]"
    if isinstance(v, np.ndarray):
        v = v[()]
    return scalar(v, fmt, bits)


def scalar(v, fmt: str | None, bits: int = 64) -> str:
    if isinstance(v, str):
        return v
    if fmt is None:
        return str(v)
    if isinstance(v, bool | np.bool_):
        v = int(v)
    if isinstance(v, complex | np.complexfloating):
        return str(v)
    if isinstance(v, float | np.floating) or (isinstance(v, np.generic) and
                                              v.dtype.kind not in "iub"):  # bf16 too
        if fmt in ("x", "t"):
            arr = np.asarray(v)
            raw = arr.view(f"u{arr.dtype.itemsize}") if arr.dtype.itemsize in (1, 2, 4, 8) \
                else arr.astype(np.float64).view(np.uint64)
            return _bits(int(raw), fmt, arr.dtype.itemsize * 8)
        if fmt == "d":
            return str(int(v)) if np.isfinite(v) else str(v)
        return str(v)
    n = int(v)
    width = v.dtype.itemsize * 8 if isinstance(v, np.integer) else bits
    if fmt in ("x", "t"):
        return _bits(n, fmt, width)
    if fmt == "d":
        return str(n)
    return str(float(n))


def _bits(n: int, fmt: str, width: int) -> str:
    n &= (1 << width) - 1
    return f"{n:#x}" if fmt == "x" else f"{n:#b}"
