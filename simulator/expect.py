"""`--expect NAME=FILE.npy`: an output compared with a golden array, bit for bit.

An element matches when its bits are the expected bits. With a tolerance of N ULP (`--expect-ulp
N`) a float element also matches when both values are NaN or when they are at most N units in
the last place apart (counted over the ordered float bit patterns, so +0 and -0 are 0 apart and
the largest finite value is 1 from infinity). Integers always compare exactly; complex elements
compare component by component.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import numpy as np

from isa.diagnostics import Diagnostic
from isa.inits import load_npy
from isa.program import Program
from isa.types import DType, from_npy, npy_count, npy_what, to_npy

UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


@attrs.frozen
class Mismatch:
    differing: int  # elements that do not match
    total: int
    first: int  # index of the first of them
    got: str  # the first one's value, then its bits
    expected: str
    max_ulp: int | None  # largest ULP distance among differing floats (None: not floats; -1 NaN)

    def text(self, ulp: int) -> str:
        dist = ""
        if self.max_ulp is not None:
            far = "NaN against a number" if self.max_ulp < 0 else f"{self.max_ulp}"
            dist = f"; max ULP distance {far} (allowed {ulp})"
        return (f"{self.differing} of {self.total} elements differ, first at index "
                f"{self.first}: got {self.got}, expected {self.expected}{dist}")


def _components(t: DType, raw: np.ndarray) -> np.ndarray:
    """(count, parts) unsigned bit patterns: one part per element, two for complex."""
    parts = 2 if t.kind == "complex" else 1
    return raw.view(UNSIGNED[t.size // parts]).reshape(-1, parts)


def _ordered(bits: np.ndarray, width: int) -> np.ndarray:
    """Float bit patterns as integers in the order of the values they encode."""
    sign = (bits >> (width - 1)).astype(bool)
    mag = (bits & ((1 << (width - 1)) - 1)).astype(np.int64)
    return np.where(sign, -mag, mag)


def _nan(bits: np.ndarray, width: int, mantissa: int) -> np.ndarray:
    exp_mask = ((1 << (width - 1 - mantissa)) - 1) << mantissa
    return ((bits & exp_mask) == exp_mask) & ((bits & ((1 << mantissa) - 1)) != 0)


def _mantissa(t: DType) -> int:
    width = 8 * t.size // (2 if t.kind == "complex" else 1)
    return {16: 7 if t.name == "bf16" else 10, 32: 23, 64: 52}[width]


def compare(t: DType, got: np.ndarray, expected: np.ndarray, ulp: int = 0) -> Mismatch | None:
    """GOT and EXPECTED are the raw bytes of one tensor of type T."""
    g, e = _components(t, got), _components(t, expected)
    differ = g != e
    floats = t.kind in ("float", "complex")
    dist = None
    if floats:
        width = g.dtype.itemsize * 8
        mant = _mantissa(t)
        gn, en = _nan(g, width, mant), _nan(e, width, mant)
        dist = np.abs(_ordered(g, width) - _ordered(e, width))
        dist = np.where(gn | en, np.where(gn & en, 0, -1), dist)
        if ulp > 0:
            differ &= (dist < 0) | (dist > ulp)
    bad = differ.any(axis=1)
    n = int(bad.sum())
    if n == 0:
        return None
    k = int(np.argmax(bad))
    max_ulp = None
    if floats:
        d = dist[bad]
        max_ulp = -1 if (d < 0).any() else int(d.max())
    return Mismatch(n, bad.size, k, _show(t, got, k), _show(t, expected, k), max_ulp)


def _show(t: DType, raw: np.ndarray, k: int) -> str:
    """Element K as its value and its bits, e.g. `1.5 (0x3e00)`."""
    parts = _components(t, raw)[k]
    hexes = "/".join(f"{int(p):#0{2 + 2 * parts.dtype.itemsize}x}" for p in parts)
    value = to_npy(t, raw.copy())
    if t.name == "bf16":
        shown = repr(float(raw.view(t.numeric)[k]))
    elif t.name == "c32":
        shown = f"({float(value[k][0])!r}, {float(value[k][1])!r})"
    elif t.kind == "float":
        shown = repr(float(value[k]))  # the exact value, not numpy's shortest form
    else:
        shown = str(value[k])
    return f"{shown} ({hexes})"


def load_expected(program: Program, files: dict[str, str]
                  ) -> tuple[dict[str, np.ndarray], list[Diagnostic]]:
    """Each expected output's raw bytes; diagnostics at the output's declaration for a file
    that is not a matching .npy array, at 1:1 (naming the outputs) for a name that is not an
    output."""
    from difflib import get_close_matches

    outputs = [n for n, t in program.gm.items() if t.role in ("output", "inout")]
    raws: dict[str, np.ndarray] = {}
    errors: list[Diagnostic] = []
    for name, path in files.items():
        t = program.gm.get(name)
        if name not in outputs:
            near = get_close_matches(name, outputs, 1)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            where = (t.line, t.col) if t is not None else (1, 1)
            errors.append(Diagnostic("error", program.path, *where,
                                     f"--expect {name}: the program declares no output "
                                     f"'{name}' (outputs: {', '.join(outputs) or 'none'})"
                                     f"{hint}"))
            continue
        arr, why = load_npy(Path(path))
        raw = from_npy(t.dtype, arr) if arr is not None and arr.dtype != object else None
        if arr is None:
            message = why
        elif raw is None:
            message = (f"{path} holds {arr.dtype}{list(arr.shape)}, expected {npy_what(t.dtype)} "
                       f"for {t.dtype.name}")
        elif npy_count(t.dtype, arr) != t.count:
            message = f"{path} holds {npy_count(t.dtype, arr)} elements, expected {t.count}"
        else:
            raws[name] = raw.copy()
            continue
        errors.append(Diagnostic("error", program.path, t.line, t.col,
                                 f"--expect {name}: {message}"))
    return raws, errors


def check_outputs(program: Program, outputs: dict[str, np.ndarray],
                  expected: dict[str, np.ndarray], ulp: int = 0) -> list[Diagnostic]:
    """One error per output that does not match, at its declaration."""
    errors = []
    for name, want in expected.items():
        t = program.gm[name]
        got = np.ascontiguousarray(outputs[name]).reshape(-1).view(np.uint8)
        m = compare(t.dtype, got, want, ulp)
        if m is not None:
            errors.append(Diagnostic("error", program.path, t.line, t.col,
                                     f"output {name} does not match --expect: {m.text(ulp)}"))
    return errors


def check_arrays(path: str, outputs: dict[str, np.ndarray], files: dict[str, str],
                 ulp: int = 0, where: dict[str, tuple[str, int]] | None = None
                 ) -> list[Diagnostic]:
    """--expect for a program that declares no outputs (a C++ program: its GM buffers, a
    kernel-only run's `out:` arguments): each named array compared with FILE's, its elements
    of the file's type (a host program's buffers are bytes: read as the file's elements);
    errors at WHERE[name] (FILE, LINE: the launch that last wrote it), else PATH:1:1."""
    from difflib import get_close_matches

    from isa.types import TYPES

    by_npy = {np.dtype(t.npy): t for t in TYPES.values()
              if t.name not in ("bf16", "c32") and t.npy == t.numeric}
    errors = []
    for name, file in files.items():
        at = (where or {}).get(name, (path, 1))

        def error(message: str, at=at) -> None:
            errors.append(Diagnostic("error", at[0], at[1], 1, message))

        if name not in outputs:
            near = get_close_matches(name, list(outputs), 1)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            error(f"--expect {name}: the run has no output '{name}' (outputs: "
                  f"{', '.join(outputs) or 'none'}){hint}")
            continue
        want, why = load_npy(Path(file))
        t = by_npy.get(want.dtype) if want is not None else None
        if want is None or t is None:
            error(f"--expect {name}: {why or f'{file} holds {want.dtype}, not a pipev type'}")
            continue
        got = np.ascontiguousarray(outputs[name]).reshape(-1).view(np.uint8)
        raw = np.ascontiguousarray(want).reshape(-1).view(np.uint8)
        if got.size != raw.size:
            error(f"--expect {name}: {file} holds {raw.size} bytes ({want.size} x {t.name}), "
                  f"the output {got.size}")
            continue
        m = compare(t, got.copy(), raw.copy(), ulp)
        if m is not None:
            error(f"output {name} does not match --expect: {m.text(ulp)}")
    return errors
