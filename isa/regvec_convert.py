"""Issue 34 (h34a): the reg-based unit's conversions and relayouts (docs/semantics.md §15.2).

Cast (`vrcvt.DST.SRC`), Truncate (`vrtrunc`), Arange (`vrarange`), Interleave / DeInterleave
(`vrintlv` / `vrdintlv`) and Pack / UnPack (`vrpack` / `vrunpack`): the facts the ISA needs —
the Cast page's type pairs with the round modes and SatModes each takes, the RegLayout part
words — and the families. The rows are in isa/table.py, the semantics in
simulator/semantics/regvec_convert.py.
"""

from __future__ import annotations

from isa.regvec import NEEDS, REGVEC, RegFamily
from isa.types import ROUND_MODES, value_bits

# SatMode (the SatMode page): no_sat, sat; `auto` is SatMode::UNKNOWN, which pipev runs as sat
# (the Cast page's saturating conversions, docs/decisions.md)
SAT_MODES = ("auto", "nosat", "sat")
# RegLayout: which part of a group of narrow elements a widening Cast reads (ZERO..THREE) or a
# narrowing one writes
PARTS = ("zero", "one", "two", "three")
# HighLowPart (Pack / UnPack): the low or the high half of the narrow register
HALVES = ("lowest", "highest")

_LOSSY_INT_FLOAT = ("rint", "round", "floor", "ceil", "trunc")
# the Cast page's tables 6-9, the pairs of types pipev has (int4, fp8, hif8, fp4 aside):
# (dst, src) -> (round modes, SatMode taken). A pair whose round modes are () is exact: its
# round= is ignored; SatMode "-" is UNKNOWN only (the conversion cannot overflow, or the page
# fixes its mode)
CAST_PAIRS: dict[tuple[str, str], tuple[tuple[str, ...], str]] = {
    # float -> integer (table 6)
    **{(d, "f16"): (_LOSSY_INT_FLOAT, "sat") for d in ("s8", "u8", "s16")},
    ("s32", "f16"): (_LOSSY_INT_FLOAT, "-"),
    ("s32", "bf16"): (_LOSSY_INT_FLOAT, "sat"),
    **{(d, "f32"): (_LOSSY_INT_FLOAT, "sat") for d in ("s16", "s32", "s64")},
    # float -> float (table 7)
    ("bf16", "f16"): (_LOSSY_INT_FLOAT, "-"),
    ("f16", "bf16"): (_LOSSY_INT_FLOAT, "sat"),
    ("f32", "bf16"): ((), "-"),
    ("f32", "f16"): ((), "-"),  # the Cast page's half row lists float (exact)
    ("f16", "f32"): (("odd",) + _LOSSY_INT_FLOAT, "sat"),
    ("bf16", "f32"): (_LOSSY_INT_FLOAT, "sat"),
    # integer -> float (table 8)
    ("f16", "s8"): ((), "-"), ("f16", "u8"): ((), "-"),
    ("f16", "s16"): (_LOSSY_INT_FLOAT, "-"),
    ("f32", "s16"): ((), "-"),
    ("f32", "s32"): (_LOSSY_INT_FLOAT, "-"),
    ("f32", "s64"): (_LOSSY_INT_FLOAT, "-"),
    # integer -> integer (table 9)
    ("s16", "s8"): ((), "-"), ("s32", "s8"): ((), "-"),
    ("u16", "u8"): ((), "-"), ("u32", "u8"): ((), "-"),
    ("u8", "s16"): ((), "sat"), ("s32", "s16"): ((), "-"), ("u32", "s16"): ((), "-"),
    ("u8", "u16"): ((), "sat"), ("u32", "u16"): ((), "-"),
    ("u8", "s32"): ((), "sat"), ("s16", "s32"): ((), "sat"), ("u16", "s32"): ((), "sat"),
    ("s64", "s32"): ((), "-"),
    ("u8", "u32"): ((), "sat"), ("s16", "u32"): ((), "sat"), ("u16", "u32"): ((), "sat"),
    ("s32", "s64"): ((), "sat"),
    # the 950 types (issue 34): int4x2_t (s4), fp4x2 pairs, the 8-bit floats; a widening
    # Cast from them is exact (RoundMode::UNKNOWN)
    ("s4", "f16"): (_LOSSY_INT_FLOAT, "sat"), ("s4", "s16"): ((), "sat"),
    ("s16", "s4"): ((), "-"), ("f16", "s4"): ((), "-"), ("bf16", "s4"): ((), "-"),
    ("bf16", "f4e2m1"): ((), "-"), ("bf16", "f4e1m2"): ((), "-"),
    ("f4e2m1", "bf16"): (_LOSSY_INT_FLOAT, "-"), ("f4e1m2", "bf16"): (_LOSSY_INT_FLOAT, "-"),
    ("f16", "hif8"): ((), "-"), ("f32", "hif8"): ((), "-"),
    ("hif8", "f16"): (("round", "hybrid"), "sat"), ("hif8", "f32"): (("round", "hybrid"), "sat"),
    ("f32", "f8e4m3"): ((), "-"), ("f32", "f8e5m2"): ((), "-"),
    ("f8e4m3", "f32"): (("rint",), "sat"), ("f8e5m2", "f32"): (("rint",), "sat"),
}
# fp8_e8m0_t (bf16 <-> e8m0), also on the page, is not modelled: the page gives no rounding
# rule for bf16 -> e8m0 (docs/decisions.md)
TRUNCATE_TYPES = ("f16", "bf16", "f32")
ARANGE_TYPES = ("s8", "s16", "s32", "f16", "f32", "s64")
# Pack / UnPack (the Pack page's table): (narrow, wide) pairs
PACK_PAIRS = {("u8", "u16"), ("u8", "s16"), ("u16", "u32"), ("u16", "s32"), ("u32", "u64"),
              ("u32", "s64")}
