"""Data types of the vector ISA (docs/machine.md §3) and their numpy representations."""

from __future__ import annotations

from functools import cache

import attrs
import numpy as np

_RAW = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
        8: np.dtype(np.uint64)}


@attrs.frozen
class DType:
    """One element type: its name, size and the numpy dtypes used to hold it."""

    name: str
    size: int
    kind: str  # "int", "uint", "float", "complex"
    _numeric: np.dtype | None  # see `numeric`; None for bf16 (ml_dtypes, imported when used)
    npy: np.dtype  # dtype of .npy files holding this type (docs/machine.md §3)
    bits: int = 0  # bits an element: 8·size, or 4 for s4 (int4b_t, two elements a byte, whose
    # `size` is the byte they share: addresses and footprints stay in whole bytes)

    @property
    def numeric(self) -> np.dtype:
        """The dtype arithmetic and compares use (c32: float16 pairs; bf16:
        ml_dtypes.bfloat16, whose import a run without bf16, and start-up, does without)."""
        return self._numeric if self._numeric is not None else _bfloat16()

    @property
    def nibble(self) -> bool:
        """Two elements a byte (s4): element 2j in the low half, 2j+1 in the high half."""
        return self.bits == 4

    def nbytes(self, count: int) -> int:
        """Bytes COUNT elements occupy (s4: half a byte each, rounded up)."""
        return -(-count * self.bits // 8) if self.nibble else count * self.size

    @property
    def raw(self) -> np.dtype:
        """Unsigned dtype of the same size: selects and copies move raw bit patterns."""
        return _RAW[self.size]

    @property
    def per_repeat(self) -> int:
        """N(T): elements in one 256-byte repeat."""
        return 2048 // self.bits if self.bits else 256 // self.size

    @property
    def per_block(self) -> int:
        """B(T): elements in one 32-byte block."""
        return 256 // self.bits if self.bits else 32 // self.size

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_int(self) -> bool:
        return self.kind in ("int", "uint")

    @property
    def mantissa_bits(self) -> int:
        """Explicit mantissa bits of a float type (ml_dtypes.finfo also knows bf16)."""
        import ml_dtypes

        return int(ml_dtypes.finfo(self.numeric).nmant)

    def __str__(self) -> str:
        return self.name


@cache
def _bfloat16() -> np.dtype:
    import ml_dtypes

    return np.dtype(ml_dtypes.bfloat16)


def _t(name: str, size: int, kind: str, numeric, npy=None, bits: int = 0) -> DType:
    numeric = np.dtype(numeric) if numeric is not None else None
    return DType(name, size, kind, numeric, np.dtype(npy) if npy is not None else numeric,
                 bits or 8 * size)


TYPES: dict[str, DType] = {t.name: t for t in (
    _t("s8", 1, "int", np.int8),
    _t("u8", 1, "uint", np.uint8),
    _t("s16", 2, "int", np.int16),
    _t("u16", 2, "uint", np.uint16),
    _t("f16", 2, "float", np.float16),
    _t("bf16", 2, "float", None, np.uint16),  # numeric: ml_dtypes.bfloat16
    _t("s32", 4, "int", np.int32),
    _t("u32", 4, "uint", np.uint32),
    _t("f32", 4, "float", np.float32),
    _t("s64", 8, "int", np.int64),
    _t("u64", 8, "uint", np.uint64),
    # moved, declared and read back, not computed on (issue #27): `bool` one byte a value
    # (LocalTensor<bool>, GlobalTensor<bool>), `f64` (double) for DataCopy
    _t("bool", 1, "bool", np.bool_),
    _t("f64", 8, "float", np.float64),
    _t("c32", 4, "complex", np.float16),
    _t("c64", 8, "complex", np.complex64),
    # int4b_t (AscendC): two's complement −8..7, two elements a byte, element 2j in bits 0–3
    # and 2j+1 in bits 4–7 (the int4b_t figure of the C-API reference); held unpacked as int8
    # (`numeric`, .npy files: one value a element), packed in memory (docs/machine.md §3)
    _t("s4", 1, "int", np.int8, bits=4),
    # ascend950's 8-bit floats and fp4 pairs (issue 34): moved, loaded into registers and
    # converted by the reg-based Cast only, held as their raw codes (`numeric` uint8: nothing
    # computes on them; .npy files hold the codes). f4e2m1 / f4e1m2 (fp4x2_e2m1_t /
    # fp4x2_e1m2_t): one byte holds two 4-bit values, value 2j in bits 0-3 and 2j+1 in bits
    # 4-7; an element is the byte (the pair), as the C++ type is. Formats: LOW_FLOATS below
    _t("f8e4m3", 1, "float", np.uint8),
    _t("f8e5m2", 1, "float", np.uint8),
    _t("hif8", 1, "float", np.uint8),
    _t("f4e2m1", 1, "float", np.uint8),
    _t("f4e1m2", 1, "float", np.uint8),
)}

ALIASES: dict[str, str] = {
    "half": "f16", "float": "f32", "float16": "f16", "float32": "f32", "bfloat16_t": "bf16",
    "bfloat16": "bf16", "int8_t": "s8", "uint8_t": "u8", "int16_t": "s16", "uint16_t": "u16",
    "int32_t": "s32", "uint32_t": "u32", "int64_t": "s64", "uint64_t": "u64",
    "int8": "s8", "uint8": "u8", "int16": "s16", "uint16": "u16", "int32": "s32",
    "uint32": "u32", "int64": "s64", "uint64": "u64", "complex32": "c32", "complex64": "c64",
    "double": "f64", "float64": "f64", "int4b_t": "s4",
    # int4x2_t (the 950 Cast page's name): two int4b_t a byte, which s4 already is
    "int4x2_t": "s4", "fp8_e4m3fn_t": "f8e4m3", "fp8_e5m2_t": "f8e5m2", "hifloat8_t": "hif8",
    "fp4x2_e2m1_t": "f4e2m1", "fp4x2_e1m2_t": "f4e1m2",
}

UNSIGNED_MASK_TYPES = ("u8", "u16", "u32", "u64")
# types memory holds and copies move but no vector instruction computes on (issue #27)
MEMORY_ONLY = ("bool", "f64")
# types only vconv computes on (s4, int4b_t: two elements a byte; the Cast page's int4 pairs)
CONVERT_ONLY = ("s4", "f8e4m3", "f8e5m2", "hif8", "f4e2m1", "f4e1m2")
VECTOR_TYPES = tuple(n for n in TYPES if n not in MEMORY_ONLY + CONVERT_ONLY)  # machine.md §3




@attrs.frozen
class LowFloat:
    """A sign-magnitude float of at most 8 bits (the built-in data types page, table 5): its
    exponent and mantissa widths, bias, the codes of its specials (magnitude codes, the sign
    bit apart; None: the format has none). hif8's codes are not a plain exponent / mantissa
    split: simulator/semantics/lowfloat.py decodes them from the page's table 6."""

    bits: int  # 8, or 4 (each half of an fp4x2 byte)
    exp: int
    mant: int
    bias: int
    inf: int | None
    nan: int | None  # the code of the positive quiet NaN (hif8: 0x80, its only NaN)
    value_bits: int  # bits a value: the RegLayout ratio of a Cast counts values, not bytes


LOW_FLOATS: dict[str, LowFloat] = {
    # IEEE-like: inf = exponent all ones, mantissa 0; NaN = exponent all ones, mantissa != 0
    "f8e5m2": LowFloat(8, 5, 2, 15, 0x7C, 0x7E, 8),
    # e4m3fn: no inf; S.1111.111 is NaN, the rest of the top binade finite (max 448)
    "f8e4m3": LowFloat(8, 4, 3, 7, None, 0x7F, 8),
    # the page's D-field encoding: 0x80 NaN, 0x6F / 0xEF ±inf, no -0
    "hif8": LowFloat(8, 0, 0, 0, 0x6F, 0x80, 8),
    # no inf, no NaN. e2m1: bias 1, max 6; e1m2: the page's range ±7·2^-2 (bias 1, max 1.75;
    # the generic Bias formula would give 0: docs/decisions.md)
    "f4e2m1": LowFloat(4, 2, 1, 1, None, None, 4),
    "f4e1m2": LowFloat(4, 1, 2, 1, None, None, 4),
}


def value_bits(t: DType) -> int:
    """Bits of one value of T: a Cast's RegLayout ratio is the ratio of these (fp4x2 pairs and
    int4x2_t hold two 4-bit values a byte)."""
    low = LOW_FLOATS.get(t.name)
    return low.value_bits if low is not None else t.bits


def int_range(t: DType) -> tuple[int, int]:
    """The values an integer type holds (s4: −8..7, although held in int8)."""
    if t.nibble:
        return -8, 7
    info = np.iinfo(t.numeric)
    return int(info.min), int(info.max)


def lookup(name: str) -> DType | None:
    """The type called NAME (a pipev name or a C alias), or None."""
    key = name.lower()
    return TYPES.get(ALIASES.get(key, key))


def unpack_s4(data: np.ndarray, count: int | None = None) -> np.ndarray:
    """Packed s4 bytes → one int8 value a element (low nibble first), sign-extended."""
    b = np.asarray(data, np.uint8)
    vals = np.stack([b & 0xF, b >> 4], axis=-1).reshape(*b.shape[:-1], -1).astype(np.int8)
    vals = ((vals ^ 8) - 8).astype(np.int8)
    return vals if count is None else vals[..., :count]


def pack_s4(values: np.ndarray) -> np.ndarray:
    """Values (their low 4 bits; an even count a row) → packed s4 bytes, low nibble first."""
    v = np.asarray(values).astype(np.uint8) & 0xF
    if v.shape[-1] % 2:
        v = np.concatenate([v, np.zeros((*v.shape[:-1], 1), np.uint8)], axis=-1)
    pairs = v.reshape(*v.shape[:-1], -1, 2)
    return (pairs[..., 0] | (pairs[..., 1] << 4)).astype(np.uint8)


def to_npy(t: DType, raw: np.ndarray) -> np.ndarray:
    """Raw little-endian element bits → the array a .npy file holds for T."""
    if t.nibble:
        return unpack_s4(raw.view(np.uint8))
    if t.name == "c32":
        return raw.view(np.float16).reshape(-1, 2)
    if t.name == "bf16":
        return raw.view(np.uint16)
    return raw.view(t.numeric)


def from_npy(t: DType, arr: np.ndarray) -> np.ndarray | None:
    """The raw element bytes of an array read from a .npy file, or None if dtype/shape is wrong."""
    if arr.dtype != t.npy:
        return None
    if t.nibble:  # int8 values of −8..7 (out of range: None, the caller says the dtype/shape)
        flat = np.ascontiguousarray(arr).reshape(-1)
        if flat.size and (flat.min() < -8 or flat.max() > 7):
            return None
        return pack_s4(flat)
    if t.name == "c32":
        if arr.ndim != 2 or arr.shape[1] != 2:
            return None
    return np.ascontiguousarray(arr).reshape(-1).view(np.uint8)


def npy_what(t: DType) -> str:
    """What a .npy file of T holds, as messages say it."""
    return "int8 values in -8..7" if t.nibble else str(t.npy)


def npy_count(t: DType, arr: np.ndarray) -> int:
    """How many T elements an array of T's .npy form holds."""
    return arr.size // 2 if t.name == "c32" else arr.size


def convert_scalar(t: DType, value: complex | float | int) -> tuple[np.ndarray | None, str]:
    """Scalar immediate → raw bytes of one T element (docs/format.md §4.2), or (None, reason)."""
    try:
        return _convert_scalar(t, value)
    except OverflowError:  # an integer beyond every float (and beyond every integer type)
        text = str(value)
        text = text if len(text) <= 40 else f"{text[:20]}... ({len(text)} digits)"
        return None, f"{text} overflows {t.name}"


def _convert_scalar(t: DType, value: complex | float | int) -> tuple[np.ndarray | None, str]:
    if t.kind == "complex":
        c = complex(value)
        # c32 is held as a float16 (real, imaginary) pair; c64 is one complex64 element
        with np.errstate(over="ignore"):
            arr = np.array([c.real, c.imag] if t.name == "c32" else [c], dtype=t.numeric)
        parts = arr.view(np.float16 if t.name == "c32" else np.float32)
        if np.isfinite(c.real) and np.isfinite(c.imag) and not np.all(np.isfinite(parts)):
            return None, f"{value} overflows {t.name}"
        return arr.view(np.uint8), ""
    if isinstance(value, complex):
        return None, f"complex value {value} for non-complex type {t.name}"
    if t.is_int:
        if isinstance(value, float):
            if not np.isfinite(value) or value != int(value):
                return None, f"non-integral value {value} for integer type {t.name}"
            value = int(value)
        lo, hi = int_range(t)
        if not lo <= value <= hi:
            return None, f"{value} is out of range for {t.name} ({lo}..{hi})"
        return np.array([value], dtype=t.numeric).view(np.uint8), ""
    with np.errstate(over="ignore"):
        arr = np.asarray([value], dtype=t.numeric)
    if np.isfinite(float(value)) and not np.isfinite(arr[0]):
        return None, f"{value} overflows {t.name} to infinity"
    return arr.view(np.uint8), ""


# vconv/cast round modes (AscendC RoundMode CAST_NONE ... CAST_HYBRID, in that order); hybrid
# is the reg-based Cast's to hifloat8 only (isa/regvec_convert.py)
ROUND_MODES = ("none", "rint", "floor", "ceil", "round", "trunc", "odd", "hybrid")
