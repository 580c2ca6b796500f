"""Sigmoid, Tanh and Silu as docs/ascendc.md ("Advanced math") documents pipev's sequences, one
element at a time, from the instructions' documented results (tests/reference/elementwise.py) —
not from the simulator (nothing from `isa` or `simulator`).

- Sigmoid (in float): w = x · -1, w = e^w, w = w + 1, y = 1 / w;
- Tanh (in float): w = max(min(x, 10), -10), w = w · 2, w = e^w, d = w + 1, w = w - 1, y = w / d;
- a half source is widened exactly and the float result rounded to nearest even (CAST_NONE);
- Silu (in the source's type): d = x · -1, d = e^d, d = d + 1, y = x / d;
- Gelu (in float): w = x · x, w = w · x, w = w · 0.044715, w = w + x, w = w · -1.5957691216,
  w = e^w, w = w + 1, y = x / w;
- FasterGeluV2 (in float): a = |x · 0.7071|, a = min(a, 1.769), a = a + -1.769, a = a · a,
  a = a · -0.1444, a = a + 0.5, b = x + 1e-12, b = b / |b|, a = a · b, a = a + 0.5, y = x · a;
- Log: one vln in the source's type.
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


def _gelu(t: str, x: bytes) -> bytes:
    w = ew.mul(t, x, x)
    w = ew.mul(t, w, x)
    w = ew.mul(t, w, _k(t, 0.044715))
    w = ew.add(t, w, x)
    w = ew.mul(t, w, _k(t, -1.5957691216057308))
    w = ew.unary("vexp", t, w)
    w = ew.add(t, w, _k(t, 1))
    return ew.div(t, x, w)


def _abs(t: str, x: bytes) -> bytes:
    v = np.frombuffer(x, ew.FLOATS[t][0])
    return np.abs(v).tobytes()  # the sign bit cleared


def _faster_gelu_v2(t: str, x: bytes) -> bytes:
    a = _abs(t, ew.mul(t, x, _k(t, 0.7071)))
    a = _k(t, min(np.frombuffer(a, ew.FLOATS[t][0])[0], ew.FLOATS[t][0](1.769)))  # no NaN tested
    a = ew.add(t, a, _k(t, -1.769))
    a = ew.mul(t, a, a)
    a = ew.mul(t, a, _k(t, -0.1444))
    a = ew.add(t, a, _k(t, 0.5))
    b = ew.add(t, x, _k(t, 1e-12))
    b = ew.div(t, b, _abs(t, b))
    a = ew.mul(t, a, b)
    a = ew.add(t, a, _k(t, 0.5))
    return ew.mul(t, x, a)


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


def gelu(x: np.ndarray) -> np.ndarray:
    return _in_float(_gelu, x)


def faster_gelu_v2(x: np.ndarray) -> np.ndarray:
    return _in_float(_faster_gelu_v2, x)


def log(x: np.ndarray) -> np.ndarray:
    """Log: one vln in the source's type."""
    t = NAMES[x.dtype]
    return np.frombuffer(b"".join(ew.unary("vln", t, v.tobytes()) for v in x), x.dtype).copy()
