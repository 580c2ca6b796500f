"""Sigmoid, Tanh and Silu as docs/ascendc.md ("Advanced math") documents pipev's sequences, one
element at a time, from the instructions' documented results (tests/reference/elementwise.py) —
not from the simulator (nothing from `isa` or `simulator`).

- Sigmoid (in float): w = x · -1, w = e^w, w = w + 1, y = 1 / w;
- Tanh (in float): w = max(min(x, 10), -10), w = w · 2, w = e^w, d = w + 1, w = w - 1, y = w / d;
- a half source is widened exactly and the float result rounded to nearest even (CAST_NONE);
- Silu (in the source's type): d = x · -1, d = e^d, d = d + 1, y = x / d.
"""

from __future__ import annotations

import numpy as np

from tests.reference import elementwise as ew

NAMES = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16"}



def _k(t: str, v: float) -> bytes:
    return np.asarray(v, ew.FLOATS[t][0]).tobytes()


def _sigmoid(t: str, x: bytes) -> bytes:
    w = ew.mul(t, x, _k(t, -1))
    w = ew.unary("vexp", t, w)
    w = ew.add(t, w, _k(t, 1))
    return ew.div(t, _k(t, 1), w)


def _tanh(t: str, x: bytes) -> bytes:
    v = np.frombuffer(x, ew.FLOATS[t][0])[0]
    w = _k(t, min(max(v, -10), 10)) if not np.isnan(v) else x  # vmins / vmaxs (no NaN tested)
    w = ew.mul(t, w, _k(t, 2))
    w = ew.unary("vexp", t, w)
    d = ew.add(t, w, _k(t, 1))
    w = ew.add(t, w, _k(t, -1))
    return ew.div(t, w, d)


def _silu(t: str, x: bytes) -> bytes:
    d = ew.mul(t, x, _k(t, -1))
    d = ew.unary("vexp", t, d)
    d = ew.add(t, d, _k(t, 1))
    return ew.div(t, x, d)


def _in_float(fn, x: np.ndarray) -> np.ndarray:
    wide = x.astype(np.float32)
    out = np.frombuffer(b"".join(fn("f32", v.tobytes()) for v in wide), np.float32)
    return out.astype(x.dtype)  # exact for float; nearest even for half


def sigmoid(x: np.ndarray) -> np.ndarray:
    return _in_float(_sigmoid, x)


def tanh(x: np.ndarray) -> np.ndarray:
    return _in_float(_tanh, x)


def silu(x: np.ndarray) -> np.ndarray:
    t = NAMES[x.dtype]
    return np.frombuffer(b"".join(_silu(t, v.tobytes()) for v in x), x.dtype).copy()
