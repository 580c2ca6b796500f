"""CastDequant's hardware forms and the DEQSCALE register (#27, #29; docs/semantics.md §6.4.4).

DEQSCALE is one 64-bit register, machine state (`Machine.special["deqscale"]`: the undo log
restores it, as it does VA0..VA7). Its fields, per the SetDeqScale page's bit table:

- vconv_deq (int32_t → half): bits [15:0] are a half scale; dst = f16(src × scale), rounded to
  nearest even once (the CastDequant page: "RINT", dst = Cast(src × scale)), a finite value
  beyond half's range saturating as Cast's conversions do;
- vconv_deqs162b8h/l (int16_t → int8_t/uint8_t): bits [31:0] an f32 scale M the hardware reads
  as (1, 8, 10) — its 13 low mantissa bits ignored —, [45:37] a signed 9-bit offset, [46] the
  sign mode (1: the result saturates to int8_t, 0: to uint8_t). Each element: the f32 product
  src × M (rounded to nearest even), rounded to an integer (nearest even) and saturated to s9,
  plus the offset, saturated to the 8-bit type;
- vconv_vdeqs162b8h/l: bits [13:0] are the UB address / 32 of a 128-byte table of 16 such
  64-bit words; element k of each source block uses word k.

The b8 forms write each source block's 16 results into one half of the destination block of
the same index (h: bytes 16..31, l: 0..15) and leave the other half as it was. Which parts are
the pages' and which are pipev's reading is in docs/decisions.md.
"""

from __future__ import annotations

import attrs
import numpy as np

from isa.decode import VectorOp, decode_vector, half_block_access, row_access
from isa.program import Instruction
from isa.types import TYPES
from simulator import checks
from simulator.machine import Machine
from simulator.problems import Fault, Problem
from simulator.semantics import vector
from simulator.semantics.common import load, store
from simulator.semantics.context import Context
from simulator.semantics.issued import Issued

KEY = "deqscale"  # Machine.special's key of DEQSCALE
M64 = (1 << 64) - 1
SCALE_MASK = 0xFFFFE000  # M's bits the hardware reads: sign, exponent, 10 mantissa bits
TABLE_BYTES = 128  # the vdeq table: 16 words of 64 bits


