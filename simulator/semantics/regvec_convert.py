"""Issue 34 (h34a): the reg-based unit's conversions and relayouts (docs/semantics.md §15.2).

Cast runs on the memory-based unit's exact conversion (semantics/convert.py: integer arithmetic
on the raw bits, one rounding) with the Cast page's reg rules on top of it:

- SatMode SAT (and UNKNOWN, docs/decisions.md): a value beyond the destination's range gives its
  extreme; a float NaN gives 0 (float → float: +0); ±inf gives the extremes (float: ±max); a
  float widening (half, bfloat16 → float) is exact, ±inf and NaN kept;
- NO_SAT: float → integer keeps the rounded integer's low bits (half 257 → uint8 1), integer →
  integer truncates to the width, ±inf still gives the extremes and NaN 0; float → float keeps
  NaN (quieted) and ±inf, and a finite overflow gives ±inf;
- RegLayout: a widening Cast reads element part + r·i of each group of r narrow source elements
  (r = the size ratio), a narrowing one writes element part + r·i of the destination, the rest 0;
- the MaskReg enables source elements (bit size·k of the source's width); disabled ones give 0.

Truncate rounds a float to an integral value in its own type; Arange counts from a scalar;
Interleave / DeInterleave and Pack / UnPack move raw elements.
"""

from __future__ import annotations

import numpy as np

from isa import ctrl
from isa.program import Instruction
from isa.regvec import VL
from isa.regvec_convert import CAST_PAIRS, SAT_MODES
from isa.table import ROUND_MODES
from isa.types import LOW_FLOATS, TYPES, DType, value_bits
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics.context import Context
from simulator.semantics.ctrl import value as ctrl_value
from simulator.semantics.issued import Issued
from simulator.semantics.regvec import (
    _file,
    _read_p,
    _read_v,
    _reg,
    _scalar,
    _write_p,
    _write_v,
    active,
)


def reg_convert(raw: np.ndarray, src: DType, dst: DType, mode: str, sat: bool) -> np.ndarray:
    """Raw SRC elements → raw DST elements by the reg-based Cast's rules (module docstring)."""
    # imported when a Cast runs: a plain run does not load the conversion code (test_cli)
    from simulator.semantics.convert import split, to_float, to_int, to_integral

    if src.name in LOW_FLOATS or dst.name in LOW_FLOATS or src.nibble or dst.nibble:
        return _low_convert(raw, src, dst, mode, sat)
    if src.is_int and dst.is_int:
        v = raw.view(src.numeric).astype(np.int64) if src.name != "u64" else \
            raw.view(np.uint64)
        if sat:
            info = np.iinfo(dst.numeric)
            v = np.clip(v, max(int(info.min), -(1 << 63)), min(int(info.max), (1 << 63) - 1))
        return v.astype(dst.numeric).view(dst.raw)  # astype wraps: NO_SAT keeps the low bits
    if dst.is_float and src != dst and mode in ("none", "rint"):
        fast = _nearest_even(raw, src, dst, sat)
        if fast is not None:
            return fast
    p = split(raw, src)
    if dst.is_float:
        if src == dst:
            return to_integral(p, dst, mode)
        out = to_float(p, dst, mode, "max" if sat else "inf")
        if sat and src.is_float and dst.size <= src.size:  # SAT: ±inf gives ±max, NaN +0
            # (a widening is exact: ±inf and NaN stay, which the vendor's nan_to_num relies on)
            sign = np.where(p.neg, np.int64(1) << (8 * dst.size - 1), 0)
            out = np.where(p.inf, sign | _max_bits(dst), out)
            out = np.where(p.nan, 0, out).astype(dst.raw)
        return out
    if sat:
        return to_int(p, dst, mode)
    return _wrap_int(p, dst, mode)


