"""Numeric one-source functions (docs/semantics.md §6.4, #27a): vexp vln vsqrt vrec vrsqrt, each
the correctly rounded result of the exact function in T (the silicon's approximations are not
published), and vrelu (exact).

Correct rounding: the function is evaluated in extended precision (numpy's longdouble, a 64-bit
significand) and rounded once to T; an element whose extended result lies so near a rounding
boundary of T that the evaluation's own error could decide it is evaluated again in decimal at
60 digits and rounded exactly (`_exact`). Specials follow IEEE 754 (exp(-inf) = +0, ln(±0) =
-inf, ln(x<0) = NaN, sqrt(-0) = -0, 1/±0 = ±inf, rsqrt(±0) = ±inf); a NaN input gives itself,
quieted; an invalid operation gives the default NaN vadd's inf - inf gives (sign set, quiet bit
only: 0xFE00, 0xFFC00000).

Inputs whose result the vendor calls unknown (Reciprocal of ±0, Sqrt and Rsqrt of inputs <= 0)
still get the model's value, and are counted on the machine per instruction: the run warns once
per instruction with the count (Machine.unknown, reported at the end of the run)."""

from __future__ import annotations

import decimal
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from isa.decode import VectorOp
from isa.types import DType
from simulator.machine import RAW, Machine
from simulator.semantics.common import load, numeric, store
from simulator.semantics.runs import whole_runs

LD = np.longdouble
# relative error bound of the extended evaluation (a few ulps of 2^-63, taken generously)
_SLACK = LD(2) ** -56
# a rounding that passed through float64 may be off by float64's half ulp (2^-53, taken
# generously): results this near a midpoint of T are decided exactly
_BAND = LD(2) ** -50
_DIGITS = 60


def _ext(name: str) -> Callable[[np.ndarray], np.ndarray]:
    return {"vexp": np.exp, "vln": np.log, "vsqrt": np.sqrt,
            "vrec": lambda x: LD(1) / x, "vrsqrt": lambda x: LD(1) / np.sqrt(x)}[name]


def _dec(name: str, x: decimal.Decimal) -> decimal.Decimal:
    """The function at 60 digits (decimal's exp, ln and sqrt are correctly rounded)."""
    if name == "vexp":
        return x.exp()
    if name == "vln":
        return x.ln()
    if name == "vsqrt":
        return x.sqrt()
    if name == "vrec":
        return 1 / x
    return 1 / x.sqrt()


def round_to(q: Fraction, t: DType) -> float:
    """The exact rational Q rounded to the nearest value of float type T, ties to even (inf
    beyond the largest finite value's rounding range), as a Python float."""
    if q == 0:
        return 0.0
    fin = np.finfo(t.numeric)
    p, emin, emax = fin.nmant + 1, fin.minexp, fin.maxexp - 1
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)  # subnormals: the quantum stays 2^(emin-p+1)
    scaled = a * Fraction(2) ** (p - 1 - e)
    n = scaled.numerator // scaled.denominator
    rem = scaled - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    value = Fraction(n) * Fraction(2) ** (e - p + 1)
    out = float("inf") if value >= Fraction(2) ** (emax + 1) else float(value)
    return -out if q < 0 else out


def _exact(name: str, x: float, t: DType) -> float:
    with decimal.localcontext() as ctx:
        ctx.prec = _DIGITS
        return round_to(Fraction(_dec(name, decimal.Decimal(x))), t)


def correctly_rounded(name: str, x: np.ndarray, t: DType) -> np.ndarray:
    """NAME's function of the float elements X (of T), correctly rounded to T."""
    with np.errstate(all="ignore"):
        y = _ext(name)(x.astype(LD))
        out = _rounded(y, t)
        lo = _rounded(y * (1 - _SLACK), t)
        hi = _rounded(y * (1 + _SLACK), t)
        near = np.isfinite(y) & (y != 0) & ((lo != out) | (hi != out) | _by_a_tie(y, out))
    for i in np.flatnonzero(near):  # next to a rounding boundary: decide exactly
        out.flat[i] = _exact(name, float(x.flat[i]), t)
    return _nan_rules(x, out, t)


