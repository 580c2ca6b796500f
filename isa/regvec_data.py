"""Issue 34 (h34a): the reg-based unit's unaligned loads and stores, gathers and scatters, block
and pair reductions, MaskReg from a RegTensor and the masked Move (docs/semantics.md §15.3).

LoadUnAlignPre / LoadUnAlign (`vldupre` / `vldu`) and StoreUnAlign / StoreUnAlignPost (`vstu`
/ `vstupost`) with the unaligned registers ul0..ul3 and us0..us3; Scatter (`vsct`) and the UB
Gather (`vgth`); the register Gather (`vrgather`); ReduceDataBlock (`vredblk*`),
PairReduceElem (`vrpairsum`), MaskGenWithRegTensor (`pgenv`), Move with a mask (`vrmovm`)
and Squeeze (`vrsqz`).
The rows are in isa/table.py, the semantics in simulator/semantics/regvec_data.py.
"""

from __future__ import annotations

from isa.regvec import NEEDS, REGVEC, RegFamily
from isa.regvec_convert import TypedRegFamily

# the element types of each mnemonic (its page's data-type table, the types pipev has; int64
# with a 32-bit index aside: Scatter / Gather take an index of the data's own width, 8-bit data
# a 16-bit one; the 8-bit Gather from UB is vgthw's)
_W16_64 = ("s16", "u16", "f16", "bf16", "s32", "u32", "f32", "s64", "u64")
TypedRegFamily.TYPES.update({
    "vsct": ("s8", "u8", *_W16_64), "vgth": _W16_64,
    "vrgather": ("s8", "u8", "s16", "u16", "f16", "bf16", "s32", "u32", "f32"),
    "vredblksum": ("f16", "s32", "u32", "f32"),
    # MAX / MIN: the union of the Reg page (half, int16, uint16) and the C API's pages (also
    # float, int32, uint32)
    **dict.fromkeys(("vredblkmax", "vredblkmin"), ("f16", "s16", "u16", "f32", "s32", "u32")),
    "vrpairsum": ("f16", "f32"),
    "pgenv": ("s16", "u16", "f16", "bf16", "s32", "u32", "f32"),
    "vrsqz": ("s8", "u8", "s16", "u16", "f16", "s32", "u32", "f32"),
    "vstuar": ("s8", "u8", "s16", "u16", "f16", "s32", "u32", "f32"),
})


class HistFamily(TypedRegFamily):
    """Histograms: uint8 values counted into uint16 bins (the page's one pair)."""

    __slots__ = ()

    def pair_problem(self, name: str, dst, src, fields: dict) -> str | None:
        if (dst.name, src.name) != ("u16", "u8"):
            return "Histograms counts u8 values into u16 bins (u16.u8)"
        return None


class WideBlockSumFamily(TypedRegFamily):
    """ReduceDataBlock / Reduce SUM of 16-bit integers into 32-bit sums (the pages' table 3
    rows int32_t ← int16_t and uint32_t ← uint16_t)."""

    __slots__ = ()
    PAIRS = (("s32", "s16"), ("u32", "u16"))

    def pair_problem(self, name: str, dst, src, fields: dict) -> str | None:
        if (dst.name, src.name) not in self.PAIRS:
            return f"{name} sums s16 into s32 and u16 into u32 (s32.s16, u32.u16)"
        return None


class ExpSubFamily(TypedRegFamily):
    """ExpSub: float from float, or float from the even (part=zero) or odd (part=one) halves
    (the ExpSub page's table 3 and its RegLayout)."""

    __slots__ = ()
    PAIRS = (("f32", "f32"), ("f32", "f16"))

    def pair_problem(self, name: str, dst, src, fields: dict) -> str | None:
        if (dst.name, src.name) not in self.PAIRS:
            return "ExpSub computes f32 from f32 or from f16 (f32.f32, f32.f16)"
        if fields.get("part", 0) > (1 if src.name == "f16" else 0):
            return ("ExpSub's RegLayout is zero or one for f16 sources, none for f32 "
                    "(the page: not in effect)")
        return None


class WideGatherFamily(WideBlockSumFamily):
    """Gather from UB of 8-bit data into 16-bit elements (the page's int16_t ← int8_t and
    uint16_t ← uint8_t rows)."""

    __slots__ = ()
    PAIRS = (("s16", "s8"), ("u16", "u8"))

    def pair_problem(self, name: str, dst, src, fields: dict) -> str | None:
        if (dst.name, src.name) not in self.PAIRS:
            return "Gather widens s8 into s16 and u8 into u16 (s16.s8, u16.u8)"
        return None


def _fam(name: str, cost: str) -> RegFamily:
    return TypedRegFamily(name, REGVEC, "V", cost, requires=NEEDS)


VLDUPRE = _fam("vldupre", "load")  # LoadUnAlignPre
VLDU = _fam("vldu", "load")  # LoadUnAlign
VSTU = _fam("vstu", "store")  # StoreUnAlign
VSTUPOST = _fam("vstupost", "store")  # StoreUnAlignPost
VSCATTER = _fam("vscatter", "gather")  # Scatter to UB
VGATHER = _fam("vgatherub", "gather")  # Gather from UB
VGATHERW = WideGatherFamily("vgatherw", REGVEC, "V", "gather", requires=NEEDS)  # 8 → 16 bits
VGATHERB = _fam("vgatherbub", "gather")  # GatherB: 32-byte blocks from UB
VRGATHER = _fam("vrgather", "compute")  # Gather within a register
VREDBLK = _fam("vredblk", "reduce")  # ReduceDataBlock
VREDBLKW = WideBlockSumFamily("vredblkw", REGVEC, "V", "reduce", requires=NEEDS)  # 16 → 32 SUM
VREDW = WideBlockSumFamily("vredw", REGVEC, "V", "reduce", requires=NEEDS)  # Reduce 16 → 32 SUM
VREXPSUB = ExpSubFamily("vrexpsub", REGVEC, "V", "math", requires=NEEDS)  # ExpSub
VRPAIR = _fam("vrpair", "compute")  # PairReduceElem
PGENV = _fam("pgenv", "mask")  # MaskGenWithRegTensor
VRMOVM = _fam("vrmovm", "compute")  # Move with a mask (merging)
VRSQZ = _fam("vrsqz", "compute")  # Squeeze (ar=1: GatherMaskMode STORE_REG)
VCLRAR = _fam("vclrar", "mask")  # ClearSpr<SpecialPurposeReg::AR>
VRHIST = HistFamily("vrhist", REGVEC, "V", "compute", requires=NEEDS)  # Histograms