def _low_convert(raw: np.ndarray, src: DType, dst: DType, mode: str, sat: bool) -> np.ndarray:
    """The 950 types' conversions, one 4- or 8-bit code an element of RAW (the narrow side's
    codes one a uint8): semantics/lowfloat.py for the floats; int4 as an integer of −8..7."""
    from simulator.semantics import lowfloat

    if src.name in LOW_FLOATS:
        return lowfloat.widen(raw, src.name, dst)
    if dst.name in LOW_FLOATS:
        mode = "round" if dst.name == "hif8" and mode == "none" else mode
        return lowfloat.narrow(raw, src, dst.name, "rint" if mode == "none" else mode, sat)
    if src.nibble:  # int4 → s16 / f16 / bf16: exact
        v = ((raw.astype(np.int16) & 0xF) ^ 8) - 8
        if dst.is_int:
            return v.astype(dst.numeric).view(dst.raw)
        if dst.name == "bf16":  # exact: |v| <= 8
            return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        return v.astype(dst.numeric).view(dst.raw)
    # → int4: f16 rounds to an integer (s32 holds every half), then SAT clamps to −8..7 and
    # NO_SAT keeps the low 4 bits; ±inf gives the extremes either way, NaN 0
    v = raw.view(src.numeric).astype(np.int64) if src.is_int else \
        reg_convert(raw, src, TYPES["s32"], mode, True).view(np.int32).astype(np.int64)
    clamped = np.clip(v, -8, 7)
    out = clamped if sat else np.where(v == clamped, v, v & 0xF)
    if src.is_float:
        inf = np.isinf(lowfloat.source_values(raw, src))
        out = np.where(inf, clamped, out)
    return (out & 0xF).astype(np.uint8)


def _nearest_even(raw: np.ndarray, src: DType, dst: DType, sat: bool) -> np.ndarray | None:
    """numpy's own conversion, where it is the exact rule: to a float in round-to-nearest-even
    (one correctly rounded step: C's and ml_dtypes' casts), when no source is NaN (pipev quiets
    NaNs, numpy may not), no finite value overflows and, saturating, no source is ±inf (±max
    then). None otherwise: the exact path decides."""
    vals = raw.view(src.raw).view(src.numeric)
    if src.is_float:
        special = ~np.isfinite(vals)
        if special.any() and (sat or np.isnan(vals).any()):
            return None
    with np.errstate(all="ignore"):
        out = vals.astype(dst.numeric)
    if np.isinf(out).any() and (np.isinf(out) & np.isfinite(vals)).any():
        return None
    return out.view(dst.raw)


def _max_bits(t: DType) -> int:
    """The bits of T's largest finite value."""
    mant = t.mantissa_bits
    exp_bits = 8 * t.size - 1 - mant
    return ((((1 << exp_bits) - 1) << mant) - 1)


def _wrap_int(p, dst: DType, mode: str) -> np.ndarray:
    """Float → integer, NO_SAT: the rounded integer modulo 2^bits; ±inf the extremes, NaN 0."""
    from simulator.semantics.convert import round_shift

    n = 8 * dst.size
    frac = p.exp < 0
    m = round_shift(p.mag, np.where(frac, -p.exp, 0), p.neg, mode).astype(np.uint64)
    k = np.where(frac, 0, p.exp)
    low = np.where(k >= 64, np.uint64(0), m << np.minimum(k, 63).astype(np.uint64))
    low = np.where(p.neg, ~low + np.uint64(1), low)  # two's complement, modulo 2^64
    info = np.iinfo(dst.numeric)
    ext = np.where(p.neg, np.uint64(int(info.min) % (1 << 64)), np.uint64(int(info.max)))
    low = np.where(p.inf, ext, np.where(p.nan, np.uint64(0), low))
    mask = np.uint64((1 << n) - 1) if n < 64 else np.uint64((1 << 64) - 1)
    return (low & mask).astype(np.dtype(f"u{dst.size}")).view(dst.raw)