def _rounded(y: np.ndarray, t: DType) -> np.ndarray:
    """Extended Y rounded to T through float64. numpy casts longdouble to float16 through
    float32, whose rounding can land a value on a float16 midpoint and break the tie the wrong
    way (ln of f16 0x1d78 gave 0xc53c, not 0xc53b); float64's own double rounding is caught by
    _by_a_tie."""
    return y.astype(np.float64).astype(t.numeric)


def _by_a_tie(y: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Where Y lies within _BAND of a midpoint between OUT and a neighbour: a rounding through
    float64 may have landed Y on it; the slack test cannot see it, as Y and Y·(1 ± _SLACK)
    round to the same float64."""
    o = out.astype(LD)
    band = np.abs(y) * _BAND
    near = np.zeros(y.shape, bool)
    for way in (np.inf, -np.inf):
        mid = (o + np.nextafter(out, np.asarray(way, out.dtype)).astype(LD)) / 2
        near |= np.abs(y - mid) <= band
    return near


def _nan_rules(x: np.ndarray, out: np.ndarray, t: DType) -> np.ndarray:
    """A NaN input gives itself, quieted; a NaN made from a non-NaN input is T's default NaN."""
    made = np.isnan(out)
    if not made.any():
        return out
    raw_t = t.raw
    quiet = np.asarray(1 << (t.mantissa_bits - 1), raw_t)
    top = np.asarray(((1 << (8 * t.size)) - 1) & ~((1 << t.mantissa_bits) - 1), raw_t)
    default = (top | quiet).view(t.numeric)
    kept = (x.view(raw_t) | quiet).view(t.numeric)
    return np.where(np.isnan(x), kept, np.where(made, default, out))


def relu(a: np.ndarray) -> np.ndarray:
    """src < 0 ? 0 : src (−0 and NaN pass as they are)."""
    return np.where(a < 0, np.zeros((), a.dtype), a)


# the inputs the vendor's pages call "unknown result"
UNKNOWN: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "vrec": lambda x: x == 0,
    "vsqrt": lambda x: x <= 0,
    "vrsqrt": lambda x: x <= 0,
}
UNKNOWN_WHAT = {"vrec": "Reciprocal of 0", "vsqrt": "Sqrt of an input <= 0",
                "vrsqrt": "Rsqrt of an input <= 0"}


def values(vop: VectorOp, raw: np.ndarray) -> np.ndarray:
    name, t = vop.instr.name, vop.t
    x = numeric(raw, vop)
    if name == "vrelu":
        return relu(x)
    return correctly_rounded(name, x, t)


def math_unary(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
    raw = load(m, vop, vop.access("src"), lo, hi)
    if vop.instr.name in UNKNOWN:
        _count(m, vop, numeric(raw, vop), vop.active[lo:hi])
    store(m, vop, vop.access("dst"), values(vop, raw), lo, hi)


def _count(m: Machine, vop: VectorOp, x: np.ndarray, active: np.ndarray | None) -> None:
    """Count the unknown-result inputs among X (ACTIVE: which of them are; None: all)."""
    unknown = UNKNOWN.get(vop.instr.name)
    if unknown is None:
        return
    with np.errstate(all="ignore"):
        bad = unknown(x)
    n = int(np.count_nonzero(bad if active is None else bad & active))
    if n:
        m.count_unknown(vop.instr, UNKNOWN_WHAT[vop.instr.name], n)


def prepare_math_unary(vop: VectorOp, ub_bytes: int):
    """The plan of a decoding whose dst and src are whole runs (semantics/runs.py): the same
    values over plain slices of UB, the function and types looked up once; None for any other
    decoding."""
    runs = whole_runs(vop, ("dst", "src"), ub_bytes)
    if runs is None or vop.t.kind == "complex":
        return None
    dst, src = runs
    name, t = vop.instr.name, vop.t
    size, numeric_t, raw = t.size, t.numeric, RAW[t.size]
    unknown = name in UNKNOWN

    if name == "vrelu":
        zero = np.zeros((), numeric_t)

        def relu_body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
            view = m.views[size]
            x = view[src].view(numeric_t)
            view[dst] = np.where(x < zero, zero, x).view(raw)  # relu(), its zero made once
        return relu_body

    def body(m: Machine, vop: VectorOp, scalar, lo: int, hi: int) -> None:
        view = m.views[size]
        x = view[src].view(numeric_t)
        if unknown:
            _count(m, vop, x, None)
        view[dst] = correctly_rounded(name, x, t).view(raw)
    return body
