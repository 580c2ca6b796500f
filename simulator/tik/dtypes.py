"""TIK's dtype names and pipev's types (docs/machine.md §3)."""

from __future__ import annotations

from isa.types import DType, lookup

NAMES = {"int8": "s8", "uint8": "u8", "int16": "s16", "uint16": "u16", "float16": "f16",
         "bfloat16": "bf16", "int32": "s32", "uint32": "u32", "float32": "f32",
         "int64": "s64", "uint64": "u64", "bool": "bool"}
INT_NAMES = tuple(n for n in NAMES if "int" in n)


def pipev_type(name: str) -> DType | None:
    """The pipev type of a TIK dtype name, or None when TIK has no such dtype."""
    t = NAMES.get(name) if isinstance(name, str) else None
    return lookup(t) if t is not None else None


def known() -> str:
    return ", ".join(NAMES)