# -- Cast -------------------------------------------------------------------------------------
def vrcvt(ex: Context, instr: Instruction) -> Issued:
    dst, src = instr.dtype, instr.src_dtype
    fields = instr.fields
    mode = ROUND_MODES[fields.get("round", 0)]
    sat = SAT_MODES[fields.get("sat", 0)]
    part = fields.get("part", 0)
    pair = src.nibble or dst.nibble or value_bits(src) == 4 or value_bits(dst) == 4
    # the enabled source elements (a 4-bit pair conversion: every element, as pairs)
    _read_v(ex, instr, "a", under=None if pair else "m", size=src.size)
    _check_mask(ex, instr, (src.size, dst.size))
    # a pair that takes a SatMode follows CTRL when it runs (the global bits or this one's)
    own = sat != "nosat" if CAST_PAIRS[(dst.name, src.name)][1] == "sat" else None
    return Issued("V", None, _vrcvt, (dst, src, mode, own, part, _reg(instr, "d"),
                                      _reg(instr, "a"), _reg(instr, "m")))


def _check_mask(ex: Context, instr: Instruction, widths: tuple[int, ...]) -> None:
    """The MaskReg is written, and made for the source's width or the destination's (the
    vendor's Cast sample makes it for the destination: bit 4i of a b32 mask is bit 2·(2i) of
    the b16 source, the even elements a RegLayout ZERO cast reads)."""
    _read_p(ex, instr, "m", None)
    regs = _file(ex, instr)
    r = _reg(instr, "m")
    w = int(regs.p_width[r])
    if regs.p_set[r] and w and w not in widths:
        t = instr.src_dtype or instr.dtype
        ex.check(instr, Problem("mask", f"{instr.name} uses p{r}, a MaskReg made for "
                                f"{8 * w}-bit elements", f", with {8 * t.size}-bit source "
                                f"elements (make it with CreateMask<{t.name}>)", role="m"))