def set_deqscale(ex: Context, instr: Instruction) -> Issued:
    """DEQSCALE = VALUE (taken modulo 2^64), in program order at issue; issued to its family's
    pipe (V, as the C API page says)."""
    pipe = instr.defn.family.pipe
    op = instr.operands["value"]
    if op.kind == "mem":  # the vdeq table's address: 32-byte aligned, the register holds / 32
        addrs, _ = ex.resolve(instr)
        addr = addrs["value"]
        if addr % 32:
            raise Fault(Problem("align", f"{instr.head}: the vdeq parameter table at UB "
                                f"{addr:#x} is not 32-byte aligned", role="value"))
        return Issued(pipe, None, _write, addr // 32)
    value = ex.int_operand(instr, "value") & M64
    return Issued(pipe, None, _write, value)


def _write(m: Machine, _op, value, _lo, _hi) -> None:
    m.special[KEY] = value


def _register(ex: Context, instr: Instruction) -> int:
    value = ex.m.special.get(KEY)
    if value is None:
        raise Fault(Problem("operand", f"{instr.head} reads DEQSCALE, which no set_deqscale has "
                            "written (SetDeqScale / asc_set_deq_scale before the conversion)"))
    return value


# -- int32_t → half ---------------------------------------------------------------------------
def issue_deq(ex: Context, instr: Instruction) -> Issued:
    """vconv_deq: vconv's decoding and checks, the body with DEQSCALE's half scale."""
    scale = _register(ex, instr) & 0xFFFF
    m = ex.m
    addrs, fields = ex.resolve(instr)
    vop = decode_vector(instr, addrs, fields, m.mask, m.counter)
    if vector._noop(ex, instr, vop, fields):
        return Issued("V", vop, uops=vop.repeats)
    sequential = vector._check(ex, instr, vop)
    r = vop.repeats
    return Issued("V", vop, deq_body, scale, r, sequential, uops=r)


def deq_f16(src: np.ndarray, scale_bits: int) -> np.ndarray:
    """Raw f16 bits of f16(src × scale), exactly: the product as ±M·2^E, rounded once."""
    # imported at first use, as vconv's body is (start-up imports no conversion code)
    from simulator.semantics.convert import Parts, to_float

    f16 = TYPES["f16"]
    v = src.astype(np.int64)
    e = (scale_bits >> 10) & 0x1F
    frac = scale_bits & 0x3FF
    neg_scale = bool(scale_bits >> 15)
    shape = v.shape
    if e == 0x1F:  # NaN scale: that NaN, quieted; ±inf: ±inf, or the default NaN for 0 × inf
        if frac:
            return np.full(shape, scale_bits | 0x0200, np.uint16)
        inf = np.where((v < 0) ^ neg_scale, np.uint16(0xFC00), np.uint16(0x7C00))
        return np.where(v == 0, np.uint16(0x7E00), inf).astype(np.uint16)
    mant = (frac | 0x400) if e else frac
    exp = (e if e else 1) - 15 - 10
    # |src| < 2^31 and mant < 2^11: the product fits int64 exactly
    parts = Parts((v < 0) ^ neg_scale, np.abs(v) * mant, np.full(shape, exp, np.int64),
                  np.zeros(shape, bool), np.zeros(shape, bool), np.zeros(shape, np.int64))
    out = to_float(parts, f16, "rint")
    if neg_scale:  # a zero product keeps the sign of src × scale (IEEE: -0 for +0 × -s)
        out = np.where(v == 0, np.uint16(0x8000), out).astype(np.uint16)
    return out


def deq_body(m: Machine, vop: VectorOp, scale: int, lo: int, hi: int) -> None:
    raw = load(m, vop, vop.access("src"), lo, hi).view(np.int32)
    store(m, vop, vop.access("dst"), deq_f16(raw, scale), lo, hi)


# -- int16_t → int8_t / uint8_t ------------------------------------------------------------------
@attrs.frozen(eq=False)
class DeqParams:
    """M (f32 bits, cut), offset (s9) and sign mode, one each (deq) or 16 (vdeq, by k % 16)."""

    scale: np.ndarray  # uint32 bits
    offset: np.ndarray  # int64
    signed: np.ndarray  # bool


def params_of(words: np.ndarray) -> DeqParams:
    """DEQSCALE-format 64-bit words → their fields (the offset's 9 bits sign-extended)."""
    w = words.astype(np.uint64)
    scale = (w & np.uint64(SCALE_MASK)).astype(np.uint32)
    off = ((w >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64)
    off = np.where(off >= 256, off - 512, off)
    return DeqParams(scale, off, ((w >> np.uint64(46)) & np.uint64(1)).astype(bool))


def deq_b8(src: np.ndarray, p: DeqParams) -> np.ndarray:
    """uint8 raw results of int16 SRC with parameters P (broadcast over SRC's last axis)."""
    m = p.scale.view(np.float32).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        prod = (src.astype(np.float64) * m).astype(np.float32)  # exact in f64: one rounding
        q = np.rint(prod)  # f32 → integer, nearest even (numpy's rint is exact)
    # NaN → 0; ±inf and the rest saturate to s9's range
    q = np.clip(np.where(np.isnan(q), np.float32(0), q), -256, 255).astype(np.int64) + p.offset
    out = np.where(p.signed, np.clip(q, -128, 127), np.clip(q, 0, 255))
    return out.astype(np.uint8)


def issue_deq_b8(ex: Context, instr: Instruction) -> Issued:
    m = ex.m
    word = _register(ex, instr)
    addrs, fields = ex.resolve(instr)
    vec = "_vdeq" in instr.name
    taddr = (word & 0x3FFF) * 32 if vec else None
    if vec:  # the table's address keys a stored decoding as vsel mode 2's mask address does
        addrs = dict(addrs, table=taddr)
    vop = ex.decodings.get(instr, addrs, fields, m.mask, m.counter, taddr)
    if vop is None:  # a first sighting: decode, lay out, check; stored when the checks pass
        vop = decode_vector(instr, addrs, fields, m.mask, m.counter)
        if vector._noop(ex, instr, vop, fields):
            return Issued("V", vop, uops=vop.repeats)
        vop = _laid_out(vop, fields, instr.name.endswith("h"))
        if vec:  # the table is read like an operand: bounds, footprint, init and race checks
            table = row_access("table", taddr, TABLE_BYTES)
            vop = attrs.evolve(vop, operands=vop.operands + (table,), memo={})
        seen = len(ex.policy.diagnostics)
        for acc in vop.operands:
            vector.check_operand(ex, instr, vop, acc, 32, not instr.is_static)
        ex.check(instr, checks.overlap(vop))
        if len(ex.policy.diagnostics) == seen:
            ex.decodings.put(instr, addrs, fields, taddr, vop)
    params = _table(ex, instr, word) if vec else params_of(np.array([word], np.uint64))
    _sign_mode(ex, instr, vop, params)
    r = vop.repeats
    return Issued("V", vop, deq_b8_body, params, r, uops=r)


def _laid_out(vop: VectorOp, fields: dict, high: bool) -> VectorOp:
    laid = half_block_access(vop.access("dst"), vop.repeats, fields["dst_blk"],
                             fields["dst_rep"], high)
    return attrs.evolve(vop, operands=tuple(laid if a.role == "dst" else a
                                            for a in vop.operands), memo={})


def _table(ex: Context, instr: Instruction, word: int) -> DeqParams:
    """The 16 parameter words at (DEQSCALE[13:0]) · 32 in UB, read at issue."""
    addr = (word & 0x3FFF) * 32
    ub = ex.m.ub
    if addr + TABLE_BYTES > ub.size:
        raise Fault(Problem("bounds", f"{instr.head}: DEQSCALE points at a parameter table at "
                            f"UB {addr:#x}, whose 128 bytes end past UB ({ub.size:#x} bytes)"))
    return params_of(ub[addr:addr + TABLE_BYTES].view(np.uint64).copy())


def _sign_mode(ex: Context, instr: Instruction, vop: VectorOp, p: DeqParams) -> None:
    """The sign mode decides the saturation, the destination type only how it is read: a
    mismatch is the page's stated misuse (signMode=true goes with int8_t, false with uint8_t)."""
    want = instr.dtype.kind == "int"
    used = p.signed if p.signed.size == 1 else p.signed[np.arange(128) % 16][vop.row]
    if bool(np.any(used != want)):
        ex.warn(instr, Problem("type", f"{instr.head}: DEQSCALE's sign mode says "
                               f"{'int8' if not want else 'uint8'} results, the destination is "
                               f"{instr.dtype.name} (SetDeqScale's signMode must match "
                               "CastDequant's output type: true for int8_t, false for uint8_t)"),
                once="deq_sign")


def deq_b8_body(m: Machine, vop: VectorOp, p: DeqParams, lo: int, hi: int) -> None:
    src = load(m, vop, vop.access("src"), lo, hi).view(np.int16)
    if p.scale.size > 1:  # vdeq: word k % 16 for element k of a repeat
        k = np.arange(128) % 16
        p = DeqParams(p.scale[k], p.offset[k], p.signed[k])
    out = deq_b8(src, p)
    dst = vop.access("dst")
    idx = dst.base + dst.index[lo:hi]
    act = vop.active[lo:hi]
    m.ub[idx[act]] = out[act]
