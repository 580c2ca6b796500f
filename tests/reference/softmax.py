"""SoftMax / SimpleSoftMax as docs/ascendc.md ("Advanced math") documents pipev's sequence, one
element at a time, from the instructions' documented results — not from the simulator (nothing
from `isa` or `simulator`).

A row of K float values (a half source widened exactly), the reductions over its first VALID:
- max: lanes 0..63 start as the first 64 columns, each later column c folds into lane c % 64
  with vmax (numpy's maximum in f32); the row's max is the first NaN, else the largest lane
  (vcmax over the lanes; VALID <= 64: over the VALID columns directly);
- every column minus the max (vsub: IEEE in f32), then exp (vexp: correctly rounded);
- sum: the same folding with vadd, then vcadd's tree over the 64 lanes (inactive lanes 0);
- every column divided by the sum (vdiv: IEEE in f32);
- a half result, max and sum are the f32 values rounded to nearest even (CAST_NONE).
"""

from __future__ import annotations

import numpy as np

from tests.reference import elementwise, reduce

F32 = np.float32
LANES = 64
SIGN = np.uint32(0x80000000)


def _b(v) -> bytes:
    return np.asarray(v, F32).tobytes()


def _f(raw: bytes) -> np.float32:
    return np.frombuffer(raw, F32)[0]


def _fold(row: np.ndarray, valid: int, op) -> list:
    """The 64 lanes after folding the first VALID columns of ROW with OP (VALID > 64)."""
    lanes = list(row[:LANES])
    for c in range(LANES, valid):
        lanes[c % LANES] = op(lanes[c % LANES], row[c])
    return lanes


def _row_max(row: np.ndarray, valid: int) -> np.float32:
    lanes = list(row[:valid]) if valid <= LANES else _fold(row, valid, np.maximum)
    k = reduce._pick(lanes, [True] * len(lanes), True)
    return F32(lanes[k])


def _add(a, b) -> np.float32:
    return _f(elementwise.add("f32", _b(a), _b(b)))


def _row_sum(row: np.ndarray, valid: int) -> np.float32:
    if valid <= LANES:
        lanes = list(row[:valid]) + [F32(0)] * (LANES - valid)
    else:
        lanes = _fold(row, valid, _add)
    return F32(reduce._tree("f32", lanes))


def _sub(a, b) -> np.float32:
    neg = (np.asarray(b, F32).view(np.uint32) ^ SIGN).view(F32)
    return _f(elementwise.add("f32", _b(a), _b(neg)))


def _exp(a) -> np.float32:
    return _f(elementwise.unary("vexp", "f32", _b(a)))


def _div(a, b) -> np.float32:
    return _f(elementwise.div("f32", _b(a), _b(b)))


def _finish(y: np.ndarray, stat: np.ndarray, t, u) -> tuple[np.ndarray, np.ndarray]:
    block = 32 // np.dtype(u).itemsize
    return y.astype(t), np.repeat(stat.astype(u)[:, None], block, axis=1)


def softmax(x: np.ndarray, valid: int, u=None):
    """(dst, max, sum) of SoftMax over X, an (m, k) array of f32 or f16; U: max/sum's type
    (X's by default). max and sum are (m, 32 bytes) blocks."""
    t = x.dtype.type
    u = u or t
    rows = x.astype(F32)
    y = np.empty_like(rows)
    mx, sm = np.empty(len(rows), F32), np.empty(len(rows), F32)
    for i, row in enumerate(rows):
        mx[i] = _row_max(row, valid)
        e = np.array([_exp(_sub(v, mx[i])) for v in row], F32)
        sm[i] = _row_sum(e, valid)
        y[i] = [_div(v, sm[i]) for v in e]
    dst, mx_out = _finish(y, mx, t, u)
    return dst, mx_out, _finish(y, sm, t, u)[1]


def simple_softmax(x: np.ndarray, mx: np.ndarray, sm: np.ndarray) -> np.ndarray:
    """SimpleSoftMax's dst: exp(x - max) / sum, MX and SM blocks a row (their first element)."""
    t = x.dtype.type
    rows = x.astype(F32)
    m0, s0 = mx[:, 0].astype(F32), sm[:, 0].astype(F32)
    y = np.array([[_div(_exp(_sub(v, m0[i])), s0[i]) for v in row]
                  for i, row in enumerate(rows)], F32)
    return y.astype(t)