def cast_register(raw: np.ndarray, on: np.ndarray, dst: DType, src: DType, mode: str,
                  sat: bool, part: int) -> np.ndarray:
    """The VL bytes of the destination register: RAW the source register's bytes, ON the
    source elements the mask enables (docs/semantics.md §15.2)."""
    if src.nibble or dst.nibble or value_bits(src) == 4 or value_bits(dst) == 4:
        return _pair_register(raw, on, dst, src, mode, sat, part)
    s = raw.view(src.raw)
    if dst.size == src.size:
        out = np.where(on, reg_convert(s, src, dst, mode, sat), np.zeros((), dst.raw))
    elif dst.size > src.size:  # widening: element part of each group of r
        r = dst.size // src.size
        pick = s[part::r]
        out = np.where(on[part::r], reg_convert(pick, src, dst, mode, sat),
                       np.zeros((), dst.raw))
    else:  # narrowing: into element part of each group of r
        r = src.size // dst.size
        out = np.zeros(VL // dst.size, dst.raw)
        out[part::r] = np.where(on, reg_convert(s, src, dst, mode, sat), np.zeros((), dst.raw))
    return np.ascontiguousarray(out).view(np.uint8)


def _pair_register(raw: np.ndarray, on: np.ndarray, dst: DType, src: DType, mode: str,
                   sat: bool, part: int) -> np.ndarray:
    """int4x2_t / fp4x2 ↔ a 16-bit type (the Cast page: the instruction reads and writes two
    values as a pair, the mask of a narrowing one read at the even element): a byte of two
    4-bit values and a pair of 16-bit elements (4 bytes) are the units, 4:1 under RegLayout;
    ON: the source's elements (bytes, or 16-bit elements) the mask enables."""
    if src.size == 1:  # widening: byte part + 4i → elements 2i (low half), 2i + 1 (high half)
        b = raw[part::4]
        halves = np.stack([b & 0xF, b >> 4], axis=-1).reshape(-1)
        vals = reg_convert(halves, src, dst, mode, sat)
        keep = np.repeat(on[part::4], 2)
        return np.where(keep, vals, np.zeros((), dst.raw)).view(np.uint8)
    vals = reg_convert(raw.view(src.raw), src, dst, mode, sat).reshape(-1, 2)
    byte = (vals[:, 0] & 0xF) | ((vals[:, 1] & 0xF) << 4)
    out = np.zeros(VL, np.uint8)
    out[part::4] = np.where(on[0::2], byte, 0)
    return out


def _vrcvt(m: Machine, _op, arg, _lo, _hi) -> None:
    dst, src, mode, own, part, d, a, mk = arg
    # SatMode UNKNOWN's pairs run as sat (docs/decisions.md); the others as CTRL says
    sat = True if own is None else ctrl.saturates(ctrl_value(m),
                                                  dst.name[0] in "su", own)
    on = active(m.regs.p[mk], src.size)
    _write_v(m, d, cast_register(m.regs.v[a], on, dst, src, mode, sat, part))


# -- Truncate, Arange -------------------------------------------------------------------------
def vrtrunc(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    _read_v(ex, instr, "a", under="m")
    _read_p(ex, instr, "m", t)
    mode = ROUND_MODES[instr.fields.get("round", 0)]
    return Issued("V", None, _vrtrunc, (t, mode, _reg(instr, "d"), _reg(instr, "a"),
                                        _reg(instr, "m")))


def _vrtrunc(m: Machine, _op, arg, _lo, _hi) -> None:
    from simulator.semantics.convert import split, to_integral

    t, mode, d, a, mk = arg
    on = active(m.regs.p[mk], t.size)
    res = to_integral(split(m.regs.v[a].view(t.raw), t), t, mode)
    _write_v(m, d, np.where(on, res, np.zeros((), t.raw)))


def arange(start, t: DType, desc: bool) -> np.ndarray:
    """START + k (desc: START + N-1-k) in T: integers wrap, floats round once to nearest even
    (the sum in float64 is exact for every k < 128 and f16/f32 START but for a last rounding
    that float64's 53 bits make innocuous: 53 >= 2·24 + 2)."""
    n = VL // t.size
    k = np.arange(n)[::-1] if desc else np.arange(n)
    if t.is_int:
        return (np.asarray(start).astype(np.int64) + k).astype(t.numeric)
    with np.errstate(all="ignore"):
        return (np.float64(start) + k.astype(np.float64)).astype(t.numeric)


def vrarange(ex: Context, instr: Instruction) -> Issued:
    t = instr.dtype
    start = _scalar(ex, instr, t)
    return Issued("V", None, _vrarange, (_reg(instr, "d"),
                                         arange(start, t, instr.fields.get("desc", 0) == 1)))


def _vrarange(m: Machine, _op, arg, _lo, _hi) -> None:
    d, values = arg
    _write_v(m, d, values)


# -- Interleave / DeInterleave, Pack / UnPack -------------------------------------------------
def vrrelayout(ex: Context, instr: Instruction) -> Issued:
    _read_v(ex, instr, "a", "b")
    if _reg(instr, "d") == _reg(instr, "e"):
        raise Fault(Problem("operand", f"{instr.name} writes v{_reg(instr, 'd')} twice",
                            " (dstReg0 and dstReg1 must be different registers)", role="e"))
    return Issued("V", None, _relayout, (instr.name, instr.dtype.size, _reg(instr, "d"),
                                         _reg(instr, "e"), _reg(instr, "a"), _reg(instr, "b")))


def relayout(name: str, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Interleave: (a0 b0 a1 b1 ...) split in two halves; DeInterleave: the even and the odd
    elements of a then b. A and B: the registers' elements as raw integers."""
    n = a.size
    if name == "vrintlv":
        z = np.empty(2 * n, a.dtype)
        z[0::2], z[1::2] = a, b
        return z[:n], z[n:]
    z = np.concatenate((a, b))
    return z[0::2], z[1::2]


def _relayout(m: Machine, _op, arg, _lo, _hi) -> None:
    name, size, d, e, a, b = arg
    raw = np.dtype(f"u{size}")
    x, y = relayout(name, m.regs.v[a].view(raw), m.regs.v[b].view(raw))
    _write_v(m, d, x.copy())
    _write_v(m, e, y.copy())


def vrpack(ex: Context, instr: Instruction) -> Issued:
    dst, src = instr.dtype, instr.src_dtype
    pack = dst.size < src.size  # Pack narrows, UnPack widens
    _read_v(ex, instr, "a")
    return Issued("V", None, _vrpack, (pack, dst, src, instr.fields.get("half", 0),
                                       _reg(instr, "d"), _reg(instr, "a")))


def pack_register(raw: np.ndarray, dst: DType, src: DType, high: int, pack: bool) -> np.ndarray:
    """Pack: each SRC element's low DST bytes into one half of the register, the other half
    0; UnPack: one half of the SRC elements widened (sign-extended when SRC is signed)."""
    if pack:
        n = VL // src.size
        low = raw.reshape(n, src.size)[:, :dst.size]
        out = np.zeros((2, n, dst.size), np.uint8)
        out[high] = low
        return out.reshape(-1)
    n = VL // dst.size
    half = raw.view(src.numeric)[high * n:(high + 1) * n]
    return half.astype(dst.numeric).view(np.uint8)


def _vrpack(m: Machine, _op, arg, _lo, _hi) -> None:
    pack, dst, src, high, d, a = arg
    _write_v(m, d, pack_register(m.regs.v[a], dst, src, high, pack))


# -- MaskReg Interleave / DeInterleave / Pack / UnPack -----------------------------------------
def prelayout(ex: Context, instr: Instruction) -> Issued:
    roles = [r for r in ("a", "b") if r in instr.operands]
    for role in roles:
        _read_p(ex, instr, role, None)
    dst = [_reg(instr, r) for r in ("d", "e") if r in instr.operands]
    if len(dst) == 2 and dst[0] == dst[1]:
        raise Fault(Problem("operand", f"{instr.name} writes p{dst[0]} twice",
                            " (dst0 and dst1 must be different registers)", role="e"))
    size = instr.dtype.size if instr.dtype is not None else 0
    return Issued("V", None, _prelayout, (instr.name, size, dst, [_reg(instr, r) for r in roles],
                                          instr.fields.get("half", 0)))


def mask_relayout(name: str, size: int, srcs: list[np.ndarray], high: int) -> list[np.ndarray]:
    """The MaskReg forms on the registers' bits (little-endian, bit i = element i's bit)."""
    bits = [np.unpackbits(p, bitorder="little") for p in srcs]
    n = bits[0].size
    if name in ("pintlv", "pdintlv"):
        a, b = bits[0].reshape(-1, size), bits[1].reshape(-1, size)
        x, y = relayout("vrintlv" if name == "pintlv" else "vrdintlv",
                        np.arange(a.shape[0]), np.arange(a.shape[0]) + a.shape[0])
        both = np.concatenate((a, b))
        outs = [both[x].reshape(-1), both[y].reshape(-1)]
    elif name == "ppack":
        out = np.zeros(n, np.uint8)
        out[high * n // 2:(high + 1) * n // 2] = bits[0][0::2]
        outs = [out]
    else:  # punpack
        out = np.zeros(n, np.uint8)
        out[0::2] = bits[0][high * n // 2:(high + 1) * n // 2]
        outs = [out]
    return [np.packbits(o, bitorder="little") for o in outs]


def _prelayout(m: Machine, _op, arg, _lo, _hi) -> None:
    name, size, dst, srcs, high = arg
    regs = m.regs
    widths = {int(regs.p_width[s]) for s in srcs} - {0}
    width = widths.pop() if len(widths) == 1 else 0
    width = {"ppack": width // 2, "punpack": width * 2 if width < 8 else 0}.get(name, width)
    outs = mask_relayout(name, size, [regs.p[s] for s in srcs], high)
    for d, bits in zip(dst, outs, strict=True):
        _write_p(m, d, bits, size or width)


ISSUE = {"vrcvt": vrcvt, "vrtrunc": vrtrunc, "vrarange": vrarange, "vrrelayout": vrrelayout,
         "vrpack": vrpack, "vrunpack": vrpack, "prelayout": prelayout}
