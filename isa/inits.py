"""INIT forms of `.gm` / `.ub` declarations (docs/format.md §4.1) → raw element bytes."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.lib import format as npy_format

from isa.lexer import LexError, parse_number, split_top
from isa.types import (
    DType,
    convert_scalar,
    from_npy,
    int_range,
    npy_count,
    npy_what,
    pack_s4,
)

CALL_RE = re.compile(r"([A-Za-z_]+)\s*\((.*)\)\s*\Z", re.S)


def evaluate(text: str, offset: int, t: DType, count: int, base_dir: Path
             ) -> tuple[str, np.ndarray]:
    """INIT text → (kind, raw bytes of COUNT elements). Raises LexError at the bad token."""
    text = text.strip()
    if text == "zeros":
        return "zeros", np.zeros(t.nbytes(count), np.uint8)
    kind, raw = _evaluate(text, offset, t, count, base_dir)
    if t.nibble and kind not in ("file", "bits"):  # one int8 value an element → packed
        raw = pack_s4(raw.view(np.int8))
    return kind, raw


def _evaluate(text: str, offset: int, t: DType, count: int, base_dir: Path
              ) -> tuple[str, np.ndarray]:
    if text.startswith("["):
        if not text.endswith("]"):
            raise LexError("unterminated '[' list", offset)
        return "list", _list(text[1:-1], offset + 1, t, count)
    m = CALL_RE.match(text)
    if not m:
        raise LexError(f"unknown INIT '{text}' (expected zeros, fill, arange, [..], random, "
                       "file or bits)", offset)
    name, args_text = m.group(1), m.group(2)
    args_off = offset + text.index("(") + 1
    args = split_top(args_text, args_off) if args_text.strip() else []
    handler = _CALLS.get(name)
    if handler is None:
        raise LexError(f"unknown INIT '{name}' (expected zeros, fill, arange, [..], random, "
                       "file or bits)", offset)
    return name, handler(args, args_off, t, count, base_dir)


def _arity(args: list, lo: int, hi: int, name: str, offset: int) -> None:
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise LexError(f"{name}() takes {want} arguments, got {len(args)}", offset)


def _scalar_bytes(t: DType, text: str, offset: int) -> np.ndarray:
    raw, why = convert_scalar(t, parse_number(text, offset))
    if raw is None:
        raise LexError(why, offset)
    return raw


def _fill(args, off, t, count, _dir) -> np.ndarray:
    _arity(args, 1, 1, "fill", off)
    return np.tile(_scalar_bytes(t, *args[0]), count)


def _list(body: str, offset: int, t: DType, count: int) -> np.ndarray:
    items = split_top(body, offset) if body.strip() else []
    if items and not items[-1][0]:
        items.pop()  # a trailing comma
    if len(items) != count:
        raise LexError(f"the list has {len(items)} values, the tensor {count}", offset - 1)
    if not items:
        return np.zeros(0, np.uint8)
    return np.concatenate([_scalar_bytes(t, s, o) for s, o in items])


def _arange(args, off, t, count, _dir) -> np.ndarray:
    _arity(args, 1, 2, "arange", off)
    start = parse_number(*args[0])
    step = parse_number(*args[1]) if len(args) > 1 else 1
    if t.kind != "complex":
        for v, (_, o) in zip((start, step), args, strict=False):
            if isinstance(v, complex):
                raise LexError(f"complex value {v} for non-complex type {t.name}", o)
    if t.is_int:
        return _int_arange(args, t, count, start, step)
    with np.errstate(all="ignore"):
        return _as_type(t, _float_arange(start, step, count, args[0][1]))


def _float_arange(start, step, count: int, offset: int) -> np.ndarray:
    """START + STEP * arange(COUNT): integers in int64 (rounded to T once) when every value
    fits; integers beyond int64, which numpy cannot mix with an int64 arange, as float64."""
    if isinstance(start, int) and isinstance(step, int):
        last = start + step * max(count - 1, 0)
        if all(-(1 << 63) <= v < 1 << 63 for v in (start, last)):
            return start + step * np.arange(count, dtype=np.int64)
    try:
        as_num = [v if isinstance(v, (complex, float)) else float(v) for v in (start, step)]
    except OverflowError:
        raise LexError(f"arange value {start if abs(start) > abs(step) else step} is beyond "
                       "every float", offset) from None
    return as_num[0] + as_num[1] * np.arange(count)


def _int_arange(args, t: DType, count: int, start, step) -> np.ndarray:
    if not all(isinstance(v, int) for v in (start, step)):
        raise LexError(f"arange on {t.name} takes integers", args[0][1])
    last = start + step * (count - 1) if count else start
    lo, hi = int_range(t)
    for v in (start, last):
        if not lo <= v <= hi:
            raise LexError(f"arange value {v} is out of range for {t.name}", args[0][1])
    # every value lies between start and last, so arithmetic modulo 2^64 is exact, also for
    # u64 values above 2^63 that no int64 holds
    m = 1 << 64
    vals = np.uint64(start % m) + np.uint64(step % m) * np.arange(count, dtype=np.uint64)
    return vals.astype(t.numeric).view(np.uint8)


def _as_type(t: DType, vals: np.ndarray) -> np.ndarray:
    if t.name == "c32":
        vals = np.asarray(vals, np.complex128)
        return np.stack([vals.real, vals.imag], axis=-1).astype(np.float16).reshape(-1).view(
            np.uint8)
    return np.ascontiguousarray(np.asarray(vals).astype(t.numeric)).view(np.uint8)


def _random(args, off, t, count, _dir) -> np.ndarray:
    _arity(args, 1, 3, "random", off)
    if len(args) == 2:
        raise LexError("random() takes SEED or SEED, LOW, HIGH", off)
    seed = parse_number(*args[0])
    if not isinstance(seed, int) or seed < 0:
        raise LexError("random() seed must be a non-negative integer", args[0][1])
    lo, hi = _int_bounds(args, t) if t.is_int else _float_bounds(args)
    key = (seed, t.name, count, repr(lo), repr(hi))  # (repr: -0.0 is not 0.0)
    raw = _DRAWN.get(key)
    if raw is None:
        rng = np.random.default_rng(seed)
        raw = _remember(key, rng.integers(lo, hi, count, endpoint=True, dtype=t.numeric).view(
            np.uint8) if t.is_int else _uniform(rng, t, count, lo, hi))
    return raw


def _int_bounds(args, t: DType) -> tuple[int, int]:
    tmin, tmax = int_range(t)
    if len(args) < 3:
        return max(tmin, -100), min(tmax, 100)
    lo, hi = parse_number(*args[1]), parse_number(*args[2])
    if not (isinstance(lo, int) and isinstance(hi, int)) or not tmin <= lo <= hi <= tmax:
        raise LexError(f"random() bounds must be integers within {t.name}", args[1][1])
    return lo, hi


def _float_bounds(args) -> tuple[float, float]:
    if len(args) < 3:
        return -100.0, 100.0
    bounds = [parse_number(*a) for a in args[1:]]
    if any(isinstance(v, complex) for v in bounds):
        raise LexError("random() bounds must be real numbers (complex types draw real and "
                       "imaginary parts from LOW..HIGH)", args[1][1])
    try:
        lo, hi = float(bounds[0]), float(bounds[1])
    except OverflowError:
        lo = hi = float("inf")
    if not np.isfinite(hi - lo):
        raise LexError("random() bounds must be finite numbers within the float range",
                       args[1][1])
    if lo > hi:
        raise LexError(f"random() needs LOW <= HIGH, got {lo:g} > {hi:g}", args[1][1])
    return lo, hi


def _uniform(rng: np.random.Generator, t: DType, count: int, lo: float, hi: float
             ) -> np.ndarray:
    if t.kind == "complex":
        re_ = rng.uniform(lo, hi, count)
        im = rng.uniform(lo, hi, count)
        return _as_type(t, re_ + 1j * im)
    with np.errstate(all="ignore"):
        return _as_type(t, rng.uniform(lo, hi, count))


# random() draws kept by (seed, type, count, bounds), read-only (every user copies
# them): a program run again, or a sweep's variants, would draw the same values each time —
# three 16K-element tensors were a third of a short run's fixed cost. Bounded in bytes.
DRAWN_BYTES = 16 << 20
_DRAWN: dict[tuple, np.ndarray] = {}


def _remember(key: tuple, raw: np.ndarray) -> np.ndarray:
    raw.flags.writeable = False
    if raw.nbytes <= DRAWN_BYTES // 4:
        held = sum(a.nbytes for a in _DRAWN.values())
        while _DRAWN and held + raw.nbytes > DRAWN_BYTES:
            held -= _DRAWN.pop(next(iter(_DRAWN))).nbytes  # the oldest first
        _DRAWN[key] = raw
    return raw


def _file(args, off, t, count, base_dir) -> np.ndarray:
    _arity(args, 1, 1, "file", off)
    text, o = args[0]
    if not (len(text) >= 2 and text[0] == text[-1] == '"'):
        raise LexError('file() takes a quoted path, e.g. file("x.npy")', o)
    path = base_dir / text[1:-1]
    arr, why = load_npy(path)
    if arr is None:
        raise LexError(why, o)
    raw = from_npy(t, arr)
    if raw is None:
        raise LexError(f"{path.name} holds {arr.dtype}{list(arr.shape)}, expected {npy_what(t)} "
                       f"for {t.name}", o)
    if npy_count(t, arr) != count:
        raise LexError(f"{path.name} holds {npy_count(t, arr)} elements, expected {count}", o)
    return raw


def load_npy(path: Path) -> tuple[np.ndarray | None, str]:
    """np.load without pickles; (None, reason) for anything that is not a plain .npy array."""
    try:
        with open(path, "rb") as fp:
            if fp.read(6) != b"\x93NUMPY":
                return None, (f"{path} is not a .npy file (it does not begin with the .npy "
                              "magic bytes; write arrays with numpy.save)")
        why = _truncated(path)
        if why:
            return None, f"{path} is not a valid .npy array ({why})"
        arr = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        return None, f"cannot read {path}: no such file"
    except IsADirectoryError:
        return None, f"cannot read {path}: is a directory"
    except PermissionError:
        return None, f"cannot read {path}: permission denied"
    except (ValueError, OSError, EOFError) as exc:
        return None, f"{path} is not a valid .npy array ({str(exc).splitlines()[0][:120]})"
    if not isinstance(arr, np.ndarray):
        return None, f"{path} is not a single .npy array"
    return arr, ""


def _truncated(path: Path) -> str:
    """Why the header's shape and dtype promise more data than the file holds, or ''. Checked
    before np.load, which would otherwise try to allocate whatever the header claims."""
    with open(path, "rb") as fp:
        if fp.read(6) != b"\x93NUMPY":
            return ""  # not an .npy (np.load says what it is)
        fp.seek(0)
        version = npy_format.read_magic(fp)
        read = npy_format.read_array_header_1_0 if version == (1, 0) else \
            npy_format.read_array_header_2_0  # 3.0 differs from 2.0 only in the encoding
        shape, _, dtype = read(fp)
        if dtype.hasobject:
            return ""  # np.load refuses pickles with its own message
        need = math.prod(shape) * dtype.itemsize
        have = os.fstat(fp.fileno()).st_size - fp.tell()
    if need > have:
        return f"truncated: the header describes {dtype.str}{list(shape)}, {need} bytes of " \
               f"data, the file holds {have}"
    return ""


def _bits(args, off, t, count, _dir) -> np.ndarray:
    _arity(args, 1, 1, "bits", off)
    text, o = args[0]
    if not (len(text) >= 2 and text[0] == text[-1] == '"'):
        raise LexError('bits() takes a quoted hex string, e.g. bits("00ff")', o)
    hexs = text[1:-1].replace("_", "").replace(" ", "")
    try:
        data = bytes.fromhex(hexs)
    except ValueError:
        raise LexError("bits() takes hex digits only", o) from None
    if len(data) != t.nbytes(count):
        raise LexError(f"bits() gives {len(data)} bytes, the tensor has {t.nbytes(count)}", o)
    return np.frombuffer(data, np.uint8).copy()


_CALLS: dict[str, Callable] = {"fill": _fill, "arange": _arange, "random": _random,
                               "file": _file, "bits": _bits}