UNPACK_PAIRS = {("u16", "u8"), ("s16", "s8"), ("u32", "u16"), ("s32", "s16"), ("u64", "u32"),
                ("s64", "s32")}


def cast_problem(dst: str, src: str, rnd: str, sat: str) -> str | None:
    """Why Cast<DST, SRC> with these trait fields is not on the Cast page, or None."""
    row = CAST_PAIRS.get((dst, src))
    if row is None:
        takes = sorted(d for d, s in CAST_PAIRS if s == src)
        return (f"Cast {src} -> {dst} is not a conversion of the Cast page" +
                (f" ({src} converts to {', '.join(takes)})" if takes else ""))
    modes, sats = row
    if modes and rnd not in ("none", *modes) or not modes and rnd == "hybrid":
        return (f"Cast {src} -> {dst} takes round modes {', '.join(modes)}, not {rnd}" if modes
                else f"Cast {src} -> {dst} is exact: it takes no RoundMode, not {rnd}")
    if rnd == "hybrid" and "hybrid" not in modes:
        return f"Cast {src} -> {dst} takes round modes {', '.join(modes)}, not {rnd}"
    if sats == "-" and sat != "auto":
        return f"Cast {src} -> {dst} takes no SatMode (SatMode::UNKNOWN), not {sat}"
    return None


class TypedRegFamily(RegFamily):
    """A family of the unit whose element types are its own (TYPES), not isa/regvec.py's."""

    __slots__ = ()
    TYPES: dict[str, tuple[str, ...]] = {}

    def chip_problem(self, name: str, chip, fields: dict, t):
        if not getattr(chip, "reg_vector", False):
            return NEEDS.message.format(name=name, chip=chip.name), ""
        types = self.TYPES.get(name)
        if t is not None and types is not None and t.name not in types:
            return f"{name}.{t.name} is not supported (supports {', '.join(types)})", ""
        return None


class CastFamily(TypedRegFamily):
    """Cast: its DST.SRC pair, round mode, SatMode and RegLayout part are the Cast page's."""

    __slots__ = ()

    def pair_problem(self, name: str, dst, src, fields: dict) -> str | None:
        """Why NAME.DST.SRC with these fields is not one of the page's forms, or None."""
        part = fields.get("part", 0)
        # the ratio of values (not bytes): fp4x2 and int4x2_t hold two 4-bit values a byte
        ratio = max(value_bits(dst), value_bits(src)) // min(value_bits(dst), value_bits(src))
        if part >= ratio:
            return (f"a {ratio}:1 conversion has RegLayout parts "
                    f"{', '.join(PARTS[:ratio])} only, not {PARTS[part]}")
        return cast_problem(dst.name, src.name, ROUND_MODES[fields.get("round", 0)],
                            SAT_MODES[fields.get("sat", 0)])


class PackFamily(TypedRegFamily):
    """Pack: the page's (narrow, wide) pairs."""

    __slots__ = ()
    PAIRS: frozenset[tuple[str, str]] = frozenset()
    API = "Pack"

    def pair_problem(self, name: str, dst, src, fields: dict) -> str | None:
        if (dst.name, src.name) not in self.PAIRS:
            return f"{self.API} takes {', '.join(sorted(f'{d}.{s}' for d, s in self.PAIRS))}"
        return None


class UnpackFamily(PackFamily):
    """UnPack: the page's (wide, narrow) pairs."""

    __slots__ = ()
    PAIRS = frozenset(UNPACK_PAIRS)
    API = "UnPack"


PackFamily.PAIRS = frozenset(PACK_PAIRS)


_B8_32 = ("s8", "u8", "s16", "u16", "f16", "bf16", "s32", "u32", "f32")
TypedRegFamily.TYPES.update({"vrtrunc": TRUNCATE_TYPES, "vrarange": ARANGE_TYPES,
                             "pintlv": _B8_32, "pdintlv": _B8_32})


def _fam(name: str, cost: str) -> RegFamily:
    return TypedRegFamily(name, REGVEC, "V", cost, requires=NEEDS)


VRCVT = CastFamily("vrcvt", REGVEC, "V", "convert", requires=NEEDS)  # Cast
VRTRUNC = _fam("vrtrunc", "convert")  # Truncate
VRARANGE = _fam("vrarange", "compute")  # Arange
VRRELAYOUT = _fam("vrrelayout", "compute")  # Interleave / DeInterleave
VRPACK = PackFamily("vrpack", REGVEC, "V", "compute", requires=NEEDS)  # Pack
PRELAYOUT = _fam("prelayout", "mask")  # MaskReg Interleave / DeInterleave / Pack / UnPack
VRUNPACK = UnpackFamily("vrunpack", REGVEC, "V", "compute", requires=NEEDS)  # UnPack
